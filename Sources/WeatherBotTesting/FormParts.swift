public import Foundation
import MultipartKit

/// One part of a `multipart/form-data` body: its headers (names lowercased) and bytes.
public struct FormPart: Sendable {
    public var headers: [String: String]
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
