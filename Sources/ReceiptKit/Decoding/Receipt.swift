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

/// One in-app purchase (attribute 17), decoded: its place and its fields in the receipt's field
/// table. The typed values are read from its first field of each type when asked for (a stored copy
/// of each, with its dates' texts, made a purchase 256 bytes: 5 MB for 20,000; issue 32).
public struct InAppPurchase: Sendable, Equatable {
    /// Every attribute of the purchase, in file order, unlisted ones included (built when read).
    /// First: the 32-bit values after it fill its tail (48 bytes a purchase, not 56).
    public internal(set) var fields = ReceiptFields()
    private var index32: Int32
    private var attributeNode32: Int32
    private var setNode32: Int32 = -1
    /// Position among the receipt's in-app purchases, in file order.
    public var index: Int {
        get { Int(index32) }
        set { index32 = Int32(newValue) }
    }
    /// The app-level attribute 17 SEQUENCE.
    public var attributeNode: Int {
        get { Int(attributeNode32) }
        set { attributeNode32 = Int32(newValue) }
    }
    /// The SET inside its OCTET STRING (nil if the value is not a SET).
    public var setNode: Int? {
        get { setNode32 >= 0 ? Int(setNode32) : nil }
        set { setNode32 = newValue.map(Int32.init) ?? -1 }
    }
    /// False when the purchase's bytes are cut short (truncated input, length past its parent).
    public var isComplete = true

    /// The first field of a type counts (a later one is a `receipt-duplicate` finding).
    private func integer(_ type: Int) -> Int64? {
        guard let r = fields.firstRecord(type), r.kind == .integer else { return nil }
        return fields.table.integer(r)
    }
    private func date(_ type: Int) -> ReceiptDate? {
        guard let r = fields.firstRecord(type) else { return nil }
        switch r.kind {
        case .date: return fields.table.date(r)
        case .side: return fields.table.side[fields.table.index(r)].date
        default: return nil
        }
    }

    public var quantity: Int64? { integer(1701) }
    public var purchaseDate: ReceiptDate? { date(1704) }
    public var originalPurchaseDate: ReceiptDate? { date(1706) }
    public var productType: Int64? { integer(1707) }
    public var expiresDate: ReceiptDate? { date(1708) }
    public var cancellationDate: ReceiptDate? { date(1712) }
    public var isTrialPeriod: Bool? { integer(1713).map { $0 != 0 } }
    public var isInIntroOfferPeriod: Bool? { integer(1719).map { $0 != 0 } }
    public var cancellationReason: Int64? { integer(1720) }

    // The string values are read from the field table when asked for: building them at open (two
    // ids per purchase longer than Swift's 15-byte inline strings) cost a heap string each.
    public var productID: String? { fields.string(1702) }
    public var transactionID: String? { fields.string(1703) }
    public var originalTransactionID: String? { fields.string(1705) }
    public var webOrderLineItemID: String? {
        guard let r = fields.firstRecord(1711) else { return nil }
        return fields.table.value(r).integerText
    }
    public var promotionalOfferID: String? { fields.string(1721) }

    public init(index: Int, attributeNode: Int, setNode: Int?) {
        index32 = Int32(index)
        attributeNode32 = Int32(attributeNode)
        self.setNode = setNode
    }

    public func field(_ type: Int) -> ReceiptField? {
        fields.first(type).map { fields.table.field(.inApp, $0.index) }
    }

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
    /// Every app-level attribute, in file order, unlisted ones and attribute 17 included (built when read).
    public var fields: ReceiptFields { ReceiptFields(table: table, level: .app, range: 0..<table.app.count) }
    public var inApp: [InAppPurchase] = []
    /// The bytes the node indices and value ranges refer to (`receiptTree.bytes`).
    public var bytes: [UInt8]
    /// False when the payload SET is cut short (truncated input): attributes may be missing.
    public var isComplete = true
    /// Every attribute, compact (see `ReceiptFieldTable`).
    var table = ReceiptFieldTable.empty

    public init(payloadNode: Int, bytes: [UInt8]) {
        self.payloadNode = payloadNode
        self.bytes = bytes
    }

    /// The first app-level attribute of a type: O(1) for types below 32 (every listed one).
    public func field(_ type: Int) -> ReceiptField? { first(type).map { table.field(.app, $0) } }

    /// The index of the first app-level record of a type.
    private func first(_ type: Int) -> Int? {
        if type >= 0 && type < table.firstByType.count {
            let i = table.firstByType[type]
            return i >= 0 ? Int(i) : nil
        }
        return fields.first(type)?.index
    }

    func firstRecord(_ type: Int) -> FieldRecord? { first(type).map { table.app[$0] } }

    /// Every app-level attribute of a type, in file order.
    public func fields(_ type: Int) -> [ReceiptField] {
        var out: [ReceiptField] = []
        for i in table.app.indices where table.typeNumber(table.app[i]) == type { out.append(table.field(.app, i)) }
        return out
    }

    /// The value bytes of a field (the OCTET STRING's content).
    public func raw(_ field: ReceiptField) -> [UInt8] { Array(bytes[field.valueRange]) }

    private func string(_ type: Int) -> String? {
        guard let r = firstRecord(type), r.kind == .string else { return nil }
        return table.string(r)
    }
    private func date(_ type: Int) -> ReceiptDate? { firstRecord(type).flatMap { table.value($0).date } }
    private func raw(_ type: Int) -> [UInt8]? { firstRecord(type).map { Array(bytes[table.parts($0).valueRange]) } }

    public var receiptType: String? { string(0) }
    public var appItemID: String? { firstRecord(1).flatMap { table.value($0).integerText } }
    public var bundleID: String? { string(2) }
    public var appVersion: String? { string(3) }
    public var opaqueValue: [UInt8]? { raw(4) }
    public var sha1Hash: [UInt8]? { raw(5) }
    /// Attribute 2's whole value (the UTF8String TLV), as the device hash uses it.
    public var bundleIDTLV: [UInt8]? { raw(2) }
    public var receiptDate: ReceiptDate? { date(8) }
    public var ageRating: String? { string(10) }
    public var creationDate: ReceiptDate? { date(12) }
    public var originalPurchaseDate: ReceiptDate? { date(18) }
    public var originalAppVersion: String? { string(19) }
    public var expirationDate: ReceiptDate? { date(21) }

    /// The environment the receipt type (attribute 0) names; nil when it is absent or unknown.
    public var environment: ReceiptEnvironment? { receiptType.flatMap(ReceiptEnvironment.init(receiptType:)) }

    /// Made by Xcode's StoreKit Testing (receipt type "Xcode").
    public var isXcode: Bool { receiptType == "Xcode" }

    /// How many attributes are outside the table (app level and in-app), without building them.
    public var unlistedCount: Int { table.unlistedCount }

    /// Attributes outside the table, app level and in-app, in file order.
    public var unlistedFields: [ReceiptField] {
        var out: [ReceiptField] = []
        forEachUnlistedField { out.append($0) }
        return out
    }

    /// `unlistedFields` one at a time, each built when visited: as a list, 20,000 purchases'
    /// 120,000 unlisted attributes took 23 MB in `json` (issue 32).
    public func forEachUnlistedField(_ body: (ReceiptField) -> Void) {
        for (i, r) in table.app.enumerated() {
            if !r.isListed { body(table.field(.app, i)) }
            if r.kind == .inAppPurchase, table.index(r) < inApp.count {
                let list = inApp[table.index(r)].fields
                for j in list.indices where !list.record(j).isListed { body(list[j]) }
            }
        }
    }

    /// Auto-renewable subscription purchases active at `date` (purchase ≤ date < expiry, not cancelled).
    public func activeSubscriptions(at date: ReceiptDate) -> [InAppPurchase] {
        inApp.filter { $0.isActive(at: date) }
    }
}
