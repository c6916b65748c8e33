import Foundation

// An update written back in the shape Telegram sends it, holding only the fields these types keep:
// the form the inbox stores until the update is handled, read back by `TelegramJSON.decoder()`.
// Every update is stored, so it is written field by field (the same JSON as its `Encodable` form).

extension Update: JSONWritable {
    /// The update as Telegram's JSON, reduced to what the bot reads.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("update_id", updateID)
            if let message {
                json.key("message")
                message.write(to: &json)
            }
            if let editedMessage {
                json.key("edited_message")
                editedMessage.write(to: &json)
            }
            if let callbackQuery {
                json.key("callback_query")
                callbackQuery.write(to: &json)
            }
            if let inlineQuery {
                json.field("inline_query", object: { json in
                    json.field("id", inlineQuery.id)
                    json.key("from")
                    inlineQuery.from.write(to: &json)
                    json.field("query", inlineQuery.query)
                    json.field("offset", inlineQuery.offset)
                    if let chatType = inlineQuery.chatType { json.field("chat_type", chatType) }
                    if let location = inlineQuery.location {
                        json.field("location", object: { json in
                            json.field("latitude", location.latitude)
                            json.field("longitude", location.longitude)
                        })
                    }
                })
            }
        }
    }
}

extension Message {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("message_id", messageID)
            if let from {
                json.key("from")
                from.write(to: &json)
            }
            json.field("date", date)
            json.field("chat", object: { json in
                json.field("id", chat.id)
                json.field("type", chat.type.name)
            })
            if let senderChat {
                json.field("sender_chat", object: { json in
                    json.field("id", senderChat.id)
                    json.field("type", senderChat.type.name)
                })
            }
            if let text { json.field("text", text) }
            if let location {
                json.field("location", object: { json in
                    json.field("latitude", location.latitude)
                    json.field("longitude", location.longitude)
                })
            }
            if let viaBot {
                json.key("via_bot")
                viaBot.write(to: &json)
            }
            // What a pressed button's message shows: a press on what is shown already edits nothing.
            if let markup = keyboard?.markup {
                json.key("reply_markup")
                markup.write(to: &json)
            }
            // Kept so that a reply to the bot read back after a restart is still addressed to it.
            if let replyToMessage {
                json.field("reply_to_message", object: { json in
                    json.field("message_id", replyToMessage.messageID)
                    if let from = replyToMessage.from {
                        json.key("from")
                        from.write(to: &json)
                    }
                    // The replied-to buttons' data, which tells the place of a weather message replied to.
                    if !replyToMessage.callbackData.isEmpty {
                        json.field("reply_markup", object: { json in
                            json.key("inline_keyboard")
                            json.array([replyToMessage.callbackData]) { json, row in
                                json.array(row) { json, data in json.object { json in json.field("callback_data", data) } }
                            }
                        })
                    }
                })
            }
        }
    }
}

extension User {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("id", id)
            json.field("is_bot", isBot)
            json.field("first_name", firstName)
            if let username { json.field("username", username) }
            if let languageCode { json.field("language_code", languageCode) }
        }
    }
}

extension CallbackQuery {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("id", id)
            json.key("from")
            from.write(to: &json)
            if let message {
                json.key("message")
                message.write(to: &json)
            }
            if let inlineMessageID { json.field("inline_message_id", inlineMessageID) }
            if let data { json.field("data", data) }
        }
    }
}
