public import Foundation
import MultipartKit

/// One part of a `multipart/form-data` body: its headers (names lowercased) and bytes.
public struct FormPart: Sendable {
    /// The part's headers, such as `content-disposition`, by lowercased name.
    public var headers: [String: String]
    /// The part's bytes as sent: text for a parameter, the file for an upload.
    public var body: Data

    /// The part's text, for a parameter sent as text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

extension LoopbackRequest {
    /// Whether the body is `multipart/form-data`.
    public var isForm: Bool { headers["content-type"]?.hasPrefix("multipart/form-data") ?? false }

    /// The parts of a `multipart/form-data` body by their names, read with MultipartKit's parser;
    /// nil when the body is not a form or does not read as one.
    public var formParts: [String: FormPart]? {
        guard let contentType = headers["content-type"], isForm,
            let boundary = contentType.components(separatedBy: "boundary=").dropFirst().first
        else { return nil }
        let parser = MultipartParser(boundary: boundary)
        var parts: [String: FormPart] = [:]
        var current = FormPart(headers: [:], body: Data())
        parser.onHeader = { name, value in current.headers[name.lowercased()] = value }
        parser.onBody = { chunk in current.body.append(contentsOf: chunk.readableBytesView) }
        parser.onPartComplete = {
            let disposition = current.headers["content-disposition"] ?? ""
            let name = disposition.components(separatedBy: "name=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
            parts[name] = current
            current = FormPart(headers: [:], body: Data())
        }
        do {
            try parser.execute([UInt8](body))
        } catch {
            return nil
        }
        return parts
    }
}

extension LoopbackRequest {
    /// The fields of an `application/x-www-form-urlencoded` body, as clients that send the Bot
    /// API's parameters as a plain form post them (`+` for a space, `%XX` for a byte); nil for
    /// any other body.
    public var urlEncodedFields: [String: String]? {
        guard headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") ?? false else { return nil }
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String? { text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = nameAndValue.first.flatMap(decoded) else { continue }
            fields[name] = nameAndValue.count > 1 ? decoded(nameAndValue[1]) ?? "" : ""
        }
        return fields
    }
}
