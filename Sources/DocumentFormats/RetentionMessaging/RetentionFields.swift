import ByteText
import JSONLenient
import DocumentCore

/// What each member of a Retention Messaging request's payload or of a reply means, with the
/// Retention Messaging API version it arrived in (Apple's documentation's availability).
enum RetentionFields {
    static let v1 = "Retention Messaging API 1.0"

    static func meaning(_ key: String, parent: String?) -> String? {
        switch (key, parent) {
        // The request (DecodedRealtimeRequestBody).
        case ("originalTransactionId", _): "The original transaction id of the customer's subscription (\(v1))."
        case ("appAppleId", _): "The app's id in the App Store; Apple's verifier compares it in Production (\(v1))."
        case ("userLocale", _): "The device's locale: the language to answer in (\(v1))."
        case ("requestIdentifier", _): "A UUID Apple makes for each request (\(v1))."
        case ("signedDate", _): "When Apple signed the request; certificates are judged at this date (\(v1))."
        case ("environment", _): "Sandbox or Production; Apple's verifier compares it (\(v1))."
        case ("productId", nil): "The subscription the customer is looking at (\(v1))."
        // The replies (RealtimeResponseBody): one of four members.
        case ("message", _): "A text message, with or without an image (\(v1))."
        case ("alternateProduct", _): "A switch-plan message and the subscription it suggests (\(v1))."
        case ("promotionalOffer", _): "A message with a promotional offer, signed by your In-App Purchase key (\(v1))."
        case ("advancedCommerceInfo", _): "An Advanced Commerce offer or switch-plan recommendation (Retention Messaging API, with the Advanced Commerce API)."
        case ("messageIdentifier", _): "The id of an APPROVED message you uploaded (Upload Message) (\(v1))."
        case ("productId", "alternateProduct"): "The subscription, in the same group, suggested to switch to (\(v1))."
        case ("billingPlanType", _): "BILLED_UPFRONT or MONTHLY: how the suggested subscription is billed (Retention Messaging API 1.5)."
        case ("promotionalOfferSignatureV2", _): "The offer as a JWS signed by your key (aud promotional-offer); `verify --key` checks it."
        case ("promotionalOfferSignatureV1", _): "The legacy offer signature and the fields it covers; `verify --key --bundle-id` checks it."
        case ("encodedSignature", _): "Base64 of the DER ECDSA P-256 SHA-256 signature over the fields joined by U+2063."
        case ("productId", "promotionalOfferSignatureV1"): "The subscription the offer is for (signed, third field)."
        case ("offerIdentifier", _): "The offer's id in App Store Connect (signed, fourth field)."
        case ("keyId", _): "The id of the In-App Purchase key that signed (signed, second field)."
        case ("appAccountToken", _): "A UUID for the customer's account, lowercase when signed (fifth field; empty when absent)."
        case ("nonce", _): "A one-time UUID, lowercase when signed (sixth field)."
        case ("timestamp", _): "When the signature was made, in milliseconds; the offer lasts 24 hours (signed, last field)."
        case ("advancedCommerceData", _): "Base64 JSON holding a JWS signed by your key (Advanced Commerce's signatureInfo.token)."
        case ("signatureInfo", _): "Advanced Commerce's signature info: the signed request."
        case ("token", _): "A JWS signed by your In-App Purchase key; `verify --key` checks it."
        default: nil
        }
    }

    /// Every member of `tree` with a meaning, by JSON node index.
    static func wording(_ tree: JSONTree) -> [Int: FieldWording] {
        ServerAPIResponseFields.members(of: tree) { key, index in
            meaning(key, parent: parentKey(of: index, in: tree)).map { FieldWording(display: display(key, tree.value(ofMember: index), tree), meaning: $0) }
        }
    }

    /// The key of the member whose object holds `member`; nil at the top.
    static func parentKey(of member: Int, in tree: JSONTree) -> String? {
        guard let object = tree.parent(of: member), let holder = tree.parent(of: object), tree[holder].kind == .member else { return nil }
        return tree.key(ofMember: holder)
    }

    static func display(_ key: String, _ value: Int?, _ tree: JSONTree) -> String? {
        guard key == "signedDate" || key == "timestamp", let value, let ms = tree.number(at: value)?.integer else { return nil }
        return "\(ms) (\(ISO8601Text.string(epochMilliseconds: ms, fraction: .whenNonZero, farYears: .julianEra)))"
    }
}
