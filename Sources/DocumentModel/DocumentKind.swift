import JWSKit

/// What an opened input turned out to be, for the one-line "what is this" note.
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

    /// Both kinds of receipt.
    public var isReceipt: Bool { self == .receipt || self == .xcodeTestingReceipt }

    /// Read from StoreKit 2 JWS (a token or a JSON body of tokens).
    public var isStoreKit2: Bool {
        switch self {
        case .transaction, .renewalInfo, .appTransaction, .notification, .unknownToken, .transactionHistory,
             .subscriptionStatuses, .storeKitJSON, .developerToken: true
        default: false
        }
    }

    /// "a PKCS#7 App Store receipt", "an X.509 certificate", …
    public var summary: String {
        switch self {
        case .receipt: "a PKCS#7 App Store receipt"
        case .xcodeTestingReceipt: "a PKCS#7 receipt signed by Xcode StoreKit Testing (local testing only)"
        case .signedData: "a PKCS#7 SignedData that is not a receipt"
        case .certificate: "an X.509 certificate"
        case .asn1: "other ASN.1 (not a receipt or a certificate)"
        case .text: "text without purchase data"
        case .transaction: "a StoreKit 2 transaction"
        case .renewalInfo: "a StoreKit 2 renewal info"
        case .appTransaction: "a StoreKit 2 app transaction"
        case .notification(let type, let subtype):
            "an App Store Server Notification V2: \(type ?? "(no notificationType)") (\(subtype ?? "no subtype"))"
        case .unknownToken: "a JWS whose payload is no StoreKit 2 type"
        case .transactionHistory(let n): "a transaction history response: \(n) transaction\(n == 1 ? "" : "s")"
        case .subscriptionStatuses(let n): "a subscription statuses response: \(n) signed token\(n == 1 ? "" : "s")"
        case .storeKitJSON(let n): "JSON carrying \(n) StoreKit 2 token\(n == 1 ? "" : "s")"
        case .developerToken(let kind): kind.phrase
        case .externalPurchaseToken(let sandbox):
            "an external purchase token (base64url JSON, unsigned\(sandbox ? "; sandbox: its id starts SANDBOX_" : ""))"
        case .legacyTransactionReceipt:
            "an iOS 6 style transaction receipt (SKPaymentTransaction.transactionReceipt, deprecated since iOS 7): "
                + "not readable here; use the app receipt, or StoreKit 2's Transaction.jwsRepresentation / the App Store Server API"
        }
    }
}
