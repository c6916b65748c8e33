import Foundation
import GRDB
import WeatherBotStore
import WeatherBotStoreSQL

// The embedded engine's side of the seam: the store's plans and queries (StoreSQL) run on the
// caller's thread inside a GRDB transaction, each statement prepared once and kept by the
// connection.

extension BotDatabase {
    /// The store's statements in SQLite's dialect, rendered once.
    static let sql = StoreSQL(.sqlite)

    /// Runs a plan's statements in order inside the caller's transaction.
    static func run(_ plan: SQLPlan, _ db: Database) throws -> SQLPlanResult {
        var ids: [Int64] = []
        for statement in plan {
            let prepared = try db.cachedStatement(sql: statement.sql)
            let arguments = StatementArguments(statement.values.map(\.databaseValue))
            switch statement.role {
            case .execute:
                try prepared.execute(arguments: arguments)
            case .guarding:
                // One row is enough: the rest are not read.
                guard try Row.fetchCursor(prepared, arguments: arguments).next() != nil else { return nil }
            case .collecting:
                let rows = try Int64.fetchCursor(prepared, arguments: arguments)
                while let id = try rows.next() { ids.append(id) }
            case .updating(let orElse):
                try prepared.execute(arguments: arguments)
                if db.changesCount == 0 { _ = try run([try orElse()], db) }
            }
        }
        return ids
    }

    /// Runs plans one after the other inside the caller's transaction; a plan stopped by its
    /// guard collects nothing.
    static func run(_ plans: [SQLPlan], _ db: Database) throws -> [[Int64]] {
        try plans.map { try run($0, db) ?? [] }
    }

    static func fetch<T>(_ query: SQLQuery<T>, _ db: Database) throws -> [T] {
        let prepared = try db.cachedStatement(sql: query.statement.sql)
        let rows = try Row.fetchCursor(prepared, arguments: StatementArguments(query.statement.values.map(\.databaseValue)))
        var values: [T] = []
        while let row = try rows.next() { values.append(try query.decode(SQLiteRow(row: row))) }
        return values
    }

    /// The first row's value only; the rest are not read.
    static func fetchOne<T>(_ query: SQLQuery<T>, _ db: Database) throws -> T? {
        let prepared = try db.cachedStatement(sql: query.statement.sql)
        let rows = try Row.fetchCursor(prepared, arguments: StatementArguments(query.statement.values.map(\.databaseValue)))
        return try rows.next().map { try query.decode(SQLiteRow(row: $0)) }
    }
}

extension SQLValue {
    /// As GRDB binds it: dates as the text GRDB stores (StoredDate), flags as 0 and 1.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        case .bool(let value): value.databaseValue
        case .date(let value): StoredDate(value).databaseValue
        }
    }
}

/// A GRDB row read by position; a row's cursor reuses it, so it is read at once.
struct SQLiteRow: SQLRow {
    let row: Row

    func int64(_ column: Int) throws -> Int64? { Int64.fromDatabaseValue(row[column]) }
    func double(_ column: Int) throws -> Double? { Double.fromDatabaseValue(row[column]) }
    func text(_ column: Int) throws -> String? { String.fromDatabaseValue(row[column]) }
    func blob(_ column: Int) throws -> Data? { Data.fromDatabaseValue(row[column]) }
    func date(_ column: Int) throws -> Date? { Date.fromDatabaseValue(row[column]) }
    func bool(_ column: Int) throws -> Bool? { Bool.fromDatabaseValue(row[column]) }
}
