import Foundation

/// A JSON value as the browser's DevTools protocol sends and receives it: the parameters of a
/// command, its result, an event's parameters.
enum DevToolsValue: Sendable, Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([DevToolsValue])
    case object([String: DevToolsValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([DevToolsValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: DevToolsValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member called `key` of an object; nil for anything else or a missing member.
    subscript(key: String) -> DevToolsValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The text of a string.
    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The value of a number.
    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The elements of an array.
    var array: [DevToolsValue]? {
        if case .array(let value) = self { value } else { nil }
    }
}

extension DevToolsValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
{
    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .number(Double(value)) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(dictionaryLiteral elements: (String, DevToolsValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    init(arrayLiteral elements: DevToolsValue...) { self = .array(elements) }
}
