/// The JWS a developer's server signs with its In-App Purchase key (ES256, `kid`, no `x5c`) for
/// StoreKit or the App Store Server API, told apart by their claims (Apple's "Generating JWS to sign
/// App Store requests" and "Generating JSON Web Tokens for API requests").
public enum DeveloperTokenKind: String, Sendable, CaseIterable {
    case promotionalOffer
    case introductoryOfferEligibility
    case advancedCommerceRequest
    case serverAPIToken

    /// The `aud` Apple requires of this kind.
    public var audience: String {
        switch self {
        case .promotionalOffer: "promotional-offer"
        case .introductoryOfferEligibility: "introductory-offer-eligibility"
        case .advancedCommerceRequest: "advanced-commerce-api"
        case .serverAPIToken: "appstoreconnect-v1"
        }
    }

    public var label: String {
        switch self {
        case .promotionalOffer: "promotional offer signature (V2, developer-signed JWS)"
        case .introductoryOfferEligibility: "introductory offer eligibility (developer-signed JWS)"
        case .advancedCommerceRequest: "Advanced Commerce API in-app request (developer-signed JWS)"
        case .serverAPIToken: "App Store Server API bearer token (developer-signed JWT)"
        }
    }

    /// The label with its article: "a promotional offer signature …", "an App Store Server API bearer token …".
    public var phrase: String { (self == .promotionalOffer ? "a " : "an ") + label }

    /// Stable id for JSON outputs and `verify`'s subject.
    public var code: String {
        switch self {
        case .promotionalOffer: "promotional-offer"
        case .introductoryOfferEligibility: "introductory-offer-eligibility"
        case .advancedCommerceRequest: "advanced-commerce-request"
        case .serverAPIToken: "server-api-token"
        }
    }

    public var payloadKind: StoreKitPayloadKind {
        switch self {
        case .promotionalOffer: .promotionalOffer
        case .introductoryOfferEligibility: .introductoryOfferEligibility
        case .advancedCommerceRequest: .advancedCommerceRequest
        case .serverAPIToken: .serverAPIToken
        }
    }

    /// Whether the kind carries a `nonce` (the StoreKit ones; a bearer token has none).
    public var hasNonce: Bool { self != .serverAPIToken }
    /// Whether `exp` is required (a bearer token: Apple rejects one without it, or longer than 60 minutes).
    public var requiresExpiry: Bool { self == .serverAPIToken }

    /// The kind a payload is, from its claims: nil unless it carries the JWT claims Apple's own
    /// StoreKit payloads never have (`aud` and `iat`, with `bid` or `iss`). The feature claims decide
    /// first, so that a wrong `aud` is a finding on the kind it was meant for rather than another kind.
    static func of(has: (String) -> Bool, audience: String?) -> DeveloperTokenKind? {
        guard has("aud") || has("iat"), has("bid") || has("iss"), has("iat") || has("exp") else { return nil }
        if has("offerIdentifier") { return .promotionalOffer }
        if has("allowIntroductoryOffer") { return .introductoryOfferEligibility }
        if has("request") { return .advancedCommerceRequest }
        if let audience, let kind = allCases.first(where: { $0.audience == audience }) { return kind }
        if has("exp") && !has("nonce") { return .serverAPIToken }
        return nil
    }

    // MARK: schema

    static let issuedAt = StoreKitFieldSpec("iat", .secondsDate, "When the token was issued (seconds since 1970); it must not be in the future.")
    static let base: [StoreKitFieldSpec] = [
        .init("iss", .string, "Your issuer ID, from the Keys page in App Store Connect."),
        issuedAt,
        .init("aud", .string, "The audience: which App Store feature the token is for."),
        .init("bid", .string, "Your app's bundle ID."),
        .init("nonce", .string, "A one-time UUID, in lowercase, against replay."),
    ]

    public var fields: [StoreKitFieldSpec] {
        switch self {
        case .promotionalOffer: Self.base + [
            .init("productId", .string, "The subscription product the offer is for."),
            .init("offerIdentifier", .string, "The promotional offer's id from App Store Connect."),
            .init("transactionId", .identifier, "Any transaction of the customer (optional; the appTransactionId works too)."),
        ]
        case .introductoryOfferEligibility: Self.base + [
            .init("productId", .string, "The subscription product."),
            .init("allowIntroductoryOffer", .bool, "Whether the customer may get the introductory offer."),
            .init("transactionId", .identifier, "Any transaction of the customer (the appTransactionId works too)."),
        ]
        case .advancedCommerceRequest: Self.base + [
            .init("request", .string, "The Advanced Commerce API request: base64 of its UTF-8 JSON (decoded as a layer of its own)."),
        ]
        case .serverAPIToken: [
            .init("iss", .string, "Your issuer ID, from the Keys page in App Store Connect."),
            Self.issuedAt,
            .init("exp", .secondsDate, "When the token expires (seconds since 1970): at most 60 minutes after iat."),
            .init("aud", .string, "The audience: appstoreconnect-v1."),
            .init("bid", .string, "Your app's bundle ID."),
        ]
        }
    }

    var specsByName: [String: StoreKitFieldSpec] {
        switch self {
        case .promotionalOffer: Index.promotionalOffer
        case .introductoryOfferEligibility: Index.introductoryOfferEligibility
        case .advancedCommerceRequest: Index.advancedCommerceRequest
        case .serverAPIToken: Index.serverAPIToken
        }
    }

    enum Index {
        static let promotionalOffer = StoreKitSchema.Index.byName(DeveloperTokenKind.promotionalOffer.fields)
        static let introductoryOfferEligibility = StoreKitSchema.Index.byName(DeveloperTokenKind.introductoryOfferEligibility.fields)
        static let advancedCommerceRequest = StoreKitSchema.Index.byName(DeveloperTokenKind.advancedCommerceRequest.fields)
        static let serverAPIToken = StoreKitSchema.Index.byName(DeveloperTokenKind.serverAPIToken.fields)
    }

    /// The fields shown first (summary, `verify`'s heading).
    public var headline: [String] {
        switch self {
        case .promotionalOffer: ["aud", "productId", "offerIdentifier", "transactionId", "bid", "iss", "iat", "nonce"]
        case .introductoryOfferEligibility: ["aud", "productId", "allowIntroductoryOffer", "transactionId", "bid", "iss", "iat", "nonce"]
        case .advancedCommerceRequest: ["aud", "bid", "iss", "iat", "nonce"]
        case .serverAPIToken: ["aud", "bid", "iss", "iat", "exp"]
        }
    }
}
