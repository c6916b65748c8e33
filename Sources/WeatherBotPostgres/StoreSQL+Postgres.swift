import Foundation
import Logging
import PostgresNIO
import WeatherBotStoreSQL

// PostgreSQL's side of the seam: the store's plans and queries (StoreSQL) run on a connection of
// the client's pool, a plan inside the caller's transaction.

extension PostgresStore {
    /// The store's statements in PostgreSQL's dialect, rendered once.
    static let sql = StoreSQL(.postgres)

    static func query(_ statement: SQLStatement) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: statement.values.count)
        for value in statement.values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let value): bindings.append(value)
            case .real(let value): bindings.append(value)
            case .text(let value): bindings.append(value)
            case .blob(let value): bindings.append(ByteBuffer(bytes: value))
            case .bool(let value): bindings.append(value)
            case .date(let value): bindings.append(value)
            }
        }
        return PostgresQuery(unsafeSQL: statement.sql, binds: bindings)
    }

    /// Runs a plan's statements in order inside the caller's transaction.
    static func run(_ plan: SQLPlan, _ connection: PostgresConnection, _ logger: Logger) async throws -> SQLPlanResult {
        var ids: [Int64] = []
        for statement in plan {
            let rows = try await connection.query(query(statement), logger: logger).collect()
            switch statement.role {
            case .execute:
                break
            case .guarding:
                guard !rows.isEmpty else { return nil }
            case .collecting:
                ids += try rows.map { try $0.decode(Int64.self) }
            case .updating(let orElse):
                if rows.isEmpty { _ = try await run([try orElse()], connection, logger) }
            }
        }
        return ids
    }

    /// Runs plans one after the other inside the caller's transaction; a plan stopped by its
    /// guard collects nothing.
    static func run(_ plans: [SQLPlan], _ connection: PostgresConnection, _ logger: Logger) async throws -> [[Int64]] {
        var results: [[Int64]] = []
        for plan in plans { results.append(try await run(plan, connection, logger) ?? []) }
        return results
    }

    static func fetch<T>(_ query: SQLQuery<T>, _ connection: PostgresConnection, _ logger: Logger) async throws -> [T] {
        var values: [T] = []
        for try await row in try await connection.query(Self.query(query.statement), logger: logger) {
            values.append(try query.decode(PostgresSQLRow(row: row.makeRandomAccess())))
        }
        return values
    }

    /// A read of its own, on any connection of the pool.
    func fetch<T>(_ query: SQLQuery<T>) async throws -> [T] {
        var values: [T] = []
        for try await row in try await client.query(Self.query(query.statement), logger: logger) {
            values.append(try query.decode(PostgresSQLRow(row: row.makeRandomAccess())))
        }
        return values
    }

    /// A plan in a transaction of its own, fenced by the lease when one is set.
    func run(_ plan: SQLPlan) async throws -> SQLPlanResult {
        try await write { connection in try await Self.run(plan, connection, logger) }
    }
}

/// A PostgreSQL row read by position; integers of any width read as Int64.
struct PostgresSQLRow: SQLRow {
    let row: PostgresRandomAccessRow

    func int64(_ column: Int) throws -> Int64? { try row[column].decode(Int64?.self) }
    func double(_ column: Int) throws -> Double? { try row[column].decode(Double?.self) }
    func text(_ column: Int) throws -> String? { try row[column].decode(String?.self) }
    func blob(_ column: Int) throws -> Data? { try row[column].decode(Data?.self) }
    func date(_ column: Int) throws -> Date? { try row[column].decode(Date?.self) }
    func bool(_ column: Int) throws -> Bool? { try row[column].decode(Bool?.self) }
}
