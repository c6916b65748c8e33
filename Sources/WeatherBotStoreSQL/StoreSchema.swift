/// A change to the store's tables, written once for every engine: its statements in the
/// portable form of ``SQLDialect/render(_:)``, names in snake_case, and for types the words both
/// engines read alike (`BIGINT`, `INTEGER`, `TEXT`, `BOOLEAN`) or the few the dialect turns into
/// the engine's own: `BIGSERIAL` (the table's own id, numbered from 1, its primary key),
/// `TIMESTAMPTZ` (a time), `BYTEA` (bytes), `FLOAT8` (a real).
public struct SchemaChange: Sendable, Hashable {
    /// The name each engine records it under once applied: unique among every engine's
    /// migrations, so it goes on from the highest version either has (`v15: …`).
    public var name: String
    /// Its statements in order, applied in one transaction.
    public var statements: [String]

    /// A change of the schema; see ``StoreSchema/changes`` for where it goes.
    public init(name: String, statements: [String]) {
        self.name = name
        self.statements = statements
    }

    /// The statements as `dialect` writes them.
    public func statements(in dialect: SQLDialect) -> [String] {
        statements.map(dialect.render)
    }
}

/// The store's schema from the point where both engines' own histories meet (SQLite's
/// migrations up to v13 and PostgreSQL's up to v14 reach the same tables): each engine applies
/// its history, then these, in order, each once. A new table, column or index is one change here.
public enum StoreSchema {
    /// Every change after the engines' histories, in the order they apply.
    public static let changes: [SchemaChange] = [
        SchemaChange(
            name: "v15: pollen notices",
            statements: [
                // Chats of before have pollen notices off.
                "ALTER TABLE chat ADD COLUMN notice_pollen BOOLEAN NOT NULL DEFAULT FALSE",
                // The checker reads the chats with any notice on through one partial index, as before.
                "DROP INDEX chat_notices",
                "CREATE INDEX chat_notices ON chat (id) WHERE notice_rain OR notice_warnings OR notice_pollen",
            ])
    ]
}
