import DocumentCore

/// What `redact` replaces: every value that names the customer, a purchase, a device or the app.
/// Each is found by its receipt attribute (ReceiptKit's schema) or its JSON keys, at any depth (a
/// payload, a notification's `data`, a history or statuses response body, a developer token's
/// claims, an external purchase token, and the JSON or form text around the data: a log object, a
/// HAR, a verifyReceipt body).
public enum RedactField: String, CaseIterable, Sendable, Comparable {
    case transactionID = "transaction-id"
    case originalTransactionID = "original-transaction-id"
    case webOrderLineItemID = "web-order-line-item-id"
    case appTransactionID = "app-transaction-id"
    case appAccountToken = "app-account-token"
    case opaqueValue = "opaque-value"
    case sha1Hash = "sha1-hash"
    case deviceVerification = "device-verification"
    case deviceVerificationNonce = "device-verification-nonce"
    case bundleID = "bundle-id"
    /// The app's App Store id: a token's `appAppleId`, a receipt's attribute 1 (`app_item_id`).
    case appAppleID = "app-apple-id"
    case notificationUUID = "notification-uuid"
    case externalPurchaseID = "external-purchase-id"
    /// A developer token's `iss`: the App Store Connect issuer id of the developer's team.
    case issuerID = "issuer-id"
    /// The verifyReceipt body's `password`: the app's shared secret.
    case password = "password"

    public static func < (a: RedactField, b: RedactField) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Where the value lives, for help texts and the docs.
    public var source: String {
        switch self {
        case .transactionID: "in-app 1703, transactionId"
        case .originalTransactionID: "in-app 1705, originalTransactionId"
        case .webOrderLineItemID: "in-app 1711, webOrderLineItemId"
        case .appTransactionID: "appTransactionId"
        case .appAccountToken: "appAccountToken"
        case .opaqueValue: "attribute 4"
        case .sha1Hash: "attribute 5"
        case .deviceVerification: "deviceVerification"
        case .deviceVerificationNonce: "deviceVerificationNonce"
        case .bundleID: "attribute 2, bundleId, bid"
        case .appAppleID: "attribute 1 app_item_id, appAppleId"
        case .notificationUUID: "notificationUUID"
        case .externalPurchaseID: "externalPurchaseId"
        case .issuerID: "a developer token's iss"
        case .password: "a verifyReceipt body's password"
        }
    }

    /// The receipt attribute holding it (in-app attributes inside purchases), from ReceiptKit's schema.
    package var receiptAttribute: (type: Int, inApp: Bool)? {
        switch self {
        case .transactionID: (1703, true)
        case .originalTransactionID: (1705, true)
        case .webOrderLineItemID: (1711, true)
        case .opaqueValue: (4, false)
        case .sha1Hash: (5, false)
        case .bundleID: (2, false)
        case .appAppleID: (1, false)
        default: nil
        }
    }

    /// The JSON keys holding it: StoreKit 2 and the developer tokens' claims, and the verifyReceipt
    /// names (ReceiptKit's schema `jsonKey`s) a HAR or a log may carry around the data.
    var jsonKeys: [String] {
        switch self {
        case .transactionID: ["transactionId", "transaction_id"]
        case .originalTransactionID: ["originalTransactionId", "original_transaction_id"]
        case .webOrderLineItemID: ["webOrderLineItemId", "web_order_line_item_id"]
        case .appTransactionID: ["appTransactionId"]
        case .appAccountToken: ["appAccountToken", "app_account_token"]
        case .deviceVerification: ["deviceVerification"]
        case .deviceVerificationNonce: ["deviceVerificationNonce"]
        case .bundleID: ["bundleId", "bid", "bundle_id"]
        case .appAppleID: ["appAppleId", "app_item_id"]
        case .notificationUUID: ["notificationUUID"]
        case .externalPurchaseID: ["externalPurchaseId"]
        case .issuerID: ["iss"]
        case .password: ["password"]
        case .opaqueValue, .sha1Hash: []
        }
    }

    /// A prefix that says what the value is, not whose it is, kept as it is: Apple marks a sandbox
    /// external purchase id with `SANDBOX_`, which the token's kind is read from.
    var keptPrefixes: [String] {
        self == .externalPurchaseID ? ["SANDBOX_"] : []
    }

    static let byJSONKey: [String: RedactField] = Dictionary(
        uniqueKeysWithValues: allCases.flatMap { field in field.jsonKeys.map { ($0, field) } })

    /// "transaction-id, original-transaction-id, …" for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What a run replaces and how its stand-ins are drawn.
public struct RedactOptions: Sendable {
    /// Fields left as they are (`--keep`).
    public var keep: Set<RedactField>
    /// The secret the stand-ins are drawn from.
    public var key: StandInKey
    /// Whether the run keeps where each value was (`RedactRun.occurrences`, what `--mapping` writes).
    /// Without it a file's targets go once its copy is made, before the copy is opened and checked
    /// (8 MB for a 50 MB receipt's 325,000 values; issue 32), and the run's table keeps the
    /// stand-ins alone once every value is known by its place in it.
    public var mapping: Bool

    public init(keep: Set<RedactField> = [], key: StandInKey, mapping: Bool = true) {
        self.keep = keep
        self.key = key
        self.mapping = mapping
    }

    /// The fields this run replaces: every one not kept.
    public var fields: Set<RedactField> { Set(RedactField.allCases).subtracting(keep) }
}
