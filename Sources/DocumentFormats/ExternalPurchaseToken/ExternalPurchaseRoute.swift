import ASN1Lenient
import JWSKit
import ByteText
import DocumentCore
import DocumentTour

/// The tour of an external purchase token: the base64url characters → the JSON they decode to →
/// the id that says sandbox or production. Computed from the document, like the other routes.
struct ExternalPurchaseRoute {
    let document: Document
    let model: ExternalPurchaseModel

    func steps() -> [TourStep] {
        let token = model.token
        let chars = token.text.count, bytes = token.json.count
        var steps = [TourStep(node: NodeID(.file, 0), focus: .content, range: 0..<chars,
                              title: "An external purchase token: base64url, unsigned",
                              lesson: ["text: \(NumberText.grouped(chars)) base64url characters (- and _ for + and /), no dots: one part, not a JWS",
                                       "meaning: StoreKit's external purchase APIs hand the app this token; it is JSON, base64url-encoded, with no signature: Apple reads it back when you report the purchase"],
                              check: SelfCheck("These \(NumberText.grouped(chars)) characters decode to how many bytes of JSON?",
                                               right: (NumberText.grouped(bytes), "4 characters carry 3 bytes: \(NumberText.grouped(chars)) × 6 / 8 = \(NumberText.grouped(bytes))"),
                                               wrong: [(NumberText.grouped(chars), "a character carries 6 bits, not 8"),
                                                       (NumberText.grouped((chars * 4 + 2) / 3), "that is encoding (× 4/3); decoding is × 3/4")],
                                               seed: chars))]
        let names = token.payload.fields.map(\.name).joined(separator: ", ")
        steps.append(TourStep(node: NodeID(model.jsonLayer, 0), focus: .whole, range: 0..<bytes,
                              title: "The JSON, decoded",
                              lesson: ["text: " + TerminalSafe.escape(String(decoding: token.json.prefix(120), as: UTF8.self)) + (bytes > 120 ? "…" : ""),
                                       "meaning: its fields: \(TerminalSafe.escape(names)); tokenCreationDate is milliseconds since 1970"],
                              check: SelfCheck("Who signed this token?",
                                               right: ("nobody", "it is plain base64url JSON: anyone can make one, so only Apple's answer when you report it counts"),
                                               wrong: [("Apple, ES256", "a signed token has three dot-separated parts; this has one"),
                                                       ("the developer", "developer-signed JWS carry a kid and a signature; this carries neither")],
                                               seed: bytes)))
        if let field = token.payload.field("externalPurchaseId"), case .string(let id) = field.value {
            let range = token.tree[field.member.index].range
            steps.append(TourStep(node: NodeID(model.jsonLayer, field.member.index), focus: .whole, range: range,
                                  title: "externalPurchaseId: sandbox or production",
                                  lesson: ["text: " + TerminalSafe.escape(id),
                                           "meaning: the token's unique id; Apple prefixes a sandbox token's id with \(ExternalPurchaseToken.sandboxPrefix)"],
                                  check: SelfCheck("Is this a sandbox token?",
                                                   right: (token.isSandbox ? "yes" : "no", token.isSandbox ? "its id starts \(ExternalPurchaseToken.sandboxPrefix)" : "its id does not start \(ExternalPurchaseToken.sandboxPrefix)"),
                                                   wrong: [(token.isSandbox ? "no" : "yes", "only the \(ExternalPurchaseToken.sandboxPrefix) prefix says sandbox")],
                                                   seed: id.count)))
        }
        return steps
    }
}
