import ByteText
import DocumentCore

extension OfferSignatureV1Format {
    /// `verify --offer-signature SIG --product-id P --offer-id O --nonce N --timestamp MS
    /// [--app-account-token T]`: the V1 signature and the fields it covers, written as the JSON object
    /// with Apple's names that `verify FILE` reads, so both forms take one path (recognised, opened
    /// and checked by this format). The key id comes from `--key-id` or the key file's name; the
    /// bundle id stays the option it is (nothing carries it).
    public static func input(signature: String, productID: String, offerID: String, keyID: String,
                             appAccountToken: String?, nonce: String, timestamp: Int64) -> DocumentInput {
        var members = [("encodedSignature", quoted(signature)), ("productId", quoted(productID)),
                       ("offerIdentifier", quoted(offerID)), ("keyId", quoted(keyID)), ("nonce", quoted(nonce)),
                       ("timestamp", String(timestamp))]
        if let appAccountToken { members.append(("appAccountToken", quoted(appAccountToken))) }
        let text = "{\n" + members.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}\n"
        let bytes = Array(text.utf8)
        return .bytes(bytes, place: .options("--offer-signature"), about: "the options' fields as one JSON object, \(NumberText.grouped(bytes.count)) bytes")
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                out += "\\u00" + Hex.string([UInt8(scalar.value)], .lower)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
