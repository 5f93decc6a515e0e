/// What an attribute's value (the content of its OCTET STRING) is expected to hold.
public enum ExpectedValue: Sendable, Equatable {
    /// A UTF8String TLV.
    case utf8String
    /// An IA5String TLV.
    case ia5String
    /// An INTEGER TLV.
    case integer
    /// An INTEGER TLV used as a flag (0 / 1), shown as "true" / "false".
    case flag
    /// An IA5String TLV holding an RFC 3339 date; an empty string means "absent".
    case date
    /// Raw bytes, not ASN.1 (the opaque value).
    case bytes
    /// Raw bytes of a fixed length (the 20-byte SHA-1 hash).
    case fixedBytes(Int)
    /// A SET of in-app purchase attributes, the same shape as the payload.
    case inAppSet

    /// The universal tag byte the value's TLV must start with (nil for raw bytes).
    public var tagByte: UInt8? {
        switch self {
        case .utf8String: 0x0C
        case .ia5String, .date: 0x16
        case .integer, .flag: 0x02
        case .inAppSet: 0x31
        case .bytes, .fixedBytes: nil
        }
    }

    /// "a UTF8String", "an RFC 3339 date in an IA5String", … (for messages).
    public var description: String {
        switch self {
        case .utf8String: "a UTF8String"
        case .ia5String: "an IA5String"
        case .integer: "an INTEGER"
        case .flag: "an INTEGER flag (0 or 1)"
        case .date: "an IA5String (RFC 3339 date)"
        case .bytes: "raw bytes"
        case .fixedBytes(let n): "\(n) raw bytes"
        case .inAppSet: "a SET of in-app purchase attributes"
        }
    }
}

/// Where an attribute lives: the receipt payload itself or an in-app purchase SET.
public enum AttributeLevel: String, Sendable, Equatable {
    case app
    case inApp = "in-app"
}

/// One row of the attribute table.
public struct AttributeSpec: Sendable, Equatable {
    public var type: Int
    public var level: AttributeLevel
    /// Short name: "bundle id".
    public var name: String
    /// One sentence for the explanation pane.
    public var meaning: String
    public var expected: ExpectedValue
    /// The key in Apple's verifyReceipt JSON (nil when it has none, e.g. the opaque value).
    public var jsonKey: String?
    /// Missing from a receipt (or from an in-app purchase) is an error.
    public var required: Bool
    /// May appear more than once (only in-app purchases, attribute 17).
    public var repeatable: Bool

    /// "attribute 2" / "in-app 1704", the prefix every finding about this attribute uses.
    public var label: String { ReceiptSchema.label(type: type, level: level) }
}

/// Apple's receipt attribute table: names, meanings and the expected value types, checked against
/// the real receipts in `../shared/corpus` (types confirmed there: 0/2/3/19/1702/1703/1705/1721
/// UTF8String; 1/1701/1707/1711/1713/1719 INTEGER; 8/10/12/18/21 and the in-app dates IA5String;
/// 4/5 raw bytes). Everything not listed here is Apple-private: kept and shown as "unlisted type N",
/// never an error.
///
/// Required (missing → `receipt-attribute-missing`): what every receipt needs to be checked at all and
/// what Apple documents as always present — 2 bundle id and 3 version (app checks), 4 opaque value and
/// 5 hash (device binding), 12 creation date (the moment certificates are judged at). Not required:
/// 19, absent from every Xcode receipt; 0 and 1, which Apple does not document. In a purchase: 1702,
/// 1703 and 1704 (what identifies it); 1705/1706 are absent from Xcode purchases.
public enum ReceiptSchema {
    public static let app: [AttributeSpec] = [
        spec(0, .app, "receipt type", "The environment that issued the receipt: Production, ProductionSandbox, Xcode, …", .utf8String, "receipt_type"),
        spec(1, .app, "app item id", "The App Store's identifier of the app (0 in the sandbox and in Xcode).", .integer, "app_item_id"),
        spec(2, .app, "bundle id", "The app's bundle identifier (CFBundleIdentifier). Its whole UTF8String TLV is hashed into attribute 5.", .utf8String, "bundle_id", required: true),
        spec(3, .app, "app version", "The app's version (CFBundleVersion) when the receipt was created.", .utf8String, "application_version", required: true),
        spec(4, .app, "opaque value", "Opaque bytes, hashed with the device identifier and the bundle id into attribute 5 (attribute version 2 is normal).", .bytes, nil, required: true),
        spec(5, .app, "SHA-1 hash", "SHA-1(device identifier ‖ opaque value ‖ bundle id TLV): binds the receipt to one device.", .fixedBytes(20), nil, required: true),
        spec(8, .app, "receipt date", "A date Apple records with the receipt (the request or purchase date; may be empty).", .date, "request_date"),
        spec(10, .app, "age rating", "The app's age rating, e.g. \"4+\", \"17+\".", .ia5String, "age_rating"),
        spec(12, .app, "receipt creation date", "When the App Store created the receipt; certificates are judged at this date.", .date, "receipt_creation_date", required: true),
        spec(17, .app, "in-app purchase", "One in-app purchase: a SET of attributes of the same shape as the payload.", .inAppSet, "in_app", repeatable: true),
        spec(18, .app, "original purchase date", "When the app was first purchased.", .date, "original_purchase_date"),
        spec(19, .app, "original app version", "The version of the app that was originally purchased (\"1.0\" in the sandbox; absent in Xcode receipts).", .utf8String, "original_application_version"),
        spec(21, .app, "expiration date", "When the receipt expires (Volume Purchase Program; Xcode receipts use 4001-01-01).", .date, "expiration_date"),
    ]

    public static let inApp: [AttributeSpec] = [
        spec(1701, .inApp, "quantity", "Number of items purchased.", .integer, "quantity", required: false),
        spec(1702, .inApp, "product id", "The product identifier of the item.", .utf8String, "product_id", required: true),
        spec(1703, .inApp, "transaction id", "The transaction identifier.", .utf8String, "transaction_id", required: true),
        spec(1704, .inApp, "purchase date", "When the item was purchased (for a renewal: when it renewed).", .date, "purchase_date", required: true),
        spec(1705, .inApp, "original transaction id", "For a restored or renewed item, the first transaction's identifier.", .utf8String, "original_transaction_id"),
        spec(1706, .inApp, "original purchase date", "For a restored or renewed item, the first transaction's date.", .date, "original_purchase_date"),
        spec(1707, .inApp, "product type", "Apple-private product kind (3 for auto-renewable subscriptions in real receipts, 0 otherwise).", .integer, "product_type"),
        spec(1708, .inApp, "subscription expiration date", "When an auto-renewable subscription period ends (empty for other products).", .date, "expires_date"),
        spec(1711, .inApp, "web order line item id", "Identifies subscription purchase events across devices.", .integer, "web_order_line_item_id"),
        spec(1712, .inApp, "cancellation date", "When Apple customer support refunded the transaction (empty when not cancelled).", .date, "cancellation_date"),
        spec(1713, .inApp, "trial period", "1 when the subscription period is a free trial.", .flag, "is_trial_period"),
        spec(1719, .inApp, "introductory offer period", "1 when the subscription period is an introductory price period.", .flag, "is_in_intro_offer_period"),
        spec(1720, .inApp, "cancellation reason", "Why the transaction was refunded: 1 an issue in the app, 0 another reason.", .integer, "cancellation_reason"),
        spec(1721, .inApp, "promotional offer id", "The identifier of the subscription offer redeemed.", .utf8String, "promotional_offer_id"),
    ]

    // App types are 0...21 and in-app types 1701...1721: flat arrays indexed by type (- 1701) avoid
    // hashing in the hot loop. The decoder asks only for the small facts below (no `AttributeSpec` copy,
    // which would retain and release its three strings for every attribute).
    private static let appTable: [AttributeSpec?] = {
        var table = [AttributeSpec?](repeating: nil, count: 22)
        for s in app { table[s.type] = s }
        return table
    }()
    private static let inAppTable: [AttributeSpec?] = {
        var table = [AttributeSpec?](repeating: nil, count: 32)
        for s in inApp { table[s.type - 1701] = s }
        return table
    }()
    /// `expected` of each listed type, nil for unlisted ones (same indexing as the tables above).
    private static let appExpected: [ExpectedValue?] = appTable.map { $0?.expected }
    private static let inAppExpected: [ExpectedValue?] = inAppTable.map { $0?.expected }
    private static let appRequired: [AttributeSpec] = app.filter(\.required)
    private static let inAppRequired: [AttributeSpec] = inApp.filter(\.required)

    /// The table row for a type at a level, nil for unlisted (Apple-private) types.
    @inline(__always)
    public static func spec(type: Int, level: AttributeLevel) -> AttributeSpec? {
        switch level {
        case .app:
            return type >= 0 && type < appTable.count ? appTable[type] : nil
        case .inApp:
            let i = type &- 1701  // wraps for types near Int.min (a crafted 8-octet INTEGER) instead of trapping
            return i >= 0 && i < inAppTable.count ? inAppTable[i] : nil
        }
    }

    /// What a listed type's value should hold, nil for unlisted types (`spec(type:level:)?.expected`
    /// without copying the row).
    @inline(__always)
    static func expected(type: Int, level: AttributeLevel) -> ExpectedValue? {
        switch level {
        case .app:
            return type >= 0 && type < appExpected.count ? appExpected[type] : nil
        case .inApp:
            let i = type &- 1701  // wraps for types near Int.min (a crafted 8-octet INTEGER) instead of trapping
            return i >= 0 && i < inAppExpected.count ? inAppExpected[i] : nil
        }
    }

    /// Whether a type is in the table (`spec(type:level:) != nil` without copying the row).
    @inline(__always)
    static func isListed(type: Int, level: AttributeLevel) -> Bool {
        expected(type: type, level: level) != nil
    }

    /// "attribute 2" at the app level, "in-app 1704" inside a purchase.
    public static func label(type: Int, level: AttributeLevel) -> String {
        level == .app ? "attribute \(type)" : "in-app \(type)"
    }

    /// "bundle id (attribute 2)" or "unlisted type 13".
    public static func displayName(type: Int, level: AttributeLevel) -> String {
        switch level {
        case .app where type >= 0 && type < appNames.count: if let name = appNames[type] { return name }
        case .inApp where type &- 1701 >= 0 && type &- 1701 < inAppNames.count: if let name = inAppNames[type &- 1701] { return name }
        default: break
        }
        return "unlisted type \(type)"
    }
    // Made once: a name made per field was a heap string each (20,000 purchases' 80,000 redacted
    // values' places held 11 MB of them; issue 32).
    private static let appNames: [String?] = appTable.map { $0.map { "\($0.name) (\($0.label))" } }
    private static let inAppNames: [String?] = inAppTable.map { $0.map { "\($0.name) (\($0.label))" } }

    public static func required(at level: AttributeLevel) -> [AttributeSpec] {
        level == .app ? appRequired : inAppRequired
    }

    private static func spec(_ type: Int, _ level: AttributeLevel, _ name: String, _ meaning: String,
                             _ expected: ExpectedValue, _ jsonKey: String?, required: Bool = false,
                             repeatable: Bool = false) -> AttributeSpec {
        AttributeSpec(type: type, level: level, name: name, meaning: meaning, expected: expected,
                      jsonKey: jsonKey, required: required, repeatable: repeatable)
    }
}
