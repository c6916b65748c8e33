public import Foundation
public import TelegramBotAPI

// A reply's stored form, the JSON the outbox keeps: written field by field, in exactly the shape
// its `Codable` conformance reads back. Every reply of every step is stored, so this skips the
// generic encoder's containers and boxing on the busiest path.

extension Reply: JSONWritable {
    /// The reply as the outbox stores it; `JSONDecoder` reads it back as this same reply.
    public var stored: Data { jsonData }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            switch self {
            case .send(let text, let markup, let tag):
                json.field("send", object: { json in
                    json.field("text", text)
                    if let markup {
                        json.key("markup")
                        markup.write(to: &json)
                    }
                    if let tag { json.field("tag", tag) }
                })
            case .edit(let target, let text, let keyboard):
                json.field("edit", object: { json in
                    json.key("_0")
                    target.write(to: &json)
                    json.field("text", text)
                    if let keyboard {
                        json.key("keyboard")
                        keyboard.write(to: &json)
                    }
                })
            case .editKeyboard(let target, let keyboard):
                json.field("editKeyboard", object: { json in
                    json.key("_0")
                    target.write(to: &json)
                    if let keyboard {
                        json.key("keyboard")
                        keyboard.write(to: &json)
                    }
                })
            case .answer(let queryID, let text, let showAlert):
                json.field("answer", object: { json in
                    json.field("callbackQueryID", queryID)
                    if let text { json.field("text", text) }
                    json.field("showAlert", showAlert)
                })
            }
        }
    }
}

extension MessageTarget {
    func write(to json: inout JSONWriter) {
        json.object { json in
            switch self {
            case .id(let id): json.field("id", object: { $0.field("_0", id) })
            case .tag(let tag): json.field("tag", object: { $0.field("_0", tag) })
            }
        }
    }
}
