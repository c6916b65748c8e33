import Foundation
import GRDB
import Testing
@testable import WeatherBotPostgres
@testable import WeatherBotSQLite
import WeatherBotStoreSQL
import WeatherBotTesting

/// A change of the schema written once (``StoreSchema``) applies on each engine, in its dialect,
/// once, after the engine's own history; rows written and read by statements written once come
/// back alike.
@Suite struct SchemaChangeTests {
    static let probe = SchemaChange(
        name: "v900: readings of a probe",
        statements: [
            """
            CREATE TABLE probe_reading (
                id BIGSERIAL, chat_id BIGINT NOT NULL, taken_at TIMESTAMPTZ NOT NULL, payload BYTEA, level FLOAT8 NOT NULL,
                is_kept BOOLEAN NOT NULL DEFAULT FALSE)
            """,
            "CREATE INDEX probe_reading_chat ON probe_reading (chat_id, id)",
        ])

    struct Reading: Equatable {
        var id: Int64
        var chatID: Int64
        var takenAt: Date
        var payload: Data?
        var level: Double
        var isKept: Bool
    }

    static let takenAt = Date(timeIntervalSince1970: 1_795_000_000.25)

    /// Two readings of chat 7 and one of chat 8; the plan collects their ids.
    static func writes(_ dialect: SQLDialect) -> SQLPlan {
        let insert = dialect.render("INSERT INTO probe_reading (chat_id, taken_at, payload, level, is_kept) VALUES (?, ?, ?, ?, ?) RETURNING id")
        return [
            SQLStatement(insert, [.integer(7), .date(takenAt), .blob(Data([0, 1, 2])), .real(-3.5), .bool(true)], role: .collecting),
            SQLStatement(insert, [.integer(8), .date(takenAt), .null, .real(0), .bool(false)], role: .collecting),
            SQLStatement(insert, [.integer(7), .date(takenAt.addingTimeInterval(60)), .null, .real(21.25), .bool(false)], role: .collecting),
        ]
    }

    static func readings(_ dialect: SQLDialect) -> SQLQuery<Reading> {
        let sql = dialect.render("SELECT id, chat_id, taken_at, payload, level, is_kept FROM probe_reading WHERE chat_id = ? ORDER BY id")
        return SQLQuery(SQLStatement(sql, [.integer(7)])) { row in
            Reading(
                id: try row.int64(required: 0), chatID: try row.int64(required: 1), takenAt: try row.date(required: 2), payload: try row.blob(3),
                level: try row.double(required: 4), isKept: try row.bool(required: 5))
        }
    }

    static let expected = [
        Reading(id: 1, chatID: 7, takenAt: takenAt, payload: Data([0, 1, 2]), level: -3.5, isKept: true),
        Reading(id: 3, chatID: 7, takenAt: takenAt.addingTimeInterval(60), payload: nil, level: 21.25, isKept: false),
    ]

    /// Applies the change twice to a new file, then writes and reads the readings.
    static func onSQLite() throws -> ([Int64]?, [Reading]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("weatherbot-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("bot.sqlite").path)
        let migrator = BotDatabase.migrator(adding: [probe])
        try migrator.migrate(queue)
        try migrator.migrate(queue)
        let applied = try queue.read { try migrator.appliedIdentifiers($0) }
        #expect(applied.contains(probe.name))
        #expect(applied.contains("v13: each place cell's lowest and highest temperature of the last days"))
        return (try queue.write { try BotDatabase.run(writes(.sqlite), $0) }, try queue.read { try BotDatabase.fetch(readings(.sqlite), $0) })
    }

    @Test(arguments: Engine.available)
    func aChangeWrittenOnceAppliesOnceOnEachEngineAndItsRowsReadBackAlike(_ engine: Engine) async throws {
        let ids: [Int64]?
        let readings: [Reading]
        switch engine {
        case .sqlite:
            (ids, readings) = try Self.onSQLite()
        case .postgres:
            let database = try await ScratchDatabase.create(on: try #require(Engine.serverURL), prefix: "weatherbot_schema")
            let store = PostgresStore(try PostgresLocation(url: database.url), logger: Engine.logger)
            do {
                (ids, readings) = try await withRunning([store.client]) {
                    let first = try await store.migrate(adding: [Self.probe])
                    #expect(first.last == Self.probe.name)
                    #expect(first.count == PostgresStore.migrations.count + 1)
                    #expect(try await store.migrate(adding: [Self.probe]).isEmpty)
                    return (try await store.run(Self.writes(.postgres)), try await store.fetch(Self.readings(.postgres)))
                }
                await database.drop()
            } catch {
                await database.drop()
                throw error
            }
        }
        #expect(ids == [1, 2, 3])
        #expect(readings == Self.expected)
    }
}
