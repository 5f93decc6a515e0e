import ASN1Lenient
import JWSKit
import ByteText

/// What an opened input turned out to be: one id per kind (`id`), the kinds' words come from the
/// format that declares them (`FormatRegistry`). A new kind is a case here plus its format folder.
public enum DocumentKind: Sendable, Equatable {
    /// A PKCS#7 SignedData whose content is a receipt payload, signed by anything but Xcode.
    case receipt
    /// A receipt signed by Xcode's "StoreKit Testing in Xcode" certificate: local testing only.
    case xcodeTestingReceipt
    /// A PKCS#7 SignedData that is not a receipt (no payload, or a payload that is not a SET).
    case signedData
    /// An X.509 certificate (SEQUENCE { tbsCertificate, signatureAlgorithm, BIT STRING }).
    case certificate
    /// Any other ASN.1.
    case asn1
    /// Text with no data in it (prose, HTML, JSON without purchase data): never read as ASN.1.
    case text

    // StoreKit 2 (JWS). A token's details (alg, certificates, nested tokens) are in `Document.jws`.
    /// JWSTransactionDecodedPayload.
    case transaction
    /// JWSRenewalInfoDecodedPayload.
    case renewalInfo
    /// AppTransaction.
    case appTransaction
    /// An App Store Server Notification V2 (`signedPayload`, alone or in its JSON body).
    case notification(type: String?, subtype: String?)
    /// A compact JWS whose payload is none of the above.
    case unknownToken
    /// An App Store Server API transaction history response: `signedTransactions`.
    case transactionHistory(transactions: Int)
    /// An App Store Server API subscription statuses response: `data[].lastTransactions[]`.
    case subscriptionStatuses(tokens: Int)
    /// Any other JSON carrying StoreKit tokens.
    case storeKitJSON(tokens: Int)
    /// An iOS 6 style transaction receipt (SKPaymentTransaction.transactionReceipt): not readable.
    case legacyTransactionReceipt
    /// A JWS the developer's server signed with its In-App Purchase key (`kid`, no `x5c`).
    case developerToken(DeveloperTokenKind)
    /// An external purchase token: base64url JSON, unsigned. `sandbox` when its id starts `SANDBOX_`.
    case externalPurchaseToken(sandbox: Bool)
    /// An App Store Server API response named by its shape (`Formats/ServerAPIResponse`).
    case serverAPIResponse(ServerAPIResponseName, tokens: Int)
    /// A Retention Messaging real-time request or reply (`Formats/RetentionMessaging`).
    case retentionMessaging(RetentionDocument)
    /// A legacy promotional offer signature (V1) with its fields (`Formats/OfferSignatureV1`).
    case offerSignatureV1

    /// "a PKCS#7 App Store receipt", "an X.509 certificate", … (from the kind's format).
    /// Terminal-safe: a kind can carry text from the input (a notification's type and subtype), so
    /// every description is escaped here, once, whichever format wrote it.
    public var summary: String { TerminalSafe.escape(FormatRegistry.describe(self).summary) }

    /// "Receipt", "StoreKit 2 transaction", … (the explorer's pane titles).
    public var title: String { TerminalSafe.escape(FormatRegistry.describe(self).title) }

    /// The kind's one stable id, kebab-case, used by every output that names it (`json`'s and
    /// `verify`'s `kind`, batch lines, docs/verify-schema.json).
    public var id: String {
        switch self {
        case .receipt: "receipt"
        case .xcodeTestingReceipt: "xcode-testing-receipt"
        case .signedData: "signed-data"
        case .certificate: "certificate"
        case .asn1: "asn1"
        case .text: "text"
        case .transaction: "transaction"
        case .renewalInfo: "renewal-info"
        case .appTransaction: "app-transaction"
        case .notification: "notification"
        case .unknownToken: "unknown-token"
        case .transactionHistory: "transaction-history"
        case .subscriptionStatuses: "subscription-statuses"
        case .storeKitJSON: "storekit-json"
        case .legacyTransactionReceipt: "legacy-transaction-receipt"
        case .developerToken(let kind): kind.code
        case .externalPurchaseToken: "external-purchase-token"
        case .serverAPIResponse(let name, _): name.rawValue
        case .retentionMessaging(let document): document.rawValue
        case .offerSignatureV1: "offer-signature-v1"
        }
    }
}

/// The App Store Server API responses that carry signed tokens and are named by their shape
/// (Apple's models in app-store-server-library 3.1; availability from Apple's documentation). The
/// transaction history and subscription statuses keep their own kinds (`StoreKitJSONFormat`).
public enum ServerAPIResponseName: String, Sendable, Equatable, CaseIterable {
    /// RefundHistoryResponse (Get Refund History): `signedTransactions`, `revision`, `hasMore`.
    case refundHistory = "refund-history"
    /// OrderLookupResponse (Look Up Order ID): `status`, `signedTransactions`.
    case orderLookup = "order-lookup"
    /// NotificationHistoryResponse (Get Notification History): `notificationHistory[]`, paging.
    case notificationHistory = "notification-history"
    /// AppTransactionInfoResponse (Get App Transaction Info): `signedAppTransactionInfo`.
    case appTransactionInfo = "app-transaction-response"
    /// An Advanced Commerce API response (cancel, revoke, migrate, change metadata, price change):
    /// `signedTransactionInfo` and `signedRenewalInfo`.
    case advancedCommerce = "advanced-commerce-response"
    /// CheckTestNotificationResponse (Get Test Notification Status): `signedPayload`, `sendAttempts`.
    case testNotificationStatus = "test-notification-status"
}

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
}
