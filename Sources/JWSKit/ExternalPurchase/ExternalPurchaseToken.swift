import ASN1Lenient
import JSONLenient

/// An external purchase token as an app receives it: base64url of a JSON object, unsigned (Apple
/// reads it back when the developer reports the purchase). Decoded with positions: every decoded
/// JSON byte maps to the characters that carry it (`Base64Map`), every member is a schema field,
/// and a member or `tokenType` value the schema lacks is kept and flagged at info severity.
public struct ExternalPurchaseToken: Sendable {
    /// The token's characters (the text layer).
    public var text: [UInt8]
    /// The decoded JSON (the JSON layer).
    public var json: [UInt8]
    public var tree: JSONTree
    /// Every member, decoded by `StoreKitSchema.externalPurchaseToken`.
    public var payload: StoreKitPayload
    /// Base64url problems, pinned to characters of `text`.
    public var textDiagnostics: [Diagnostic]
    /// JSON and schema findings, pinned to bytes of `json`.
    public var jsonDiagnostics: [Diagnostic]

    /// Decoded JSON byte ↔ token character.
    public var map: Base64Map { Base64Map(textStart: 0) }

    /// A sandbox token: Apple prefixes its id with `SANDBOX_`.
    public var isSandbox: Bool { payload.string("externalPurchaseId")?.hasPrefix(Self.sandboxPrefix) == true }
    public static let sandboxPrefix = "SANDBOX_"

    /// The fields shown first.
    public static let headline = ["externalPurchaseId", "tokenType", "bundleId", "appAppleId", "tokenCreationDate"]

    public static func decode(text: [UInt8]) -> ExternalPurchaseToken {
        let base64 = Base64Decoder.decode(text[...], alphabet: .url)
        let tree = JSONParser.parse(base64.bytes)
        var jsonDiagnostics = tree.diagnostics
        var fields: [StoreKitField] = []
        if let root = tree.root, tree[root].kind == .object {
            var schema = SchemaDecoder(tree: tree)
            schema.flagsUnlisted = true
            schema.decodeObject(root, specs: StoreKitSchema.Index.externalPurchaseToken, prefix: "")
            fields = schema.fields
            jsonDiagnostics += schema.diagnostics
        } else {
            jsonDiagnostics.append(JWSCode.payloadNotObject.diagnostic("an external purchase token is a JSON object", 0..<base64.bytes.count))
        }
        return ExternalPurchaseToken(text: text, json: base64.bytes, tree: tree, payload: StoreKitPayload(kind: .unknown, fields: fields),
                                     textDiagnostics: base64.diagnostics, jsonDiagnostics: jsonDiagnostics)
    }
}
