public import Foundation

/// A value bound to a statement, as the store's records hold it; each engine binds it as its
/// columns take it (a date as SQLite's text or PostgreSQL's `timestamptz`, a flag as 0 and 1 or a
/// boolean, bytes as a BLOB or a `bytea`).
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)
    case date(Date)
}

/// A Swift value that binds as one ``SQLValue``.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable { public var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Double: SQLBindable { public var sqlValue: SQLValue { .real(self) } }
extension String: SQLBindable { public var sqlValue: SQLValue { .text(self) } }
extension Data: SQLBindable { public var sqlValue: SQLValue { .blob(self) } }
extension Bool: SQLBindable { public var sqlValue: SQLValue { .bool(self) } }
extension Date: SQLBindable { public var sqlValue: SQLValue { .date(self) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// The wrapped value's, or ``SQLValue/null`` for nil.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One statement of the store in an engine's dialect, with its values, and what its rows mean
/// to the write it is part of (``SQLPlan``).
public struct SQLStatement: Sendable {
    /// What an engine does with the statement's rows when it runs a plan.
    public enum Role: Sendable {
        /// Its rows, if any, are not read.
        case execute
        /// The rest of the plan runs only when it returns a row (a `RETURNING` of the row it
        /// changed): the write applies only to what is still there.
        case guarding
        /// Its rows' first column (an id, by `RETURNING`) is the plan's result, in order.
        case collecting
        /// It updates a row that may be gone: when it changes none, the statement `orElse` makes
        /// runs in its place (made only then: what only it needs is not encoded otherwise).
        case updating(orElse: @Sendable () throws -> SQLStatement)
    }

    /// The text in the engine's dialect, rendered once by ``StoreSQL``; values are placeholders, never spliced in.
    public var sql: String
    /// The values bound to the placeholders, in order.
    public var values: [SQLValue]
    /// What its rows mean to the plan; ``Role/execute`` unless it guards or collects.
    public var role: Role

    /// A statement already in the engine's dialect, with a value for each placeholder, in order.
    public init(_ sql: String, _ values: [SQLValue] = [], role: Role = .execute) {
        self.sql = sql
        self.values = values
        self.role = role
    }
}

/// A write's statements in order, for one transaction: each engine runs a plan the same way
/// (``SQLStatement/Role``), so what a write does is decided here once.
public typealias SQLPlan = [SQLStatement]

/// The outcome of a plan: the ids its collecting statements returned, or nil when a guarding
/// statement found nothing and the rest did not run.
public typealias SQLPlanResult = [Int64]?

/// A row read by one of the store's statements, its columns by position, each as the record
/// holds it: the engine converts its own storage (SQLite's text dates, PostgreSQL's integers of
/// any width).
public protocol SQLRow {
    func int64(_ column: Int) throws -> Int64?
    func double(_ column: Int) throws -> Double?
    func text(_ column: Int) throws -> String?
    func blob(_ column: Int) throws -> Data?
    func date(_ column: Int) throws -> Date?
    func bool(_ column: Int) throws -> Bool?
}

/// A column held NULL where the record needs a value.
public struct UnexpectedNull: Error, CustomStringConvertible {
    /// The column's position in the row, from 0.
    public var column: Int
    /// One line naming the column, for the log.
    public var description: String { "column \(column) is NULL" }
}

extension SQLRow {
    /// The column as `read` gives it; throws ``UnexpectedNull`` when it is NULL.
    private func required<Value>(_ column: Int, _ read: (Int) throws -> Value?) throws -> Value {
        guard let value = try read(column) else { throw UnexpectedNull(column: column) }
        return value
    }

    /// The column as an integer; throws ``UnexpectedNull`` when it is NULL.
    public func int64(required column: Int) throws -> Int64 { try required(column) { try int64($0) } }

    /// The column as an `Int` (a position, a count); throws ``UnexpectedNull`` when it is NULL.
    public func int(required column: Int) throws -> Int { Int(try int64(required: column)) }

    /// The column as text; throws ``UnexpectedNull`` when it is NULL.
    public func text(required column: Int) throws -> String { try required(column) { try text($0) } }

    /// The column's bytes (a payload, a state); throws ``UnexpectedNull`` when it is NULL.
    public func blob(required column: Int) throws -> Data { try required(column) { try blob($0) } }

    /// The column as a date, however the engine stores it; throws ``UnexpectedNull`` when it is NULL.
    public func date(required column: Int) throws -> Date { try required(column) { try date($0) } }

    /// The column as a flag, 0 and 1 or a boolean; throws ``UnexpectedNull`` when it is NULL.
    public func bool(required column: Int) throws -> Bool { try required(column) { try bool($0) } }

    /// The column as a real (a temperature); throws ``UnexpectedNull`` when it is NULL.
    public func double(required column: Int) throws -> Double { try required(column) { try double($0) } }
}

/// A read of the store: a statement and how each of its rows becomes a value.
public struct SQLQuery<Value>: Sendable {
    /// The statement that reads the rows.
    public var statement: SQLStatement
    /// Makes one value of each row, in the order the statement returns them; throws when a column does not read.
    public var decode: @Sendable (any SQLRow) throws -> Value

    /// A read of `statement` whose rows become values by `decode`.
    public init(_ statement: SQLStatement, decode: @escaping @Sendable (any SQLRow) throws -> Value) {
        self.statement = statement
        self.decode = decode
    }
}
