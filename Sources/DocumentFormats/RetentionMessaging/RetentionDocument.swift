import JSONLenient
import JWSKit
import DocumentCore

/// What the kind's case names (declared beside `DocumentKind` in DocumentCore): its words and shape.
extension RetentionDocument {
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
        requestClaims.allSatisfy { payload.field($0) != nil }
    }

    static let requestClaims = ["requestIdentifier", "userLocale", "originalTransactionId"]
}
