public import Foundation
import GRDB
public import TelegramBotAPI
public import WeatherBotStore
import WeatherBotStoreSQL

// MARK: - Items that keep failing

extension BotDatabase {
    /// The chat workers start. When the last run did not stop cleanly, the first waiting item of
    /// each chat may be the one whose handling stopped it (a crash), so it counts an attempt.
    public func beginRun() async throws {
        _ = try transaction { db in try Self.run(Self.sql.beginRun(), db) }
    }

    /// The chat workers stopped cleanly: no item was cut off.
    public func endRun() async throws {
        _ = try transaction { db in try Self.run(Self.sql.endRun(), db) }
    }

    /// Moves an item that cannot be handled aside, into `inboxFailure` with its error, where the
    /// operator can read it, and queues `apology` to its chat; one transaction.
    ///
    /// - Returns: the outbox id of the apology, nil when the item was already gone.
    public func setAside(_ item: InboxItem, attempts: Int, error: String, apology: BotRequest, at now: Date = Date()) async throws -> Int64? {
        guard let seq = item.seq else { return nil }
        let plan = Self.sql.setAside(item, seq: seq, attempts: attempts, error: error, apology: apology, at: now)
        return try await group.submit { db in try Self.run(plan, db)?.first }
    }
}

// MARK: - A damaged file

/// The database file is damaged: nothing read from it or written to it can be trusted, so the
/// worker stops instead of confirming updates to Telegram while every step fails.
public struct DatabaseDamaged: Error, Sendable, CustomStringConvertible {
    /// What SQLite said.
    public var detail: String

    /// Damage SQLite reported, `detail` being its own words.
    public init(detail: String) {
        self.detail = detail
    }

    /// One line for the operator: the damage, and that the file must be restored or moved away.
    public var description: String {
        "the database is damaged (\(detail)); restore it from a backup, or move it away to start with an empty one"
    }
}

extension BotDatabase {
    /// Whether an error means the file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB), as opposed to a
    /// passing failure such as a busy database or a full disk.
    public static func isDamage(_ error: any Error) -> Bool {
        if error is DatabaseDamaged { return true }
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode.primaryResultCode == .SQLITE_CORRUPT || error.resultCode.primaryResultCode == .SQLITE_NOTADB
    }

    /// An error as one line for the operator: damage is named as such, with what to do.
    public func describe(_ error: any Error) -> String { Self.damage(error)?.description ?? "\(error)" }

    /// The damage an error tells of, if it does.
    public static func damage(_ error: any Error) -> DatabaseDamaged? {
        if let damage = error as? DatabaseDamaged { return damage }
        return isDamage(error) ? DatabaseDamaged(detail: "\(error)") : nil
    }

    /// Whether a failed write was refused for what it held (a constraint, a value too big), so that
    /// writing it again cannot help; a full disk, a busy or read-only database pass with time.
    public static func isRejection(_ error: any Error) -> Bool {
        if error is EncodingError { return true }
        guard let error = error as? DatabaseError else { return false }
        return [.SQLITE_CONSTRAINT, .SQLITE_TOOBIG, .SQLITE_MISMATCH, .SQLITE_RANGE].contains(error.resultCode.primaryResultCode)
    }

    /// SQLite's quick check of the whole file: nil when it is sound, else its first complaint.
    public func quickCheck() throws -> String? {
        try writer.read { db in Self.quickCheck(db) }
    }

    static func quickCheck(_ db: Database) -> String? {
        do {
            let result = try String.fetchOne(db, sql: "PRAGMA quick_check(1)") ?? "no answer"
            return result == "ok" ? nil : result
        } catch {
            return "\(error)"
        }
    }
}
