import Configuration
import Foundation

/// A key of the configuration as its one reading declares it: where it is, its default, whether it
/// is a secret, and what it means. `--help`, `check-config`, and the tests of the README's table
/// and of `config.example.json` take the keys from these.
struct ConfigurationKey: Sendable, Equatable {
    /// What an unset key means.
    enum Default: Sendable, Equatable {
        /// Nothing: the key must be set.
        case required
        /// This value, as `config.example.json` writes it.
        case value(String)
        /// Something said in words: no proxy, polling, a secret generated.
        case unset(String)
    }

    /// The key in the JSON file, dotted: `telegram.pollTimeout` is `{"telegram": {"pollTimeout": …}}`.
    var name: String
    var defaultValue: Default
    var isSecret: Bool
    /// What it sets, in a few words.
    var help: String

    /// The environment variable that overrides it, named as swift-configuration's
    /// `EnvironmentVariablesProvider` names it: each word of the key upper-cased, joined by `_`
    /// (`telegram.pollTimeout` is `TELEGRAM_POLL_TIMEOUT`).
    var environment: String { Self.environment(for: name) }

    static func environment(for name: String) -> String {
        var environment = ""
        var previous: Character?
        for character in name {
            if character == "." {
                environment.append("_")
                previous = nil
                continue
            }
            if let previous, previous.isLowercase, character.isUppercase { environment.append("_") }
            environment += character.isLetter || character.isNumber ? character.uppercased() : "_"
            previous = character
        }
        return environment
    }

    /// The default as the docs show it: `required`, `` `30` ``, `(none: polling)`.
    var shownDefault: String {
        switch defaultValue {
        case .required: "required"
        case .value(let value): "`\(value)`"
        case .unset(let meaning): "(\(meaning))"
        }
    }
}

/// swift-configuration's reader, and the record of each key it read. A key is declared where it
/// is read, in an `init(reader:)`, with its default, whether it is a secret and what it means; the
/// record lists the keys, the values as `check-config` shows them, and the problems found.
struct ConfigurationReader {
    /// What the readers of one configuration share.
    final class Record {
        var keys: [ConfigurationKey] = []
        /// What `check-config` prints for each key, by name.
        var shown: [String: String] = [:]
        var problems: [String] = []
    }

    private let reader: ConfigReader
    private let prefix: String
    let record: Record

    init(_ reader: ConfigReader) {
        self.reader = reader
        self.prefix = ""
        self.record = Record()
    }

    private init(_ reader: ConfigReader, prefix: String, record: Record) {
        self.reader = reader
        self.prefix = prefix
        self.record = record
    }

    /// The reader of a section: `telegram`, `openWeather`, ….
    func scoped(to section: String) -> ConfigurationReader {
        ConfigurationReader(reader.scoped(to: ConfigKey(section)), prefix: prefix + section + ".", record: record)
    }

    /// The environment variable of a key of this section.
    func environment(of key: String) -> String {
        ConfigurationKey.environment(for: prefix + key)
    }

    /// Notes a value that cannot be used: one line that says what to do.
    func refuse(_ problem: String) {
        record.problems.append(problem)
    }

    /// What `check-config` prints for `key`, where the value read alone does not say it.
    func show(_ key: String, _ text: String) {
        record.shown[prefix + key] = text
    }

    /// Records the key; `value` is what was read, as `check-config` shows it, nil when unset.
    private func declare(_ key: String, _ defaultValue: ConfigurationKey.Default, isSecret: Bool, help: String, value: String?) {
        record.keys.append(ConfigurationKey(name: prefix + key, defaultValue: defaultValue, isSecret: isSecret, help: help))
        record.shown[prefix + key] =
            switch (value, defaultValue) {
            case (.some, _) where isSecret: "<redacted>"
            case (.some(let value), _): value
            case (nil, .unset(let meaning)): "(\(meaning))"
            case (nil, _): "(not set)"
            }
    }

    /// A text with a default; not trimmed.
    func string(_ key: String, default defaultValue: String, help: String) -> String {
        let value = reader.string(forKey: ConfigKey(key), default: defaultValue)
        declare(key, .value(defaultValue), isSecret: false, help: help, value: value)
        return value
    }

    /// A text without a default, spaces trimmed; nil when it is unset or empty.
    /// - Parameter unset: what no value means; nil when the key is required.
    func string(_ key: String, unset: String?, isSecret: Bool = false, help: String) -> String? {
        let text = reader.string(forKey: ConfigKey(key), isSecret: isSecret)?.trimmingCharacters(in: .whitespaces)
        let value = text?.isEmpty == false ? text : nil
        declare(key, unset.map { .unset($0) } ?? .required, isSecret: isSecret, help: help, value: value)
        return value
    }

    /// `true` or `false`: a JSON boolean, or the words in the environment.
    func bool(_ key: String, default defaultValue: Bool, help: String) -> Bool {
        let value = reader.bool(forKey: ConfigKey(key), default: defaultValue)
        declare(key, .value("\(defaultValue)"), isSecret: false, help: help, value: "\(value)")
        return value
    }

    func int(_ key: String, default defaultValue: Int, help: String) -> Int {
        let value = reader.int(forKey: ConfigKey(key), default: defaultValue)
        declare(key, .value("\(defaultValue)"), isSecret: false, help: help, value: "\(value)")
        return value
    }

    func double(_ key: String, default defaultValue: Double, help: String) -> Double {
        let value = reader.double(forKey: ConfigKey(key), default: defaultValue)
        declare(key, .value(Self.number(defaultValue)), isSecret: false, help: help, value: Self.number(value))
        return value
    }

    /// A number as JSON writes it: `30`, not `30.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
