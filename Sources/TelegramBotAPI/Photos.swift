public import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1

/// A photo to send: its bytes, uploaded, or one Telegram already keeps, by its `file_id`.
public enum InputPhoto: Sendable, Hashable {
    case upload(Data, filename: String)
    case fileID(String)
}

/// A photo message Telegram accepted: its id, and the `file_id` of the largest size Telegram made
/// of the photo, by which it can be sent again without uploading it.
public struct SentPhoto: Decodable, Sendable, Hashable {
    public var messageID: Int
    public var fileID: String?

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id", photo
    }

    struct Size: Decodable {
        var fileID: String
        var width: Int?
        var height: Int?

        enum CodingKeys: String, CodingKey {
            case fileID = "file_id", width, height
        }
    }

    public init(messageID: Int, fileID: String?) {
        self.messageID = messageID
        self.fileID = fileID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageID = try container.decode(Int.self, forKey: .messageID)
        let sizes = try container.decodeIfPresent([Size].self, forKey: .photo) ?? []
        fileID = sizes.max { ($0.width ?? 0) * ($0.height ?? 0) < ($1.width ?? 0) * ($1.height ?? 0) }?.fileID
    }
}

/// A `sendPhoto` or `editMessageMedia` call: JSON when the photo goes by `file_id`,
/// `multipart/form-data` when it is uploaded, its other parameters then text parts (objects as
/// their JSON).
struct PhotoCall {
    enum Method: String {
        case sendPhoto, editMessageMedia
    }

    var method: Method
    var chatID: Int64
    /// The message whose photo is replaced (`editMessageMedia`).
    var messageID: Int?
    var photo: InputPhoto
    var caption: String?
    var replyMarkup: InlineKeyboardMarkup?

    /// The name of the uploaded file's part in an edit, which `media` points at.
    static let attachment = "chart"

    func encoded() throws -> (contentType: String, body: Data) {
        let reference: String
        switch photo {
        case .fileID(let id): reference = id
        case .upload: reference = "attach://\(Self.attachment)"
        }
        let markup = replyMarkup.map { markup in
            var json = JSONWriter()
            markup.write(to: &json)
            return json.data
        }
        let media = method == .editMessageMedia ? mediaJSON(reference) : nil
        guard case .upload(let data, let filename) = photo else {
            var json = JSONWriter()
            json.object { json in
                json.field("chat_id", chatID)
                if let messageID { json.field("message_id", messageID) }
                if method == .sendPhoto {
                    json.field("photo", reference)
                    writeCaption(to: &json)
                } else {
                    json.key("media")
                    writeMedia(reference, to: &json)
                }
                if let replyMarkup {
                    json.key("reply_markup")
                    replyMarkup.write(to: &json)
                }
            }
            return ("application/json", json.data)
        }
        var fields: [(String, String)] = [("chat_id", String(chatID))]
        if let messageID { fields.append(("message_id", String(messageID))) }
        if let media { fields.append(("media", String(decoding: media, as: UTF8.self))) }
        if method == .sendPhoto, let caption {
            fields.append(("caption", HTML.fittingCaption(caption)))
            fields.append(("parse_mode", "HTML"))
        }
        if let markup { fields.append(("reply_markup", String(decoding: markup, as: UTF8.self))) }
        var parts = fields.map { name, value in
            var part = MultipartPart(body: value)
            part.name = name
            return part
        }
        let fileName = method == .sendPhoto ? "photo" : Self.attachment
        var headers = HTTPHeaders()
        headers.add(name: "Content-Disposition", value: #"form-data; name="\#(fileName)"; filename="\#(filename)""#)
        headers.add(name: "Content-Type", value: "image/png")
        parts.append(MultipartPart(headers: headers, body: data))
        // A fresh boundary per call; a PNG's bytes do not hold a UUID by chance.
        let boundary = "weatherbot-\(UUID().uuidString)"
        var buffer = ByteBuffer()
        try MultipartSerializer().serialize(parts: parts, boundary: boundary, into: &buffer)
        return ("multipart/form-data; boundary=\(boundary)", Data(buffer.readableBytesView))
    }

    private func writeCaption(to json: inout JSONWriter) {
        guard let caption else { return }
        json.field("caption", HTML.fittingCaption(caption))
        json.field("parse_mode", "HTML")
    }

    private func writeMedia(_ reference: String, to json: inout JSONWriter) {
        json.object { json in
            json.field("type", "photo")
            json.field("media", reference)
            writeCaption(to: &json)
        }
    }

    private func mediaJSON(_ reference: String) -> Data {
        var json = JSONWriter()
        writeMedia(reference, to: &json)
        return json.data
    }
}
