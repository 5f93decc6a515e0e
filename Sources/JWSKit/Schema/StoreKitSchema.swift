/// What a payload field holds.
public enum StoreKitValueType: Sendable, Equatable {
    case string
    /// An id sent as a string (transactionId, …): ids exceed 2^53, so Apple quotes them.
    case identifier
    case integer
    case bool
    /// Milliseconds since 1970, a JSON number.
    case date
    /// Seconds since 1970, a JSON integer (JWT `iat`, `exp`).
    case secondsDate
    case enumeration(StoreKitEnumeration)
    /// Milliunits of the payload's `currency`.
    case price
    /// A compact JWS in a string, decoded as its own document.
    case token(StoreKitPayloadKind)
    /// An object whose members follow the named schema.
    case object(StoreKitObjectSchema)
    case stringArray
    /// An array of objects (Advanced Commerce items): counted, members not checked.
    case array
}

/// Names the nested object schemas (an enum, since specs refer to each other).
public enum StoreKitObjectSchema: String, Sendable, Equatable {
    case notificationData = "data"
    case summary
    case externalPurchaseToken
    case appData
    case transactionCommitment
    case renewalCommitment
    case advancedCommerce
    case advancedCommerceRenewal
    case advancedCommerceDescriptors

    public var fields: [StoreKitFieldSpec] {
        switch self {
        case .notificationData: StoreKitSchema.notificationData
        case .summary: StoreKitSchema.summary
        case .externalPurchaseToken: StoreKitSchema.externalPurchaseToken
        case .appData: StoreKitSchema.appData
        case .transactionCommitment: StoreKitSchema.transactionCommitment
        case .renewalCommitment: StoreKitSchema.renewalCommitment
        case .advancedCommerce: StoreKitSchema.advancedCommerce
        case .advancedCommerceRenewal: StoreKitSchema.advancedCommerceRenewal
        case .advancedCommerceDescriptors: StoreKitSchema.advancedCommerceDescriptors
        }
    }

    /// `fields` by name, for the decoder.
    var specsByName: [String: StoreKitFieldSpec] {
        switch self {
        case .notificationData: StoreKitSchema.Index.notificationData
        case .summary: StoreKitSchema.Index.summary
        case .externalPurchaseToken: StoreKitSchema.Index.externalPurchaseToken
        case .appData: StoreKitSchema.Index.appData
        case .transactionCommitment: StoreKitSchema.Index.transactionCommitment
        case .renewalCommitment: StoreKitSchema.Index.renewalCommitment
        case .advancedCommerce: StoreKitSchema.Index.advancedCommerce
        case .advancedCommerceRenewal: StoreKitSchema.Index.advancedCommerceRenewal
        case .advancedCommerceDescriptors: StoreKitSchema.Index.advancedCommerceDescriptors
        }
    }
}

/// One row of a payload schema. Its parts are kept in one shared object: every decoded field holds
/// its spec, and a copy of four strings and an enumeration was 16 reference counts a field.
public struct StoreKitFieldSpec: Sendable, Equatable {
    private final class Parts: Sendable {
        let name: String
        let type: StoreKitValueType
        let meaning: String
        let introduced: String?

        init(name: String, type: StoreKitValueType, meaning: String, introduced: String?) {
            self.name = name
            self.type = type
            self.meaning = meaning
            self.introduced = introduced
        }
    }

    private let parts: Parts

    public var name: String { parts.name }
    public var type: StoreKitValueType { parts.type }
    /// One sentence for the explanation pane.
    public var meaning: String { parts.meaning }
    /// The version of Apple's documentation that introduced the field ("App Store Server API 1.21"),
    /// or "before <version>" where the introducing one is not known; nil for fields from the start.
    public var introduced: String? { parts.introduced }

    public init(_ name: String, _ type: StoreKitValueType, _ meaning: String, introduced: String? = nil) {
        parts = Parts(name: name, type: type, meaning: meaning, introduced: introduced)
    }

    public static func == (a: StoreKitFieldSpec, b: StoreKitFieldSpec) -> Bool {
        a.parts === b.parts
            || (a.name == b.name && a.type == b.type && a.meaning == b.meaning && a.introduced == b.introduced)
    }

    /// `meaning` with where Apple introduced the field, for the explanation pane.
    public var meaningWithVersion: String {
        introduced.map { "\(meaning) (introduced in \($0))" } ?? meaning
    }
}

/// The App Store Server API payload schemas (Apple's documentation, as of App Store Server API 1.21
/// and App Store Server Notifications 2.21, 2026-04-27). Unknown fields are
/// kept and listed by the decoder; Apple adds fields often.
public enum StoreKitSchema {
    /// When the schema below was read from Apple's documentation: a field or value it lacks is
    /// flagged "not in this tool's schema (Apple may have added it after <this>)".
    public static let documentationDate = "2026-04-27"

    /// The sentence that ends every not-in-schema finding.
    public static let notInSchemaNote = "not in this tool's schema (Apple may have added it after \(documentationDate))"

    public static func fields(of kind: StoreKitPayloadKind) -> [StoreKitFieldSpec] {
        switch kind {
        case .transaction: transaction
        case .renewalInfo: renewalInfo
        case .appTransaction: appTransaction
        case .notification: notification
        case .promotionalOffer, .introductoryOfferEligibility, .advancedCommerceRequest, .serverAPIToken:
            kind.developerKind?.fields ?? []
        case .unknown: common
        }
    }

    /// `fields(of:)` by name (the first spec of a name, as a scan would find), for the decoder: a
    /// linear scan of ≈ 30 specs per member was a fifth of decoding a payload.
    static func specsByName(of kind: StoreKitPayloadKind) -> [String: StoreKitFieldSpec] {
        switch kind {
        case .transaction: Index.transaction
        case .renewalInfo: Index.renewalInfo
        case .appTransaction: Index.appTransaction
        case .notification: Index.notification
        case .promotionalOffer, .introductoryOfferEligibility, .advancedCommerceRequest, .serverAPIToken:
            kind.developerKind?.specsByName ?? [:]
        case .unknown: Index.common
        }
    }

    enum Index {
        static func byName(_ specs: [StoreKitFieldSpec]) -> [String: StoreKitFieldSpec] {
            Dictionary(specs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }

        static let common = byName(StoreKitSchema.common)
        static let transaction = byName(StoreKitSchema.transaction)
        static let renewalInfo = byName(StoreKitSchema.renewalInfo)
        static let appTransaction = byName(StoreKitSchema.appTransaction)
        static let notification = byName(StoreKitSchema.notification)
        static let notificationData = byName(StoreKitSchema.notificationData)
        static let summary = byName(StoreKitSchema.summary)
        static let externalPurchaseToken = byName(StoreKitSchema.externalPurchaseToken)
        static let appData = byName(StoreKitSchema.appData)
        static let transactionCommitment = byName(StoreKitSchema.transactionCommitment)
        static let renewalCommitment = byName(StoreKitSchema.renewalCommitment)
        static let advancedCommerce = byName(StoreKitSchema.advancedCommerce)
        static let advancedCommerceRenewal = byName(StoreKitSchema.advancedCommerceRenewal)
        static let advancedCommerceDescriptors = byName(StoreKitSchema.advancedCommerceDescriptors)
    }

    static let common: [StoreKitFieldSpec] = [
        .init("bundleId", .string, "The app's bundle identifier."),
        .init("environment", .enumeration(.environment), "Where the token was made: Production, Sandbox or Xcode."),
        .init("signedDate", .date, "When the App Store signed this token; certificates are judged at this date."),
        // Xcode StoreKit-testing tokens carry the device binding in transactions and renewals too.
        .init("deviceVerification", .string, "Base64 SHA-384 of the device id and the nonce."),
        .init("deviceVerificationNonce", .string, "The UUID mixed into deviceVerification."),
    ]

    public static let transaction: [StoreKitFieldSpec] = common + [
        .init("transactionId", .identifier, "This transaction's unique id."),
        .init("originalTransactionId", .identifier, "The first transaction of this purchase or subscription."),
        .init("webOrderLineItemId", .identifier, "The subscription purchase event's id across devices."),
        .init("productId", .string, "The product identifier from App Store Connect."),
        .init("subscriptionGroupIdentifier", .string, "The subscription group the product belongs to."),
        .init("purchaseDate", .date, "When the App Store charged the account (or renewed)."),
        .init("originalPurchaseDate", .date, "When the original transaction was made."),
        .init("expiresDate", .date, "When the subscription expires or renews."),
        .init("quantity", .integer, "How many consumables were bought."),
        .init("type", .enumeration(.type), "The product type."),
        .init("appAccountToken", .string, "The UUID the app set at purchase to link the customer account."),
        .init("inAppOwnershipType", .enumeration(.inAppOwnershipType), "Bought by the user or shared by family."),
        .init("revocationDate", .date, "When the App Store refunded or revoked the transaction."),
        .init("revocationReason", .enumeration(.revocationReason), "Why it was refunded."),
        .init("isUpgraded", .bool, "True when the customer upgraded to another subscription."),
        .init("offerType", .enumeration(.offerType), "The kind of offer applied."),
        .init("offerIdentifier", .string, "The promotional offer or offer code reference."),
        .init("offerDiscountType", .enumeration(.offerDiscountType), "How an introductory or other offer discounts."),
        .init("offerPeriod", .string, "The offer's duration (ISO 8601 duration).", introduced: api115),
        .init("storefront", .string, "The App Store storefront, an ISO 3166-1 alpha-3 code."),
        .init("storefrontId", .string, "Apple's storefront identifier."),
        .init("transactionReason", .enumeration(.transactionReason), "Purchase or renewal."),
        .init("price", .price, "The price in milliunits of the currency."),
        .init("currency", .string, "ISO 4217 currency code of the price."),
        .init("appTransactionId", .identifier, "The app download's id (AppTransaction.appTransactionId).", introduced: api115),
        .init("revocationType", .enumeration(.revocationType), "Full or prorated refund, or family revocation.", introduced: beforeAPI121),
        .init("revocationPercentage", .integer, "Refunded share in thousandths of a percent.", introduced: beforeAPI121),
        .init("advancedCommerceInfo", .object(.advancedCommerce), "Advanced Commerce API details of the purchase.", introduced: api114),
        .init("billingPlanType", .enumeration(.billingPlanType), "How the subscription period is billed.", introduced: api121),
        .init("commitmentInfo", .object(.transactionCommitment), "The 12-month commitment a monthly-billed subscription is part of.", introduced: api121),
    ]

    public static let renewalInfo: [StoreKitFieldSpec] = common.filter { $0.name != "bundleId" } + [
        .init("originalTransactionId", .identifier, "The subscription's first transaction."),
        .init("productId", .string, "The product the current period is for."),
        .init("autoRenewProductId", .string, "The product that will renew next."),
        .init("autoRenewStatus", .enumeration(.autoRenewStatus), "Whether the subscription renews."),
        .init("expirationIntent", .enumeration(.expirationIntent), "Why the subscription expired."),
        .init("gracePeriodExpiresDate", .date, "When the billing grace period ends."),
        .init("isInBillingRetryPeriod", .bool, "Whether the App Store is still trying to bill."),
        .init("offerIdentifier", .string, "The offer that applies at renewal."),
        .init("offerType", .enumeration(.offerType), "The kind of offer that applies at renewal."),
        .init("offerDiscountType", .enumeration(.offerDiscountType), "How the renewal offer discounts."),
        .init("offerPeriod", .string, "The renewal offer's duration (ISO 8601 duration).", introduced: api115),
        .init("priceIncreaseStatus", .enumeration(.priceIncreaseStatus), "The customer's answer to a price increase."),
        .init("recentSubscriptionStartDate", .date, "Start of the latest run of uninterrupted paid periods."),
        .init("renewalDate", .date, "When the subscription renews next."),
        .init("renewalPrice", .price, "The renewal price in milliunits of the currency."),
        .init("currency", .string, "ISO 4217 currency code of the renewal price."),
        .init("eligibleWinBackOfferIds", .stringArray, "Win-back offers the customer can get."),
        .init("appAccountToken", .string, "The UUID the app set to link the customer account."),
        .init("appTransactionId", .identifier, "The app download's id.", introduced: api115),
        .init("renewalBillingPlanType", .enumeration(.renewalBillingPlanType), "How the next period will be billed.", introduced: api121),
        .init("commitmentInfo", .object(.renewalCommitment), "What happens when the 12-month commitment ends.", introduced: api121),
        .init("advancedCommerceInfo", .object(.advancedCommerceRenewal), "Advanced Commerce API details of the next renewal.", introduced: api114),
    ]

    public static let appTransaction: [StoreKitFieldSpec] = [
        .init("receiptType", .enumeration(.environment), "Where the app was bought (AppTransaction's name for environment)."),
        .init("bundleId", .string, "The app's bundle identifier."),
        .init("appAppleId", .integer, "The app's Apple ID (App Store id)."),
        .init("applicationVersion", .string, "The app version the AppTransaction was made for (CFBundleVersion)."),
        .init("originalApplicationVersion", .string, "The app version the customer first bought."),
        .init("versionExternalIdentifier", .integer, "The App Store's id of the app version."),
        .init("receiptCreationDate", .date, "When the App Store signed the AppTransaction."),
        .init("originalPurchaseDate", .date, "When the customer first got the app."),
        .init("requestDate", .date, "When the app asked for it."),
        .init("preorderDate", .date, "When the customer pre-ordered the app."),
        .init("deviceVerification", .string, "Base64 SHA-384 of the device id and the nonce."),
        .init("deviceVerificationNonce", .string, "The UUID mixed into deviceVerification."),
        .init("appTransactionId", .identifier, "A unique id of this app download for the Apple Account.", introduced: beforeAPI121),
        .init("originalPlatform", .string, "The platform the customer first bought the app on.", introduced: beforeAPI121),
        .init("signedDate", .date, "When the App Store signed this token."),
    ]

    public static let notification: [StoreKitFieldSpec] = [
        .init("notificationType", .enumeration(.notificationType), "What happened."),
        .init("subtype", .enumeration(.subtype), "Details of what happened."),
        .init("notificationUUID", .string, "Unique id of this notification (retries reuse it)."),
        .init("version", .string, "The notification format version (\"2.0\")."),
        .init("signedDate", .date, "When the App Store signed the notification."),
        .init("data", .object(.notificationData), "The app and its signed transaction and renewal info."),
        .init("summary", .object(.summary), "For a mass renewal extension: what it did."),
        .init("externalPurchaseToken", .object(.externalPurchaseToken), "For an external purchase notification.", introduced: notifications210),
        .init("appData", .object(.appData), "For a RESCIND_CONSENT notification: the app and its signed app transaction.", introduced: beforeNotifications221),
    ]

    static let notificationData: [StoreKitFieldSpec] = [
        .init("appAppleId", .integer, "The app's Apple ID (absent in Sandbox)."),
        .init("bundleId", .string, "The app's bundle identifier."),
        .init("bundleVersion", .string, "The app's build version."),
        .init("environment", .enumeration(.environment), "Production or Sandbox."),
        .init("signedTransactionInfo", .token(.transaction), "The transaction, signed on its own."),
        .init("signedRenewalInfo", .token(.renewalInfo), "The subscription renewal info, signed on its own."),
        .init("status", .enumeration(.status), "The subscription's status."),
        .init("consumptionRequestReason", .enumeration(.consumptionRequestReason), "Why a refund was requested."),
    ]

    static let summary: [StoreKitFieldSpec] = [
        .init("requestIdentifier", .string, "The renewal-extension request's id."),
        .init("environment", .enumeration(.environment), "Production or Sandbox."),
        .init("appAppleId", .integer, "The app's Apple ID."),
        .init("bundleId", .string, "The app's bundle identifier."),
        .init("productId", .string, "The product extended."),
        .init("storefrontCountryCodes", .stringArray, "The storefronts included."),
        .init("succeededCount", .integer, "Subscriptions extended."),
        .init("failedCount", .integer, "Subscriptions not extended."),
    ]

    static let externalPurchaseToken: [StoreKitFieldSpec] = [
        .init("externalPurchaseId", .string, "The external purchase's id."),
        .init("tokenCreationDate", .date, "When the token was created."),
        .init("appAppleId", .integer, "The app's Apple ID."),
        .init("bundleId", .string, "The app's bundle identifier."),
        .init("tokenType", .enumeration(.tokenType), "Whether the token is for acquiring a customer or for services.", introduced: notifications217),
    ]

    static let appData: [StoreKitFieldSpec] = [
        .init("appAppleId", .integer, "The app's Apple ID."),
        .init("bundleId", .string, "The app's bundle identifier."),
        .init("environment", .enumeration(.environment), "Production or Sandbox."),
        .init("signedAppTransactionInfo", .token(.appTransaction), "The app transaction, signed on its own."),
    ]

    /// All milliunit amounts here are in the transaction's `currency`.
    static let transactionCommitment: [StoreKitFieldSpec] = [
        .init("billingPeriodNumber", .integer, "Which billing period of the commitment this transaction pays for."),
        .init("totalBillingPeriods", .integer, "How many billing periods the commitment has."),
        .init("commitmentExpiresDate", .date, "When the commitment ends."),
        .init("commitmentPrice", .integer, "The commitment's total price, in milliunits of the transaction's currency."),
    ]

    static let renewalCommitment: [StoreKitFieldSpec] = [
        .init("commitmentAutoRenewProductId", .string, "The product the commitment renews to."),
        .init("commitmentAutoRenewStatus", .enumeration(.autoRenewStatus), "Whether the commitment renews."),
        .init("commitmentRenewalBillingPlanType", .enumeration(.renewalBillingPlanType), "How the renewed commitment is billed."),
        .init("commitmentRenewalDate", .date, "When the commitment renews."),
        .init("commitmentRenewalPrice", .integer, "The renewed commitment's price, in milliunits of the renewal currency."),
    ]

    static let advancedCommerce: [StoreKitFieldSpec] = [
        .init("requestReferenceId", .string, "The id of the app's Advanced Commerce request."),
        .init("descriptors", .object(.advancedCommerceDescriptors), "The display name and description the customer saw."),
        .init("items", .array, "The items bought (one object each)."),
        .init("period", .string, "The subscription period (ISO 8601 duration)."),
        .init("estimatedTax", .integer, "The estimated tax, in milliunits of the currency."),
        .init("taxCode", .string, "The tax code of the product."),
        .init("taxExclusivePrice", .integer, "The price before tax, in milliunits of the currency."),
        .init("taxRate", .string, "The tax rate applied."),
    ]

    static let advancedCommerceRenewal: [StoreKitFieldSpec] = [
        .init("consistencyToken", .string, "The token the app sends back to change this subscription."),
        .init("requestReferenceId", .string, "The id of the app's Advanced Commerce request."),
        .init("descriptors", .object(.advancedCommerceDescriptors), "The display name and description the customer sees."),
        .init("items", .array, "The items that renew (one object each)."),
        .init("period", .string, "The subscription period (ISO 8601 duration)."),
        .init("taxCode", .string, "The tax code of the product."),
    ]

    static let advancedCommerceDescriptors: [StoreKitFieldSpec] = [
        .init("displayName", .string, "The name the customer saw."),
        .init("description", .string, "The description the customer saw."),
    ]

    // Where Apple's documentation introduced a field; "before" where the introducing version was not
    // found (the schema was read at `documentationDate`).
    static let api114 = "App Store Server API 1.14"
    static let api115 = "App Store Server API 1.15"
    static let api121 = "App Store Server API 1.21 / Notifications 2.21"
    static let notifications210 = "App Store Server Notifications 2.10"
    static let notifications217 = "App Store Server Notifications 2.17"
    static let beforeAPI121 = "App Store Server API before 1.21"
    static let beforeNotifications221 = "App Store Server Notifications before 2.21"
}
