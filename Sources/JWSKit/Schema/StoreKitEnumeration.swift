/// A named enumeration of App Store Server API values (raw value as text → meaning).
public struct StoreKitEnumeration: Sendable, Equatable {
    public var name: String
    /// True when the JSON carries a number (offerType 1), false for a string ("PURCHASED").
    public var numeric: Bool
    public var cases: [(raw: String, meaning: String)]

    public static func == (a: StoreKitEnumeration, b: StoreKitEnumeration) -> Bool { a.name == b.name }

    public func meaning(of raw: String) -> String? { cases.first { $0.raw == raw }?.meaning }

    public static let type = StoreKitEnumeration(name: "type", numeric: false, cases: [
        ("Auto-Renewable Subscription", "a subscription that renews until cancelled"),
        ("Non-Consumable", "bought once, kept forever"),
        ("Consumable", "used up, can be bought again"),
        ("Non-Renewing Subscription", "a subscription for a fixed period the app manages"),
    ])
    public static let inAppOwnershipType = StoreKitEnumeration(name: "inAppOwnershipType", numeric: false, cases: [
        ("PURCHASED", "the user bought it"),
        ("FAMILY_SHARED", "a family member bought it and shares it through Family Sharing"),
    ])
    public static let offerType = StoreKitEnumeration(name: "offerType", numeric: true, cases: [
        ("1", "introductory offer"), ("2", "promotional offer"), ("3", "offer code"), ("4", "win-back offer"),
    ])
    public static let offerDiscountType = StoreKitEnumeration(name: "offerDiscountType", numeric: false, cases: [
        ("FREE_TRIAL", "free trial"), ("PAY_AS_YOU_GO", "reduced price for several periods"),
        ("PAY_UP_FRONT", "one reduced payment for several periods"), ("ONE_TIME", "one-time discount"),
    ])
    public static let revocationReason = StoreKitEnumeration(name: "revocationReason", numeric: true, cases: [
        ("0", "refunded for another reason (e.g. accidental purchase)"), ("1", "refunded for an issue in the app"),
    ])
    public static let transactionReason = StoreKitEnumeration(name: "transactionReason", numeric: false, cases: [
        ("PURCHASE", "the customer bought it (or upgraded, or redeemed an offer)"),
        ("RENEWAL", "the App Store renewed a subscription"),
    ])
    public static let expirationIntent = StoreKitEnumeration(name: "expirationIntent", numeric: true, cases: [
        ("1", "the customer cancelled"), ("2", "billing error"),
        ("3", "the customer did not consent to a price increase"),
        ("4", "the product was not available at renewal"), ("5", "other reason"),
    ])
    public static let autoRenewStatus = StoreKitEnumeration(name: "autoRenewStatus", numeric: true, cases: [
        ("0", "automatic renewal is off"), ("1", "automatic renewal is on"),
    ])
    public static let priceIncreaseStatus = StoreKitEnumeration(name: "priceIncreaseStatus", numeric: true, cases: [
        ("0", "the customer has not responded to a price increase"),
        ("1", "the customer consented to, or was notified of, a price increase"),
    ])
    public static let environment = StoreKitEnumeration(name: "environment", numeric: false, cases: [
        ("Production", "the App Store"), ("Sandbox", "the sandbox test environment"),
        ("Xcode", "StoreKit testing in Xcode (signed by a local certificate)"),
        ("LocalTesting", "local testing of the App Store Server Library"),
    ])
    public static let status = StoreKitEnumeration(name: "status", numeric: true, cases: [
        ("1", "active"), ("2", "expired"), ("3", "in billing retry"), ("4", "in billing grace period"), ("5", "revoked"),
    ])
    public static let consumptionRequestReason = StoreKitEnumeration(name: "consumptionRequestReason", numeric: false, cases: [
        ("UNINTENDED_PURCHASE", "the customer did not mean to buy"), ("FULFILLMENT_ISSUE", "the purchase was not delivered"),
        ("UNSATISFIED_WITH_PURCHASE", "the customer is not satisfied"), ("LEGAL", "a legal reason"), ("OTHER", "another reason"),
    ])
    public static let notificationType = StoreKitEnumeration(name: "notificationType", numeric: false, cases: [
        ("CONSUMPTION_REQUEST", "a refund was requested for a consumable: send consumption data"),
        ("DID_CHANGE_RENEWAL_PREF", "the customer changed the renewal product"),
        ("DID_CHANGE_RENEWAL_STATUS", "automatic renewal was turned on or off"),
        ("DID_FAIL_TO_RENEW", "renewal failed (billing)"), ("DID_RENEW", "the subscription renewed"),
        ("EXPIRED", "the subscription expired"), ("EXTERNAL_PURCHASE_TOKEN", "an external purchase token was created"),
        ("GRACE_PERIOD_EXPIRED", "the billing grace period ended"), ("OFFER_REDEEMED", "an offer was redeemed"),
        ("ONE_TIME_CHARGE", "a one-time purchase was made"),
        ("PRICE_INCREASE", "a price increase was announced"), ("REFUND", "the App Store refunded a transaction"),
        ("REFUND_DECLINED", "a refund request was declined"), ("REFUND_REVERSED", "a refund was reversed"),
        ("RENEWAL_EXTENDED", "the renewal date was extended"), ("RENEWAL_EXTENSION", "a mass renewal extension ran"),
        ("REVOKE", "Family Sharing access was revoked"), ("SUBSCRIBED", "the customer subscribed"),
        ("TEST", "a test notification requested through the App Store Server API"),
        ("METADATA_UPDATE", "subscription metadata changed"), ("MIGRATION", "the subscription migrated"),
        ("PRICE_CHANGE", "the price changed"),
        ("RESCIND_CONSENT", "a parent or guardian withdrew consent for the app (see appData; Notifications before 2.21)"),
    ])
    public static let subtype = StoreKitEnumeration(name: "subtype", numeric: false, cases: [
        ("INITIAL_BUY", "first purchase of the subscription group"), ("RESUBSCRIBE", "subscribed again after expiry"),
        ("DOWNGRADE", "moves to a lower level at the next renewal"), ("UPGRADE", "moved to a higher level now"),
        ("AUTO_RENEW_ENABLED", "automatic renewal turned on"), ("AUTO_RENEW_DISABLED", "automatic renewal turned off"),
        ("VOLUNTARY", "the customer let it expire"), ("BILLING_RETRY", "billing retry ended without success"),
        ("PRICE_INCREASE", "the customer did not consent to a price increase"),
        ("PRODUCT_NOT_FOR_SALE", "the product was not for sale at renewal"), ("GRACE_PERIOD", "renewal failed; in grace period"),
        ("BILLING_RECOVERY", "renewed after an earlier billing failure"), ("PENDING", "price increase awaiting consent"),
        ("ACCEPTED", "price increase accepted"), ("SUMMARY", "a mass renewal extension finished"),
        ("FAILURE", "renewal extension failed for this subscription"), ("UNREPORTED", "an external purchase token was not reported"),
        ("ACTIVE_TOKEN_REMINDER", "reminder to report an active external purchase token"),
        ("CREATED", "an external purchase token was created (Notifications before 2.21)"),
    ])
    // Enumerations added in 2025–2026; where each came from is in StoreKitSchema's field specs.
    public static let revocationType = StoreKitEnumeration(name: "revocationType", numeric: false, cases: [
        ("REFUND_FULL", "refunded in full"), ("REFUND_PRORATED", "refunded in part (see revocationPercentage)"),
        ("FAMILY_REVOKE", "Family Sharing access was revoked"),
    ])
    public static let billingPlanType = StoreKitEnumeration(name: "billingPlanType", numeric: false, cases: [
        ("BILLED_UPFRONT", "the whole period is paid at once"),
        ("MONTHLY", "paid monthly within a 12-month commitment"),
    ])
    /// Apple's own name for the same values on renewal info.
    public static let renewalBillingPlanType = StoreKitEnumeration(name: "renewalBillingPlanType", numeric: false, cases: billingPlanType.cases)
    public static let tokenType = StoreKitEnumeration(name: "tokenType", numeric: false, cases: [
        ("ACQUISITION", "a token for acquiring a new customer"), ("SERVICES", "a token for ongoing services"),
    ])
}
