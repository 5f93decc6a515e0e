import ASN1Lenient
import ByteText

/// An external purchase token: base64url JSON, unsigned (StoreKit's ExternalPurchase and
/// ExternalPurchaseCustomLink hand one to the app). The loader recognises its syntax only, one run
/// of base64url characters (optionally quoted) starting `eyJ` (`{"`) whose JSON names
/// `externalPurchaseId` or `tokenCreationDate`; DocumentModel decodes it with its offsets.
extension InputDetector {
    static let externalPurchaseToken = InputDetector(name: "external purchase token") { input in
        guard input.isTextLike, let range = ExternalPurchaseTokenText.range(input.bytes, from: input.firstNonSpace),
              case .success(let decoded) = Base64Text.decode(input.bytes, range: range),
              ExternalPurchaseTokenText.namesTokenFields(decoded.bytes) else { return nil }
        let text = Array(input.bytes[range])
        let trimmed = range.count == input.bytes.count ? "" : " (surrounding whitespace or quotes removed)"
        return LoadedInput(bytes: text, name: input.name, encoding: .externalPurchaseToken,
                           note: "base64url JSON, \(NumberText.grouped(text.count)) characters → \(NumberText.grouped(decoded.bytes.count)) bytes\(trimmed)")
    }
}

public enum ExternalPurchaseTokenText {
    /// The token's characters when the whole input is one run of base64url characters starting `eyJ`.
    static func range(_ bytes: [UInt8], from first: Int) -> Range<Int>? {
        let (start, end) = JWSText.unquoted(bytes, from: first)
        guard end - start >= 16, bytes[start..<end].starts(with: Array("eyJ".utf8)) else { return nil }
        for c in bytes[start..<end] where !JWSText.isTokenCharacter(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") {
            return nil
        }
        return start..<end
    }

    /// A JSON object whose first 4 KB name a field only external purchase tokens have.
    public static func namesTokenFields(_ json: [UInt8]) -> Bool {
        guard json.first == UInt8(ascii: "{") else { return false }
        let head = String(decoding: json.prefix(4096), as: UTF8.self)
        return head.contains("\"externalPurchaseId\"") || head.contains("\"tokenCreationDate\"")
    }
}
