/// The fields a person asks about first — what was bought, when, for which app, and what happened —
/// per payload kind, in the order they are shown. The summary view and `verify`'s heading show them
/// so that what a customer bought is visible without opening the tree; every other field stays in
/// the tree and in `json`. `signedDate` is left out: both already show it as "signed".
public enum StoreKitHeadline {
    public static func paths(of kind: StoreKitPayloadKind) -> [String] {
        switch kind {
        case .transaction: transaction
        case .renewalInfo: renewalInfo
        case .appTransaction: appTransaction
        case .notification: notification
        case .promotionalOffer, .introductoryOfferEligibility, .advancedCommerceRequest, .serverAPIToken:
            kind.developerKind?.headline ?? []
        case .unknown: ["bundleId", "environment"]
        }
    }

    static let transaction = [
        "productId", "type", "transactionId", "originalTransactionId", "purchaseDate", "expiresDate",
        "quantity", "price", "transactionReason", "offerType", "revocationDate", "revocationReason",
        "inAppOwnershipType", "storefront", "bundleId", "environment",
    ]
    static let renewalInfo = [
        "productId", "autoRenewProductId", "autoRenewStatus", "renewalDate", "expirationIntent",
        "isInBillingRetryPeriod", "gracePeriodExpiresDate", "priceIncreaseStatus", "originalTransactionId",
        "environment",
    ]
    static let appTransaction = [
        "bundleId", "appAppleId", "applicationVersion", "originalApplicationVersion", "originalPurchaseDate",
        "preorderDate", "originalPlatform", "appTransactionId", "receiptType",
    ]
    static let notification = [
        "notificationType", "subtype", "notificationUUID", "data.bundleId", "data.appAppleId", "data.environment",
        "data.status", "data.consumptionRequestReason",
        // A mass renewal extension's summary, and an external purchase notification's token.
        "summary.bundleId", "summary.environment", "summary.productId", "summary.succeededCount",
        "summary.failedCount", "externalPurchaseToken.externalPurchaseId", "externalPurchaseToken.bundleId",
    ]
}

/// One headline field: its path as written in the payload and its value for display.
public struct StoreKitHeadlineField: Sendable, Equatable {
    public var path: String
    /// `StoreKitValue.display`, except that a date is its ISO instant alone (the milliseconds are in
    /// the tree and in `json`). Text from the input, not escaped: escape it where it is shown.
    public var value: String

    public init(path: String, value: String) {
        self.path = path
        self.value = value
    }
}

extension StoreKitPayload {
    /// The headline fields this payload has, in `StoreKitHeadline`'s order (absent ones skipped).
    public var headline: [StoreKitHeadlineField] {
        StoreKitHeadline.paths(of: kind).compactMap { path in
            guard let value = value(path) else { return nil }
            if case .date(_, let iso) = value { return StoreKitHeadlineField(path: path, value: iso) }
            if case .seconds(_, let iso) = value { return StoreKitHeadlineField(path: path, value: iso) }
            return StoreKitHeadlineField(path: path, value: value.display)
        }
    }
}
