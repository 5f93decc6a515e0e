import ByteText
import JSONLenient
import JWSKit
import TextLoader
import DocumentCore
import DocumentRedact

/// A legacy (V1) promotional offer signature: base64 of an ECDSA P-256 SHA-256 signature (DER)
/// over seven fields joined by U+2063 (INVISIBLE SEPARATOR) — appBundleId, keyIdentifier,
/// productIdentifier, offerIdentifier, appAccountToken, nonce, timestamp — UUIDs lowercase, the
/// timestamp in milliseconds, as Apple's `PromotionalOfferSignatureCreator` writes them. The
/// fields come from a JSON object with Apple's names (`promotionalOfferSignatureV1` in a Retention
/// Messaging reply, or the object alone); the bundle id is signed but never carried, so `verify`
/// needs `--bundle-id`, and `--key` for the key.
public struct OfferSignatureV1: Sendable, Equatable {
    public var encodedSignature: String?
    public var productId: String?
    public var offerIdentifier: String?
    public var keyId: String?
    public var appAccountToken: String?
    public var nonce: String?
    public var timestamp: Int64?
    /// The object's bytes in its layer.
    public var range: Range<Int>
    /// Written from `verify --offer-signature`'s options: the parts' sources are named as flags.
    var fromOptions = false

    static let separator = "\u{2063}"
    /// The members that make an object a V1 signature (appAccountToken is optional).
    static let required = ["encodedSignature", "productId", "offerIdentifier", "keyId", "nonce", "timestamp"]

    /// The fields of the object at `object`; nil when it lacks encodedSignature or nonce.
    static func read(_ tree: JSONTree, object: Int) -> OfferSignatureV1? {
        guard tree[object].kind == .object else { return nil }
        func string(_ key: String) -> String? { tree.value(key, in: object).flatMap { tree.string(at: $0) } }
        guard string("encodedSignature") != nil, string("nonce") != nil else { return nil }
        let timestamp = tree.value("timestamp", in: object).flatMap { tree.number(at: $0)?.integer }
        return OfferSignatureV1(encodedSignature: string("encodedSignature"), productId: string("productId"),
                                offerIdentifier: string("offerIdentifier"), keyId: string("keyId"),
                                appAccountToken: string("appAccountToken"), nonce: string("nonce"),
                                timestamp: timestamp, range: tree[object].range)
    }

    /// The seven signed parts, named as Apple's documentation names them, in signing order.
    public func parts(bundleID: String) -> [(name: String, value: String)] {
        [("appBundleId", bundleID), ("keyIdentifier", keyId ?? ""), ("productIdentifier", productId ?? ""),
         ("offerIdentifier", offerIdentifier ?? ""), ("appAccountToken", (appAccountToken ?? "").lowercased()),
         ("nonce", (nonce ?? "").lowercased()), ("timestamp", timestamp.map(String.init) ?? "")]
    }

    /// The exact string the signature must cover.
    public func signedString(bundleID: String) -> String { parts(bundleID: bundleID).map(\.value).joined(separator: Self.separator) }

    /// The signed string with every part and separator visible: `⟦…⟧` around each part (terminal-safe)
    /// and `<U+2063>` for each separator.
    public func visibleString(bundleID: String) -> String {
        parts(bundleID: bundleID).map { "⟦" + TerminalSafe.escape($0.value) + "⟧" }.joined(separator: "<U+2063>")
    }

    /// The detail lines under the step: the string, then each part with where it came from.
    func detailLines(bundleID: String) -> [String] {
        let sources = fromOptions
            ? ["--bundle-id", "--key-id or the key file's name", "--product-id", "--offer-id", "--app-account-token (lowercased)",
               "--nonce (lowercased)", "--timestamp"]
            : ["--bundle-id", "keyId", "productId", "offerIdentifier", "appAccountToken (lowercased)", "nonce (lowercased)", "timestamp"]
        var lines = ["signed string (7 parts joined by U+2063 INVISIBLE SEPARATOR; ⟦ ⟧ mark each part):",
                     "  " + visibleString(bundleID: bundleID)]
        for (i, (part, source)) in zip(parts(bundleID: bundleID), sources).enumerated() {
            lines.append("  \(i + 1) \(part.name): \"\(TerminalSafe.escape(part.value))\" (from \(source))")
        }
        return lines + ["  UTF-8: \(Array(signedString(bundleID: bundleID).utf8).count) bytes, SHA-256 signed with ECDSA P-256"]
    }

    /// The fields of the signature that are absent.
    var missing: [String] {
        var out: [String] = []
        if encodedSignature == nil { out.append("encodedSignature") }
        if productId == nil { out.append("productId") }
        if offerIdentifier == nil { out.append("offerIdentifier") }
        if keyId == nil { out.append("keyId") }
        if nonce == nil { out.append("nonce") }
        if timestamp == nil { out.append("timestamp") }
        return out
    }

    /// What `redact` says when it changed a value the signature covers (the object is in the file layer):
    /// a copy's `verify --key --bundle-id` then fails, as it does for any signature redact breaks.
    static func redactedSignature(path: String?) -> RedactionParts.SignedLayers {
        let name = path.map { "\(TerminalSafe.escape($0)): its" } ?? "the V1 offer signature: its"
        return .init(layers: [.file], note: "\(name) ECDSA signature (encodedSignature) no longer verifies: it signs the fields joined by U+2063, and a value among them (appAccountToken) changed")
    }

    /// The DER signature, decoded from base64; nil when it is not base64.
    var signatureDER: [UInt8]? {
        guard let encodedSignature, case .success(let decoded) = Base64Text.decode(Array(encodedSignature.utf8)) else { return nil }
        return decoded.bytes
    }
}
