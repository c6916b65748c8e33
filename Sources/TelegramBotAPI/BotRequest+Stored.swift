public import Foundation

// The form the outbox keeps a request in: its method, its parameters as the JSON object they post,
// its tag and its photo's name. A request's `Codable` form is the same, with the parameters as a
// nested object.

extension BotRequest: Codable {
    enum CodingKeys: String, CodingKey {
        case method, parameters, tag, photo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let method = try container.decode(Method.self, forKey: .method)
        self.init(
            try Call(method, from: try container.superDecoder(forKey: .parameters)), tag: try container.decodeIfPresent(String.self, forKey: .tag),
            photo: try container.decodeIfPresent(String.self, forKey: .photo))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try request.encode(to: container.superEncoder(forKey: .parameters))
        try container.encodeIfPresent(tag, forKey: .tag)
        try container.encodeIfPresent(photo, forKey: .photo)
    }

    /// A request as stored in columns: ``method``, ``parameters`` (as written by any version of the
    /// outbox), ``tag``, ``messageID`` and ``photo``. Rows written before the outbox kept typed
    /// requests name an edit's message only in its column, and keep a photo edit's caption beside
    /// the chat instead of inside `media`; both read as today's.
    public init(method: Method, parameters: Data, tag: String? = nil, messageID: Int? = nil, photo: String? = nil) throws {
        let decoder = TelegramJSON.decoder()
        decoder.userInfo[StoredParameters.method] = method
        self.init(try decoder.decode(StoredParameters.self, from: parameters).call, tag: tag, photo: photo)
        if self.messageID == nil { self.messageID = messageID }
    }
}

extension BotRequest.Call {
    /// The request of `method`, read from `decoder`.
    init(_ method: BotRequest.Method, from decoder: any Decoder) throws {
        switch method {
        case .sendMessage: self = .sendMessage(try SendMessage(from: decoder))
        case .editMessageText: self = .editMessageText(try EditMessageText(from: decoder))
        case .editMessageReplyMarkup: self = .editMessageReplyMarkup(try EditMessageReplyMarkup(from: decoder))
        case .answerCallbackQuery: self = .answerCallbackQuery(try AnswerCallbackQuery(from: decoder))
        case .sendPhoto: self = .sendPhoto(try SendPhoto(from: decoder))
        case .editMessageMedia: self = .editMessageMedia(try EditMessageMedia(from: decoder))
        }
    }
}

/// Stored parameters, read as the request of the method the decoder's `userInfo` names.
private struct StoredParameters: Decodable {
    static let method = CodingUserInfoKey(rawValue: "weatherbot.method")!

    var call: BotRequest.Call

    init(from decoder: any Decoder) throws {
        guard let method = decoder.userInfo[Self.method] as? BotRequest.Method else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no method given"))
        }
        call = try BotRequest.Call(method, from: decoder)
    }
}
