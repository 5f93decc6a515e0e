import ASN1Lenient
import JSONLenient
import ByteText

/// What a text with no data in it looks like, for the one diagnostic it gets: "plain text",
/// "HTML", "a JSON object without purchase data (its keys are …)". Not terminal-safe: a key is
/// inserted as it is, because diagnostics' messages are escaped where they are printed.
enum PasteDescription {
    static func describe(_ text: [UInt8]) -> String {
        let trimmed = text.drop(while: { PasteRuns.isSpace($0) })
        guard let first = trimmed.first else { return "whitespace" }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            let tree = JSONParser.parse(Array(trimmed))
            // Past the node budget the rest is unread, not wrong: it still looks like JSON.
            if let root = tree.root, !tree.diagnostics.contains(where: { $0.severity == .error && $0.code != ParserCode.tooManyElements.code }) {
                return json(tree, root)
            }
        }
        let head = String(decoding: trimmed.prefix(512), as: UTF8.self).lowercased()
        if first == UInt8(ascii: "<") {
            if head.contains("<html") || head.contains("<!doctype html") { return "HTML" }
            if head.contains("<plist") || head.contains("<!doctype plist") { return "an XML property list" }
            return "XML"
        }
        let letters = trimmed.filter { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }.count
        let spaces = trimmed.filter { $0 == 0x20 }.count
        if letters * 10 >= trimmed.count * 6 && spaces > 0 {
            return "plain text (\(NumberText.grouped(spaces + 1)) words)"
        }
        return "text (\(NumberText.grouped(text.count)) bytes)"
    }

    static func json(_ tree: JSONTree, _ root: Int) -> String {
        guard tree[root].kind == .object else {
            return tree[root].kind == .array ? "a JSON array without purchase data" : "a JSON value without purchase data"
        }
        let keys = tree.members(of: root).compactMap { tree.key(ofMember: $0) }
        if keys.contains("latest_receipt_info") || (keys.contains("status") && keys.contains("receipt")) {
            return "a verifyReceipt response without the receipt's base64 (no \"latest_receipt\"; \"receipt\" and \"latest_receipt_info\" are Apple's decoded copy, not the signed receipt)"
        }
        // Raw: this goes into a diagnostic's message, which every printer escapes.
        let shown = keys.prefix(8).map { "\"" + $0 + "\"" }
        let which = shown.isEmpty ? "it has no keys" : "its keys are " + shown.joined(separator: ", ") + (keys.count > 8 ? ", …" : "")
        return "a JSON object without purchase data (\(which))"
    }
}
