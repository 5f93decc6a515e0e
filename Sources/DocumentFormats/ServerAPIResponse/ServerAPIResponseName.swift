import JSONLenient
import JWSKit
import DocumentCore

/// What the kind's case names (declared beside `DocumentKind` in DocumentCore): its words and shape.
extension ServerAPIResponseName {
    /// Apple's model name.
    public var model: String {
        switch self {
        case .refundHistory: "RefundHistoryResponse"
        case .orderLookup: "OrderLookupResponse"
        case .notificationHistory: "NotificationHistoryResponse"
        case .appTransactionInfo: "AppTransactionInfoResponse"
        case .advancedCommerce: "an Advanced Commerce API response"
        case .testNotificationStatus: "CheckTestNotificationResponse"
        }
    }

    /// The endpoint that returns it and the API version it arrived in.
    public var endpoint: String {
        switch self {
        case .refundHistory: "Get Refund History, App Store Server API 1.6"
        case .orderLookup: "Look Up Order ID, App Store Server API 1.1"
        case .notificationHistory: "Get Notification History, App Store Server API 1.5"
        case .appTransactionInfo: "Get App Transaction Info, App Store Server API 1.17"
        case .advancedCommerce: "Advanced Commerce API"
        case .testNotificationStatus: "Get Test Notification Status, App Store Server API 1.5"
        }
    }

    /// "a refund history response", for the kind's summary (the count follows).
    var phrase: String {
        switch self {
        case .refundHistory: "a refund history response"
        case .orderLookup: "an order lookup response"
        case .notificationHistory: "a notification history response"
        case .appTransactionInfo: "an app transaction response"
        case .advancedCommerce: "an Advanced Commerce API response"
        case .testNotificationStatus: "a test notification status response"
        }
    }

    /// The explorer's title.
    var title: String {
        switch self {
        case .refundHistory: "Refund history"
        case .orderLookup: "Order lookup"
        case .notificationHistory: "Notification history"
        case .appTransactionInfo: "App transaction response"
        case .advancedCommerce: "Advanced Commerce response"
        case .testNotificationStatus: "Test notification status"
        }
    }

    /// What a token of this response is called in the summary's count.
    var tokenNoun: String {
        switch self {
        case .refundHistory: "refunded transaction"
        case .orderLookup: "transaction"
        case .notificationHistory: "notification"
        case .appTransactionInfo: "app transaction"
        case .advancedCommerce, .testNotificationStatus: "signed token"
        }
    }

    /// The payload kinds its tokens are (the options table asks which claims they carry).
    var payloads: [StoreKitPayloadKind] {
        switch self {
        case .refundHistory, .orderLookup: [.transaction]
        case .notificationHistory, .testNotificationStatus: [.notification]
        case .appTransactionInfo: [.appTransaction]
        case .advancedCommerce: [.transaction, .renewalInfo]
        }
    }

    /// The response a JSON body of tokens is, from its top-level members; nil: none of these.
    /// A transaction history (HistoryResponse) carries bundleId and environment, a refund history
    /// does not; a single token under its response's key must be that response's kind.
    static func of(_ tree: JSONTree, tokens: [EmbeddedToken]) -> (name: ServerAPIResponseName, reason: String)? {
        guard let root = tree.root, tree[root].kind == .object else { return nil }
        let keys = Set(tree.members(of: root).compactMap { tree.key(ofMember: $0) })
        let top = Set(tokens.map(\.path))
        if keys.contains("notificationHistory"), tokens.allSatisfy({ $0.path.hasPrefix("notificationHistory[") }) {
            return (.notificationHistory, "JSON with notificationHistory[] of signedPayload and sendAttempts: Apple's NotificationHistoryResponse")
        }
        if keys.contains("signedTransactions") {
            if keys.contains("status"), !keys.contains("revision") {
                return (.orderLookup, "JSON with status and signedTransactions: Apple's OrderLookupResponse (Look Up Order ID)")
            }
            if keys.contains("revision"), keys.contains("hasMore"), keys.isDisjoint(with: ["bundleId", "appAppleId", "environment"]) {
                return (.refundHistory, "JSON with signedTransactions, revision and hasMore but no bundleId or environment: Apple's RefundHistoryResponse")
            }
            return nil
        }
        if keys.contains("sendAttempts"), top == ["signedPayload"] {
            return (.testNotificationStatus, "JSON with signedPayload and sendAttempts: Apple's CheckTestNotificationResponse")
        }
        if top == ["signedTransactionInfo", "signedRenewalInfo"] {
            return (.advancedCommerce, "JSON with signedTransactionInfo and signedRenewalInfo at its top: an Advanced Commerce API response")
        }
        if top == ["signedAppTransactionInfo"], tokens.first?.kind == .appTransaction {
            return (.appTransactionInfo, "JSON with signedAppTransactionInfo holding an app transaction: Apple's AppTransactionInfoResponse")
        }
        return nil
    }
}
