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
    var method: BotRequest.Method
    var chatID: Int64
    /// The message whose photo is replaced (`editMessageMedia`).
    var messageID: Int?
    var photo: InputPhoto
    var caption: String?
    var replyMarkup: InlineKeyboardMarkup?

    /// The parameters a photo request was written with (see ``BotRequest/sendPhoto(chatID:photo:caption:replyMarkup:tag:)``).
    private struct Written: Decodable {
        var chatID: Int64
        var caption: String?
        var replyMarkup: InlineKeyboardMarkup?

        enum CodingKeys: String, CodingKey {
            case chatID = "chat_id", caption, replyMarkup = "reply_markup"
        }
    }

    /// The call a photo request makes with `photo`; `method` is the request's unless given.
    init(_ request: BotRequest, photo: InputPhoto, messageID: Int?, method: BotRequest.Method? = nil) throws(TelegramError) {
        let method = method ?? request.method
        precondition(method == .sendPhoto || method == .editMessageMedia, "a photo call sends or replaces a photo")
        let written: Written
        do {
            written = try JSONDecoder().decode(Written.self, from: request.parameters)
        } catch {
            throw TelegramError(code: .undecodable, method: method.rawValue, description: "the photo's parameters do not read: \(error)")
        }
        self.method = method
        self.chatID = written.chatID
        self.messageID = method == .editMessageMedia ? request.messageID ?? messageID : nil
        self.photo = photo
        self.caption = written.caption
        self.replyMarkup = written.replyMarkup
    }

    /// The name of the uploaded file's part in an edit, which `media` points at.
    static let attachment = "chart"

    /// A parameter's value: written as JSON in a JSON body, as text in a form part.
    enum Value {
        case text(String)
        case integer(Int64)
        /// A JSON object, as its text in a form part.
        case json(Data)
    }

    /// The parameters besides an uploaded file, in order.
    var parameters: [(name: StaticString, value: Value)] {
        let reference = if case .fileID(let id) = photo { id } else { "attach://\(Self.attachment)" }
        var parameters: [(name: StaticString, value: Value)] = [("chat_id", .integer(chatID))]
        if let messageID { parameters.append(("message_id", .integer(Int64(messageID)))) }
        switch method {
        case .sendPhoto:
            if case .fileID = photo { parameters.append(("photo", .text(reference))) }
            if let caption { parameters += [("caption", .text(caption)), ("parse_mode", .text("HTML"))] }
        default:
            var media = JSONWriter()
            media.object { json in
                json.field("type", "photo")
                json.field("media", reference)
                if let caption {
                    json.field("caption", caption)
                    json.field("parse_mode", "HTML")
                }
            }
            parameters.append(("media", .json(media.data)))
        }
        if let replyMarkup {
            var markup = JSONWriter()
            replyMarkup.write(to: &markup)
            parameters.append(("reply_markup", .json(markup.data)))
        }
        return parameters
    }

    func encoded() throws -> (contentType: String, body: Data) {
        guard case .upload(let data, let filename) = photo else {
            var json = JSONWriter()
            json.object { json in
                for (name, value) in parameters {
                    json.key(name)
                    switch value {
                    case .text(let text): json.string(text)
                    case .integer(let number): json.integer(number)
                    case .json(let object): json.raw(object)
                    }
                }
            }
            return ("application/json", json.data)
        }
        var parts = parameters.map { name, value in
            var part = switch value {
            case .text(let text): MultipartPart(body: text)
            case .integer(let number): MultipartPart(body: String(number))
            case .json(let object): MultipartPart(body: object)
            }
            part.name = "\(name)"
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
}
