public import Foundation
import MultipartKit
import NIOCore
import NIOHTTP1

/// A photo to send: its bytes, uploaded, or one Telegram already keeps, by its `file_id`.
public enum InputPhoto: Sendable, Hashable {
    /// A PNG's bytes, uploaded as a file of that name.
    case upload(Data, filename: String)
    /// A photo Telegram already has, by the `file_id` of an earlier send.
    case fileID(String)
}

/// A photo message Telegram accepted: its id, and the `file_id` of the largest size Telegram made
/// of the photo, by which it can be sent again without uploading it.
public struct SentPhoto: Decodable, Sendable, Hashable {
    /// The photo message's number in its chat, for later edits.
    public var messageID: Int
    /// The `file_id` of the largest size, to send the same picture again without an upload; nil
    /// when the answer listed no sizes.
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

    /// A sent photo as a fake Telegram answers it.
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

/// A `sendPhoto` or `editMessageMedia` call with its photo: JSON when the photo goes by `file_id`,
/// `multipart/form-data` when it is uploaded, its other parameters then text parts (objects as
/// their JSON).
struct PhotoCall {
    /// The request, its photo's `file_id` or attachment set.
    var request: BotRequest
    var upload: (data: Data, filename: String)?

    /// The name of the uploaded file's part in an edit, which `media` points at.
    static let attachment = "chart"

    init(_ request: BotRequest, photo: InputPhoto) {
        self.request = request
        let fileID: String?
        switch photo {
        case .fileID(let id): fileID = id
        case .upload(let data, let filename):
            fileID = nil
            upload = (data, filename)
        }
        switch request.call {
        case .sendPhoto(var send):
            // An upload is the part named `photo`.
            send.photo = fileID
            self.request.call = .sendPhoto(send)
        case .editMessageMedia(var edit):
            edit.media.media = fileID ?? "attach://\(Self.attachment)"
            self.request.call = .editMessageMedia(edit)
        default:
            preconditionFailure("a photo call sends or replaces a photo")
        }
    }

    func encoded() throws -> (contentType: String, body: Data) {
        guard let upload else { return ("application/json", request.parameters) }
        var form = FormFields()
        let fileName: String
        switch request.call {
        case .sendPhoto(let send):
            send.write(to: &form)
            fileName = SendPhoto.CodingKeys.photo.stringValue
        case .editMessageMedia(let edit):
            edit.write(to: &form)
            fileName = Self.attachment
        default:
            preconditionFailure("a photo call sends or replaces a photo")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Disposition", value: #"form-data; name="\#(fileName)"; filename="\#(upload.filename)""#)
        headers.add(name: "Content-Type", value: "image/png")
        let parts = form.parts + [MultipartPart(headers: headers, body: upload.data)]
        // A fresh boundary per call; a PNG's bytes do not hold a UUID by chance.
        let boundary = "weatherbot-\(UUID().uuidString)"
        var buffer = ByteBuffer()
        try MultipartSerializer().serialize(parts: parts, boundary: boundary, into: &buffer)
        return ("multipart/form-data; boundary=\(boundary)", Data(buffer.readableBytesView))
    }
}

/// The text parts of a form: each parameter under its Bot API name, numbers and text as they are,
/// objects as their JSON.
struct FormFields {
    private(set) var parts: [MultipartPart] = []

    mutating func add(_ key: some CodingKey, _ text: String?) {
        guard let text else { return }
        var part = MultipartPart(body: text)
        part.name = key.stringValue
        parts.append(part)
    }

    mutating func add(_ key: some CodingKey, _ number: (some BinaryInteger)?) {
        add(key, number.map { String($0) })
    }

    mutating func add(_ key: some CodingKey, json value: (some Encodable)?) {
        guard let value else { return }
        var part = MultipartPart(body: TelegramJSON.encoded(value))
        part.name = key.stringValue
        parts.append(part)
    }
}

extension SendPhoto {
    /// The parameters besides the photo, as form fields.
    func write(to form: inout FormFields) {
        form.add(CodingKeys.chatID, chatID)
        form.add(CodingKeys.caption, caption)
        form.add(CodingKeys.parseMode, parseMode)
        form.add(CodingKeys.replyMarkup, json: replyMarkup)
    }
}

extension EditMessageMedia {
    /// The parameters as form fields; `media` names the uploaded part.
    func write(to form: inout FormFields) {
        form.add(CodingKeys.chatID, chatID)
        form.add(CodingKeys.messageID, messageID)
        form.add(CodingKeys.media, json: media)
        form.add(CodingKeys.replyMarkup, json: replyMarkup)
    }
}
