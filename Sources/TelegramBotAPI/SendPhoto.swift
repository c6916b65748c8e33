/// `sendPhoto`: a photo with its caption and buttons.
public struct SendPhoto: TelegramRequest, Codable, Hashable {
    /// The method's name, the last part of the call's URL.
    public static let method = "sendPhoto"

    /// The chat sent to, as ``SendMessage/chatID``.
    public var chatID: Int64
    /// The photo's `file_id`, set when the call is made (see ``BotRequest/photo`` for what the
    /// photo is until then); nil when the photo is uploaded, as the file part of that name.
    public var photo: String?
    /// The text under the photo, up to 1,024 characters (see ``HTML/fittingCaption(_:)``); nil for
    /// none.
    public var caption: String?
    /// As ``SendMessage/parseMode``, for the caption; nil when there is no caption.
    public var parseMode: String?
    /// Buttons under the photo.
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", photo, caption, parseMode = "parse_mode", replyMarkup = "reply_markup"
    }

    /// The parameters as given, with no limit applied; `photo` is normally left for the sender to
    /// set.
    public init(chatID: Int64, photo: String? = nil, caption: String? = nil, parseMode: String? = nil, replyMarkup: InlineKeyboardMarkup? = nil) {
        self.chatID = chatID
        self.photo = photo
        self.caption = caption
        self.parseMode = parseMode
        self.replyMarkup = replyMarkup
    }

    /// A photo whose caption, when there is one, is HTML within Telegram's limit.
    public init(chatID: Int64, htmlCaption caption: String?, replyMarkup: InlineKeyboardMarkup? = nil) {
        self.init(chatID: chatID, caption: caption.map(HTML.fittingCaption), parseMode: caption == nil ? nil : HTML.parseMode, replyMarkup: replyMarkup)
    }

    /// The photo message an edit's caption and buttons make, for when the message it applies to is gone.
    public init(_ edit: EditMessageMedia) {
        self.init(chatID: edit.chatID, caption: edit.media.caption, parseMode: edit.media.parseMode, replyMarkup: edit.replyMarkup)
    }
}

/// `editMessageMedia`: another photo, caption and buttons for an earlier photo message.
public struct EditMessageMedia: TelegramRequest, Codable, Hashable {
    /// The method's name, the last part of the call's URL.
    public static let method = "editMessageMedia"

    /// The chat of the photo message replaced.
    public var chatID: Int64
    /// As ``EditMessageText/messageID``.
    public var messageID: Int?
    /// The new photo and its caption.
    public var media: InputMediaPhoto
    /// The buttons the message has after the edit; nil removes them.
    public var replyMarkup: InlineKeyboardMarkup?

    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id", messageID = "message_id", media, replyMarkup = "reply_markup"
    }

    /// The parameters as given, with no limit applied to the caption.
    public init(chatID: Int64, messageID: Int?, media: InputMediaPhoto, replyMarkup: InlineKeyboardMarkup? = nil) {
        self.chatID = chatID
        self.messageID = messageID
        self.media = media
        self.replyMarkup = replyMarkup
    }

    /// A new photo for a message, with the caption and buttons of ``SendPhoto/init(chatID:htmlCaption:replyMarkup:)``.
    public init(chatID: Int64, messageID: Int?, htmlCaption caption: String?, replyMarkup: InlineKeyboardMarkup? = nil) {
        let photo = SendPhoto(chatID: chatID, htmlCaption: caption)
        self.init(chatID: chatID, messageID: messageID, media: InputMediaPhoto(caption: photo.caption, parseMode: photo.parseMode), replyMarkup: replyMarkup)
    }

    /// Also reads the form the outbox stored before it kept typed requests: a `sendPhoto`'s
    /// parameters (caption and parse mode beside the chat, no `media`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatID = try container.decode(Int64.self, forKey: .chatID)
        messageID = try container.decodeIfPresent(Int.self, forKey: .messageID)
        replyMarkup = try container.decodeIfPresent(InlineKeyboardMarkup.self, forKey: .replyMarkup)
        if container.contains(.media) {
            media = try container.decode(InputMediaPhoto.self, forKey: .media)
        } else {
            let stored = try SendPhoto(from: decoder)
            media = InputMediaPhoto(caption: stored.caption, parseMode: stored.parseMode)
        }
    }
}

/// The photo of ``EditMessageMedia``.
public struct InputMediaPhoto: Codable, Sendable, Hashable {
    /// Always `photo`.
    public var type: String
    /// The photo's `file_id`, or `attach://` and the name of the uploaded file's part; set when
    /// the call is made, as ``SendPhoto/photo``.
    public var media: String?
    /// The text under the new photo, as ``SendPhoto/caption``; nil leaves the message without one.
    public var caption: String?
    /// As ``SendMessage/parseMode``, for the caption.
    public var parseMode: String?

    enum CodingKeys: String, CodingKey {
        case type, media, caption, parseMode = "parse_mode"
    }

    /// A photo for an edit; `media` is normally left for the sender to set.
    public init(media: String? = nil, caption: String? = nil, parseMode: String? = nil) {
        self.type = "photo"
        self.media = media
        self.caption = caption
        self.parseMode = parseMode
    }
}
