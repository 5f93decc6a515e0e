import ASN1Lenient
import JSONLenient
import JWSKit
import ByteText
import DocumentCore

/// `explain` for an external purchase token: which characters make which bytes, and the JSON member
/// those bytes belong to with its meaning.
extension JWSExplain {
    func externalPurchaseOverview(_ model: ExternalPurchaseModel) -> String {
        let token = model.token
        var lines = ["external purchase token: \(NumberText.grouped(token.text.count)) base64url characters → \(NumberText.grouped(token.json.count)) bytes of JSON (unsigned)",
                     "  every 4 base64url characters carry 3 bytes (6 bits each); the first group:"]
        lines += externalPurchaseLines(model, character: 0).dropFirst().map { "  " + $0 }
        lines.append("use --offset N (a character of the input) to explain one place: its characters, bytes and JSON member")
        return lines.joined(separator: "\n") + "\n"
    }

    func externalPurchaseLines(_ model: ExternalPurchaseModel, character c: Int) -> [String] {
        let token = model.token
        guard c < token.text.count else { return [] }
        let layer = document.layer(model.jsonLayer)
        let byte = min(c * 6 / 8, max(0, token.json.count - 1))
        var lines = ["external purchase token, character \(c)"]
        if let groups = Base64Groups.groups(of: byte..<(byte + 1), in: layer, parent: document.fileLayer, limit: 1) {
            lines += groups.map { "base64url: " + $0 }
        }
        let tree = token.tree
        guard let field = token.payload.fields.filter({ tree[$0.member.index].range.contains(byte) })
                .min(by: { tree[$0.member.index].range.count < tree[$1.member.index].range.count }) else {
            return lines + ["JSON byte \(byte): punctuation of the token's JSON object"]
        }
        let member = tree[field.member.index]
        lines.append("JSON member \"\(TerminalSafe.escape(field.name))\" (bytes \(JWSSpan.text(member.range))): \(TerminalSafe.escape(field.value.display))")
        lines.append("meaning: " + TerminalSafe.escape(field.spec?.meaningWithVersion ?? "not in this tool's schema (kept as written)"))
        if field.name == "externalPurchaseId", token.isSandbox { lines.append("sandbox: the id starts \(ExternalPurchaseToken.sandboxPrefix)") }
        return lines
    }
}
