public import Foundation

/// Writes JSON field by field, with every key as given: the fast path of ``TelegramJSON/encoded(_:)``
/// for the values on the busiest paths (``JSONWritable``).
///
/// Each of those is a few fixed fields: writing them straight into bytes costs a small part of
/// what a generic `JSONEncoder` pass does (its containers and boxing). Commas are placed by the
/// writer; strings are escaped as RFC 8259 requires.
public struct JSONWriter: Sendable {
    private var bytes: [UInt8] = []
    /// Whether the next value or key is the first in its object or array (no comma before it).
    private var first = true

    /// An empty writer, its first value not yet begun.
    public init() {
        bytes.reserveCapacity(256)
    }

    /// The written JSON.
    public var data: Data { Data(bytes) }

    /// An object, its fields written by `body`.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        first = true
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// An array of `elements`, each written by `body`.
    public mutating func array<Elements: Sequence>(_ elements: Elements, _ body: (inout JSONWriter, Elements.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        first = true
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    /// A field's key; its value is what is written next.
    public mutating func key(_ name: StaticString) {
        separate()
        name.withUTF8Buffer { writeString($0) }
        bytes.append(UInt8(ascii: ":"))
        first = true
    }

    /// A string value, quoted and escaped.
    public mutating func string(_ value: String) {
        separate()
        var value = value
        value.withUTF8 { writeString($0) }
    }

    /// An integer value, in decimal.
    public mutating func integer(_ value: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite number, in the shortest form that reads back as the same `Double`.
    public mutating func number(_ value: Double) {
        separate()
        bytes.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    // MARK: Fields

    /// A field with a string value.
    public mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    /// A field with an integer value, such as a chat or message id.
    public mutating func field(_ name: StaticString, _ value: some BinaryInteger) {
        key(name)
        integer(value)
    }

    /// A field with a number value, such as a coordinate; `null` when it is not finite.
    public mutating func field(_ name: StaticString, _ value: Double) {
        key(name)
        number(value)
    }

    /// A field with a `true` or `false` value.
    public mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    /// A field whose value is an object.
    public mutating func field(_ name: StaticString, object body: (inout JSONWriter) -> Void) {
        key(name)
        object(body)
    }

    // MARK: Bytes

    private mutating func separate() {
        if first {
            first = false
        } else {
            bytes.append(UInt8(ascii: ","))
        }
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// A quoted string: `"` and `\` escaped, control characters as escapes, the rest (valid UTF-8,
    /// as every Swift string is) as it is.
    private mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if start < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index])) }
            start = index + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            default:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 0xF)])
            }
        }
        if start < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A value that writes itself as one JSON value: the same JSON as its `Encodable` form, faster.
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

extension JSONWritable {
    /// The value's JSON.
    public var jsonData: Data {
        var json = JSONWriter()
        write(to: &json)
        return json.data
    }
}
