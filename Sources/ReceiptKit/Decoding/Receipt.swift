import ASN1Lenient

/// A decoded attribute value.
public enum FieldValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    /// An INTEGER too large for 64 bits, in decimal.
    case bigInteger(String)
    case date(ReceiptDate)
    /// An empty date string: the receipt says the date does not apply.
    case absentDate
    /// Raw bytes (opaque value, hash, unlisted attributes): see `ReceiptField.valueRange`.
    case bytes
    /// Attribute 17: index into `Receipt.inApp`.
    case inAppPurchase(Int)
    /// The value could not be decoded as its expected type; the reason (a finding says more).
    case invalid(String)

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var integer: Int64? { if case .integer(let v) = self { return v }; return nil }
    public var date: ReceiptDate? { if case .date(let d) = self { return d }; return nil }

    /// Decimal text of an integer value (any size).
    public var integerText: String? {
        switch self {
        case .integer(let v): return String(v)
        case .bigInteger(let s): return s
        default: return nil
        }
    }
}

/// One attribute `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`, decoded, with
/// the nodes it came from (indices into `ReceiptAnalysis.receiptTree`).
public struct ReceiptField: Sendable, Equatable {
    public var type: Int
    public var level: AttributeLevel
    /// The attribute version (1 for nearly everything; 2 for the opaque value).
    public var version: Int64?
    /// The attribute SEQUENCE.
    public var attributeNode: Int
    public var typeNode: Int?
    public var versionNode: Int?
    /// The OCTET STRING holding the value.
    public var valueNode: Int?
    /// The value's own TLV inside the OCTET STRING (UTF8String, INTEGER, SET …), when it parses.
    public var innerNode: Int?
    /// The OCTET STRING's content bytes (the value as hashed/shown), in `receiptTree.bytes`.
    public var valueRange: Range<Int>
    public var value: FieldValue
    /// The in-app purchase this field belongs to (nil at the app level).
    public var inAppIndex: Int?

    public init(type: Int, level: AttributeLevel, version: Int64?, attributeNode: Int, typeNode: Int?,
                versionNode: Int?, valueNode: Int?, innerNode: Int?, valueRange: Range<Int>, value: FieldValue,
                inAppIndex: Int?) {
        self.init(type: type, level: level, version: version, attributeNode: attributeNode, typeNode: typeNode,
                  versionNode: versionNode, valueNode: valueNode, innerNode: innerNode, valueRange: valueRange,
                  value: value, inAppIndex: inAppIndex, isListed: ReceiptSchema.isListed(type: type, level: level))
    }

    /// The decoder's: it has looked the type up already.
    init(type: Int, level: AttributeLevel, version: Int64?, attributeNode: Int, typeNode: Int?, versionNode: Int?,
         valueNode: Int?, innerNode: Int?, valueRange: Range<Int>, value: FieldValue, inAppIndex: Int?, isListed: Bool) {
        self.type = type
        self.level = level
        self.version = version
        self.attributeNode = attributeNode
        self.typeNode = typeNode
        self.versionNode = versionNode
        self.valueNode = valueNode
        self.innerNode = innerNode
        self.valueRange = valueRange
        self.value = value
        self.inAppIndex = inAppIndex
        self.isListed = isListed
    }

    /// False for an attribute outside the table (Apple-private): kept, shown, never an error.
    public var isListed: Bool

    public var spec: AttributeSpec? { isListed ? ReceiptSchema.spec(type: type, level: level) : nil }
    public var isUnlisted: Bool { !isListed }
    /// "bundle id (attribute 2)", "unlisted type 13".
    public var displayName: String { ReceiptSchema.displayName(type: type, level: level) }
    /// The node a UI should select for this field: the inner value, else the OCTET STRING, else the attribute.
    public var primaryNode: Int { innerNode ?? valueNode ?? attributeNode }
}

/// One in-app purchase (attribute 17), decoded.
public struct InAppPurchase: Sendable, Equatable {
    /// Position among the receipt's in-app purchases, in file order.
    public var index: Int
    /// The app-level attribute 17 SEQUENCE.
    public var attributeNode: Int
    /// The SET inside its OCTET STRING (nil if the value is not a SET).
    public var setNode: Int?
    /// Every attribute of the purchase, in file order, unlisted ones included.
    public var fields: [ReceiptField] = []
    /// False when the purchase's bytes are cut short (truncated input, length past its parent).
    public var isComplete = true

    public var quantity: Int64?
    public var productID: String?
    public var transactionID: String?
    public var purchaseDate: ReceiptDate?
    public var originalTransactionID: String?
    public var originalPurchaseDate: ReceiptDate?
    public var productType: Int64?
    public var expiresDate: ReceiptDate?
    public var webOrderLineItemID: String?
    public var cancellationDate: ReceiptDate?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    public var cancellationReason: Int64?
    public var promotionalOfferID: String?

    public init(index: Int, attributeNode: Int, setNode: Int?) {
        self.index = index
        self.attributeNode = attributeNode
        self.setNode = setNode
    }

    public func field(_ type: Int) -> ReceiptField? { fields.first { $0.type == type } }

    /// An auto-renewable subscription: product type 3 (as in real receipts) or a subscription
    /// expiration date (1708) present.
    public var isAutoRenewable: Bool { productType == 3 || expiresDate != nil }

    /// purchase ≤ date < expiry, and not cancelled.
    public func isActive(at date: ReceiptDate) -> Bool {
        guard isAutoRenewable, cancellationDate == nil, let start = purchaseDate, let end = expiresDate else {
            return false
        }
        return start <= date && date < end
    }
}

/// The decoded receipt payload.
public struct Receipt: Sendable {
    /// The payload SET (an index into `ReceiptAnalysis.receiptTree`).
    public var payloadNode: Int
    /// Every app-level attribute, in file order, unlisted ones and attribute 17 included.
    public var fields: [ReceiptField] = []
    public var inApp: [InAppPurchase] = []
    /// The bytes the node indices and value ranges refer to (`receiptTree.bytes`).
    public var bytes: [UInt8]
    /// False when the payload SET is cut short (truncated input): attributes may be missing.
    public var isComplete = true

    public init(payloadNode: Int, bytes: [UInt8]) {
        self.payloadNode = payloadNode
        self.bytes = bytes
    }

    /// The first app-level attribute of a type.
    public func field(_ type: Int) -> ReceiptField? { fields.first { $0.type == type } }
    public func fields(_ type: Int) -> [ReceiptField] { fields.filter { $0.type == type } }

    /// The value bytes of a field (the OCTET STRING's content).
    public func raw(_ field: ReceiptField) -> [UInt8] { Array(bytes[field.valueRange]) }

    public var receiptType: String? { field(0)?.value.string }
    public var appItemID: String? { field(1)?.value.integerText }
    public var bundleID: String? { field(2)?.value.string }
    public var appVersion: String? { field(3)?.value.string }
    public var opaqueValue: [UInt8]? { field(4).map(raw) }
    public var sha1Hash: [UInt8]? { field(5).map(raw) }
    /// Attribute 2's whole value (the UTF8String TLV), as the device hash uses it.
    public var bundleIDTLV: [UInt8]? { field(2).map(raw) }
    public var receiptDate: ReceiptDate? { field(8)?.value.date }
    public var ageRating: String? { field(10)?.value.string }
    public var creationDate: ReceiptDate? { field(12)?.value.date }
    public var originalPurchaseDate: ReceiptDate? { field(18)?.value.date }
    public var originalAppVersion: String? { field(19)?.value.string }
    public var expirationDate: ReceiptDate? { field(21)?.value.date }

    /// Made by Xcode's StoreKit Testing (receipt type "Xcode").
    public var isXcode: Bool { receiptType == "Xcode" }

    /// How many attributes are outside the table (app level and in-app), without copying them.
    public var unlistedCount: Int {
        fields.reduce(0) { $0 + ($1.isUnlisted ? 1 : 0) }
            + inApp.reduce(0) { n, p in n + p.fields.reduce(0) { $0 + ($1.isUnlisted ? 1 : 0) } }
    }

    /// Attributes outside the table, app level and in-app, in file order.
    public var unlistedFields: [ReceiptField] {
        var out: [ReceiptField] = []
        for f in fields {
            if f.isUnlisted { out.append(f) }
            if case .inAppPurchase(let i) = f.value, i < inApp.count {
                out += inApp[i].fields.filter(\.isUnlisted)
            }
        }
        return out
    }

    /// Auto-renewable subscription purchases active at `date` (purchase ≤ date < expiry, not cancelled).
    public func activeSubscriptions(at date: ReceiptDate) -> [InAppPurchase] {
        inApp.filter { $0.isActive(at: date) }
    }
}
