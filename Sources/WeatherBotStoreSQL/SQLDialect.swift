/// What differs between the engines' SQL for the statements the store writes once: how a
/// statement's values are marked, and how tables and columns are named. Everything else the
/// store's statements use is read alike by SQLite (3.35 and later) and PostgreSQL: `INSERT … ON
/// CONFLICT (…) DO UPDATE SET x = excluded.x`, `RETURNING`, `CAST(… AS BIGINT)`, booleans
/// compared as `x` and `NOT x`. The types of the values are the engine's own binding
/// (``SQLValue``), so no type name appears in a statement.
///
/// A statement is written once, with `?` for each value and names in snake_case, as the
/// PostgreSQL schema has them; ``render(_:)`` gives the engine's text. Rendering walks the text,
/// so the store renders each statement once (``StoreSQL``) and keeps the result.
public struct SQLDialect: Sendable, Hashable {
    /// How a statement's values are marked in its text.
    public enum Placeholders: Sendable, Hashable {
        /// `?`, `?`, …: SQLite.
        case question
        /// `$1`, `$2`, …: PostgreSQL.
        case numbered
    }

    /// How the engine's tables and columns are named.
    public enum Names: Sendable, Hashable {
        /// As written: `chat_id`, `worker_fact`.
        case snakeCase
        /// `chatID`, `workerFact`, as the SQLite file's first versions named them; a name whose
        /// camelCase form differs from the rule is in `exceptions` (`last_message_id`:
        /// `lastMessageID`).
        case camelCase(exceptions: [String: String])
    }

    /// The engine's marks for values.
    public var placeholders: Placeholders
    /// The engine's names for tables and columns.
    public var names: Names
    /// The engine's words for the portable types a schema change writes (``SchemaChange``), by portable word.
    public var types: [String: String]

    /// A dialect; the store's engines use ``sqlite`` and ``postgres``.
    public init(placeholders: Placeholders, names: Names, types: [String: String] = [:]) {
        self.placeholders = placeholders
        self.names = names
        self.types = types
    }

    /// The embedded engine's: its tables were named in camelCase from the first version, and its
    /// types are those GRDB's table definitions write (a time as `DATETIME`, text in the file).
    /// `chat_notices` is the index v11 of the file named so.
    public static let sqlite = SQLDialect(
        placeholders: .question, names: .camelCase(exceptions: ["last_message_id": "lastMessageID", "chat_notices": "chat_notices"]),
        types: ["BIGSERIAL": "INTEGER PRIMARY KEY AUTOINCREMENT", "TIMESTAMPTZ": "DATETIME", "BYTEA": "BLOB", "FLOAT8": "DOUBLE"])
    /// The server's: numbered placeholders, and names as the statements write them, since its schema was made in snake_case.
    public static let postgres = SQLDialect(
        placeholders: .numbered, names: .snakeCase, types: ["BIGSERIAL": "BIGSERIAL PRIMARY KEY", "FLOAT8": "DOUBLE PRECISION"])

    /// The statement in this dialect: each `?` outside a quoted literal becomes the engine's
    /// placeholder, each name with an underscore the engine's name, and each portable type word
    /// (``types``) the engine's type.
    public func render(_ portable: String) -> String {
        var output = ""
        output.reserveCapacity(portable.utf8.count + 16)
        var number = 0
        var word = ""
        var quoted = false
        func flush() {
            guard !word.isEmpty else { return }
            output += types[word] ?? name(word)
            word = ""
        }
        for character in portable {
            if quoted {
                output.append(character)
                if character == "'" { quoted = false }
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
                continue
            }
            flush()
            switch character {
            case "'":
                quoted = true
                output.append(character)
            case "?":
                number += 1
                switch placeholders {
                case .question: output.append("?")
                case .numbered: output += "$\(number)"
                }
            default:
                output.append(character)
            }
        }
        flush()
        return output
    }

    /// A table's or column's name in this dialect.
    public func name(_ snake: String) -> String {
        guard case .camelCase(let exceptions) = names, snake.contains("_") else { return snake }
        if let exception = exceptions[snake] { return exception }
        var parts = snake.split(separator: "_", omittingEmptySubsequences: true)
        guard !parts.isEmpty else { return snake }
        let first = String(parts.removeFirst())
        return first + parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
