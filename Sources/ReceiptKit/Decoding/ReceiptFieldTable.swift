/// One decoded attribute, compact: what the decoder learned, without building a `String` or a
/// `FieldValue`. A 10,000-purchase receipt holds 190,000 of these; `ReceiptField` (≈ 150 bytes, with
/// heap strings for ids longer than 15 bytes) is built from one only when a consumer reads it.
struct FieldRecord: Sendable {
    /// How `value` is held.
    enum Kind: UInt8, Sendable {
        /// `.bytes` (the value range says where).
        case bytes
        /// `.string`: the text's UTF-8 is `bytes[scalar's two halves]` (start in the low 32 bits).
        case string
        /// `.integer(scalar)`.
        case integer
        /// `.date` in UTC written canonically (`YYYY-MM-DDThh:mm:ssZ`): `scalar` epoch milliseconds.
        case date
        case absentDate
        /// `.inAppPurchase(scalar)`.
        case inAppPurchase
        /// Anything else (a big integer, an invalid value, a date written another way): `side[scalar]`.
        case side
    }

    /// Any value the decoder accepts (an `Int`), not narrowed: an odd type number is shown as written.
    var type: Int
    var kind: Kind
    var inAppLevel: Bool
    var isListed: Bool
    var hasVersion: Bool
    var attributeNode: Int32
    var typeNode: Int32
    var versionNode: Int32
    var valueNode: Int32
    /// -1: none.
    var innerNode: Int32
    var valueStart: UInt32
    var valueEnd: UInt32
    /// The purchase the record belongs to (-1 at the app level).
    var inApp: Int32
    /// Position in its list (`Receipt.fields` or its purchase's `fields`).
    var position: Int32
    var version: Int64
    var scalar: Int64

    @inline(__always) static func optional(_ node: Int32) -> Int? { node >= 0 ? Int(node) : nil }

    var level: AttributeLevel { inAppLevel ? .inApp : .app }
    var valueRange: Range<Int> { Int(valueStart)..<Int(valueEnd) }
    var stringRange: Range<Int> {
        Int(UInt32(truncatingIfNeeded: scalar))..<Int(UInt32(truncatingIfNeeded: UInt64(bitPattern: scalar) >> 32))
    }

    static func packed(_ range: Range<Int>) -> Int64 {
        Int64(bitPattern: UInt64(UInt32(range.lowerBound)) | UInt64(UInt32(range.upperBound)) << 32)
    }
}

/// Every attribute of one receipt, in two flat tables (app level in file order; in-app purchases
/// one after another, each in file order), with the values materialised from the bytes on access.
/// Immutable once the decoder has built it; shared by `Receipt`, its purchases and the links.
final class ReceiptFieldTable: Sendable {
    let bytes: [UInt8]
    let app: [FieldRecord]
    let inApp: [FieldRecord]
    /// Values that do not fit a record (rare: invalid values, big integers, dates with an offset).
    let side: [FieldValue]
    /// First app-level record of each type below `firstByType.count` (-1: none); other types scan.
    let firstByType: [Int32]
    /// Records whose type is outside the schema, both lists (counted by the decoder as it appends:
    /// a pass over 190,000 records to count them cost ≈ 1 ms per open).
    let unlistedCount: Int

    static let empty = ReceiptFieldTable(bytes: [], app: [], inApp: [], side: [], unlistedCount: 0)

    init(bytes: [UInt8], app: [FieldRecord], inApp: [FieldRecord], side: [FieldValue], unlistedCount: Int) {
        self.bytes = bytes
        self.unlistedCount = unlistedCount
        self.app = app
        self.inApp = inApp
        self.side = side
        var first = [Int32](repeating: -1, count: 32)
        for i in app.indices.reversed() where app[i].type >= 0 && app[i].type < 32 { first[app[i].type] = Int32(i) }
        firstByType = first
    }

    @inline(__always)
    func records(_ level: AttributeLevel) -> [FieldRecord] { level == .app ? app : inApp }

    func value(_ r: FieldRecord) -> FieldValue {
        switch r.kind {
        case .bytes: return .bytes
        case .string: return .string(string(r))
        case .integer: return .integer(r.scalar)
        case .date: return .date(ReceiptDate(epochMilliseconds: r.scalar))
        case .absentDate: return .absentDate
        case .inAppPurchase: return .inAppPurchase(Int(r.scalar))
        case .side: return side[Int(r.scalar)]
        }
    }

    /// The text of a `.string` record (callers check the kind: any other record has no string range).
    func string(_ r: FieldRecord) -> String {
        let range = r.stringRange
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    func field(_ r: FieldRecord) -> ReceiptField {
        ReceiptField(type: r.type, level: r.level, version: r.hasVersion ? r.version : nil,
                     attributeNode: Int(r.attributeNode), typeNode: FieldRecord.optional(r.typeNode),
                     versionNode: FieldRecord.optional(r.versionNode), valueNode: FieldRecord.optional(r.valueNode),
                     innerNode: FieldRecord.optional(r.innerNode), valueRange: r.valueRange, value: value(r),
                     inAppIndex: r.inAppLevel ? Int(r.inApp) : nil, isListed: r.isListed)
    }
}

/// The attributes of the receipt or of one purchase: a view over the receipt's field table whose
/// elements are built when read (`ReceiptField`s are not stored).
public struct ReceiptFields: RandomAccessCollection, Sendable, Equatable {
    let table: ReceiptFieldTable
    let level: AttributeLevel
    let range: Range<Int>

    init(table: ReceiptFieldTable, level: AttributeLevel, range: Range<Int>) {
        self.table = table
        self.level = level
        self.range = range
    }

    public init() { self.init(table: .empty, level: .app, range: 0..<0) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }
    public subscript(position: Int) -> ReceiptField { table.field(record(position)) }

    @inline(__always)
    func record(_ position: Int) -> FieldRecord {
        precondition(position >= 0 && position < range.count, "field index out of range")
        return level == .app ? table.app[range.lowerBound + position] : table.inApp[range.lowerBound + position]
    }

    /// The first field of a type, its record only.
    func firstRecord(_ type: Int) -> FieldRecord? {
        let records = table.records(level)
        for i in range where records[i].type == type { return records[i] }
        return nil
    }

    /// The text of the first field of a type when it is a string (nil otherwise), built from its bytes.
    func string(_ type: Int) -> String? {
        guard let r = firstRecord(type), r.kind == .string else { return nil }
        return table.string(r)
    }

    /// How many fields are outside the schema, without building them.
    public var unlistedCount: Int {
        let records = table.records(level)
        var n = 0
        for i in range where !records[i].isListed { n += 1 }
        return n
    }

    public static func == (a: ReceiptFields, b: ReceiptFields) -> Bool { a.elementsEqual(b) }
}
