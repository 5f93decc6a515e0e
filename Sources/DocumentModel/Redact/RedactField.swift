/// What `redact` replaces: the values that identify a customer, a purchase or a device. Each is
/// found by its receipt attribute (ReceiptKit's schema) or its StoreKit 2 JSON key, at any depth
/// (a payload, a notification's `data`, a history or statuses response body).
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
    /// Only with `RedactOptions.bundleID` (an app's bundle id is usually public, and the copy is
    /// easier to read with it).
    case bundleID = "bundle-id"

    public static func < (a: RedactField, b: RedactField) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// Where the value lives, for help texts and the README.
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
        case .bundleID: "attribute 2, bundleId"
        }
    }

    /// The receipt attribute holding it (in-app attributes inside purchases), from ReceiptKit's schema.
    var receiptAttribute: (type: Int, inApp: Bool)? {
        switch self {
        case .transactionID: (1703, true)
        case .originalTransactionID: (1705, true)
        case .webOrderLineItemID: (1711, true)
        case .opaqueValue: (4, false)
        case .sha1Hash: (5, false)
        case .bundleID: (2, false)
        default: nil
        }
    }

    /// The StoreKit 2 JSON key holding it.
    var jsonKey: String? {
        switch self {
        case .transactionID: "transactionId"
        case .originalTransactionID: "originalTransactionId"
        case .webOrderLineItemID: "webOrderLineItemId"
        case .appTransactionID: "appTransactionId"
        case .appAccountToken: "appAccountToken"
        case .deviceVerification: "deviceVerification"
        case .deviceVerificationNonce: "deviceVerificationNonce"
        case .bundleID: "bundleId"
        case .opaqueValue, .sha1Hash: nil
        }
    }

    static let byJSONKey: [String: RedactField] = Dictionary(
        uniqueKeysWithValues: allCases.compactMap { field in field.jsonKey.map { ($0, field) } })

    /// "transaction-id, original-transaction-id, …" for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// What a run replaces and how its stand-ins are drawn.
public struct RedactOptions: Sendable {
    /// Fields left as they are (`--keep`).
    public var keep: Set<RedactField>
    /// Also replace the bundle id (`--bundle-id`).
    public var bundleID: Bool
    /// The secret the stand-ins are drawn from.
    public var key: StandInKey

    public init(keep: Set<RedactField> = [], bundleID: Bool = false, key: StandInKey) {
        self.keep = keep
        self.bundleID = bundleID
        self.key = key
    }

    /// The fields this run replaces.
    public var fields: Set<RedactField> {
        var fields = Set(RedactField.allCases).subtracting(keep)
        if !bundleID { fields.remove(.bundleID) }
        return fields
    }
}
