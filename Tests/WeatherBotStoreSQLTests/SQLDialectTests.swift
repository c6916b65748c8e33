import Testing
import WeatherBotStoreSQL

@Suite struct SQLDialectTests {
    let statement = "UPDATE outbox SET attempts = attempts + 1, not_before = ? WHERE id = ? AND chat_id = ? AND tag LIKE 'a_b?%'"

    @Test func postgresNumbersTheValuesAndKeepsTheNames() {
        #expect(
            SQLDialect.postgres.render(statement)
                == "UPDATE outbox SET attempts = attempts + 1, not_before = $1 WHERE id = $2 AND chat_id = $3 AND tag LIKE 'a_b?%'")
    }

    @Test func sqliteNamesColumnsAsItsFileDoesAndLeavesLiteralsAlone() {
        #expect(
            SQLDialect.sqlite.render(statement)
                == "UPDATE outbox SET attempts = attempts + 1, notBefore = ? WHERE id = ? AND chatId = ? AND tag LIKE 'a_b?%'")
        #expect(SQLDialect.sqlite.render("SELECT last_message_id FROM chat") == "SELECT lastMessageID FROM chat")
        #expect(SQLDialect.sqlite.render("INSERT INTO day_temperature (cell) VALUES (?)") == "INSERT INTO dayTemperature (cell) VALUES (?)")
        // The index the file's v11 named in snake_case keeps its name.
        #expect(SQLDialect.sqlite.render("DROP INDEX chat_notices") == "DROP INDEX chat_notices")
        #expect(
            SQLDialect.sqlite.render("CREATE INDEX chat_notices ON chat (id) WHERE notice_rain OR notice_pollen")
                == "CREATE INDEX chat_notices ON chat (id) WHERE noticeRain OR noticePollen")
    }

    @Test func aSchemaChangesTypesBecomeEachEnginesOwn() {
        let change = SchemaChange(
            name: "v900: a probe",
            statements: ["CREATE TABLE probe_reading (id BIGSERIAL, taken_at TIMESTAMPTZ NOT NULL, payload BYTEA, level FLOAT8, is_kept BOOLEAN)"])
        #expect(
            change.statements(in: .sqlite)
                == ["CREATE TABLE probeReading (id INTEGER PRIMARY KEY AUTOINCREMENT, takenAt DATETIME NOT NULL, payload BLOB, level DOUBLE, isKept BOOLEAN)"])
        #expect(
            change.statements(in: .postgres)
                == ["CREATE TABLE probe_reading (id BIGSERIAL PRIMARY KEY, taken_at TIMESTAMPTZ NOT NULL, payload BYTEA, level DOUBLE PRECISION, is_kept BOOLEAN)"])
    }
}
