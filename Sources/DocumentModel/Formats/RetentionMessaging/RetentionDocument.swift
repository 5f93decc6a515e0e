import JSONLenient
import JWSKit

/// A Retention Messaging document (Retention Messaging API, 2025–26): the real-time request Apple
/// POSTs to the developer's Get Retention Message endpoint, or one of the four mutually exclusive
/// replies (RealtimeResponseBody) the developer returns.
public enum RetentionDocument: String, Sendable, Equatable, CaseIterable {
    /// `{"signedPayload": JWS}` (or the JWS alone): DecodedRealtimeRequestBody, signed by Apple.
    case request = "retention-request"
    /// `message{messageIdentifier}`: a text message, with or without an image.
    case message = "retention-message"
    /// `alternateProduct{messageIdentifier, productId, billingPlanType}`: a switch-plan message.
    case alternateProduct = "retention-alternate-product"
    /// `promotionalOffer{messageIdentifier, promotionalOfferSignatureV2 | promotionalOfferSignatureV1}`.
    case promotionalOffer = "retention-promotional-offer"
    /// `advancedCommerceInfo{messageIdentifier, advancedCommerceData}`: base64 JSON wrapping a developer-signed JWS.
    case advancedCommerce = "retention-advanced-commerce"

    /// The reply's top-level member.
    var key: String? {
        switch self {
        case .request: nil
        case .message: "message"
        case .alternateProduct: "alternateProduct"
        case .promotionalOffer: "promotionalOffer"
        case .advancedCommerce: "advancedCommerceInfo"
        }
    }

    var summary: String {
        switch self {
        case .request: "a Retention Messaging real-time request (DecodedRealtimeRequestBody, signed by Apple)"
        case .message: "a Retention Messaging reply: a message (RealtimeResponseBody.message)"
        case .alternateProduct: "a Retention Messaging reply: a switch-plan message (RealtimeResponseBody.alternateProduct)"
        case .promotionalOffer: "a Retention Messaging reply: a promotional offer (RealtimeResponseBody.promotionalOffer)"
        case .advancedCommerce: "a Retention Messaging reply: an Advanced Commerce offer (RealtimeResponseBody.advancedCommerceInfo)"
        }
    }

    /// What the request's token is, wherever the token is named.
    static let requestTokenLabel = "Retention Messaging real-time request"

    var title: String { self == .request ? "Retention Messaging request" : "Retention Messaging reply" }

    /// The reply a JSON object is, by its one top-level member; nil: none (or several, which Apple refuses).
    static func reply(_ tree: JSONTree) -> RetentionDocument? {
        guard let root = tree.root, tree[root].kind == .object else { return nil }
        // The member's value is an object; a bare `message` must name its messageIdentifier (logs say "message" too).
        let found = allCases.filter { reply in
            guard let key = reply.key, let value = tree.value(key, in: root), tree[value].kind == .object else { return false }
            return reply != .message || tree.member("messageIdentifier", in: value) != nil
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Whether a decoded payload is a real-time request: the claims only it has.
    static func isRequest(_ payload: StoreKitPayload) -> Bool {
        payload.field("requestIdentifier") != nil && payload.field("userLocale") != nil && payload.field("originalTransactionId") != nil
    }
}
