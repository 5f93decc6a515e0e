import ASN1Lenient

/// One decoded attribute, compact: what the decoder learned that the tree does not say again,
/// without building a `String` or a `FieldValue`. 8 bytes: a 20,000-purchase receipt holds 360,000
/// of these (64 bytes each, 23 MB, when they kept every node index, the value range, the purchase
/// and the position; 16 bytes while they kept the value's scalar; issue 32). The attribute's other
/// nodes, its version and value range are read from the tree when a field is built
/// (`ReceiptFieldTable.parts`), the purchase and the position from the record's place in its list,
/// and a string's range, an integer or an instant from the value's bytes
/// (`ReceiptFieldTable.content`, the decoder's own reading). `ReceiptField` (≈ 150 bytes, with heap
/// strings for ids longer than 15 bytes) is built from one only when a consumer reads it.
struct FieldRecord: Sendable {
    /// How `value` is held.
    enum Kind: UInt8, Sendable {
        /// `.bytes` (the value range says where).
        case bytes
        /// `.string`: the text's UTF-8 is the inner TLV's content.
        case string
        /// `.integer`: the inner INTEGER's 1 to 8 octets.
        case integer
        /// `.date` in UTC written canonically (`YYYY-MM-DDThh:mm:ssZ`): read from the inner string.
        case date
        case absentDate
        /// `.inAppPurchase(word)`.
        case inAppPurchase
        /// Anything else (a big integer, an invalid value, a date written another way): `side[word]`.
        case side
    }

    /// The attribute SEQUENCE (a node of the receipt's tree); for `.inAppPurchase` the purchase's
    /// index and for `.side` the side value's, whose attribute nodes the table lists
    /// (`ReceiptFieldTable.attributeNode`).
    var word: Int32
    /// The type when it is 0...65534 (every listed one); `wideType`: read from the type INTEGER
    /// (`ReceiptFieldTable.typeNumber`), so an odd type number is still shown as written.
    var shortType: UInt16
    var kind: Kind
    private var flags: UInt8

    static let wideType = UInt16.max

    init(type: Int, kind: Kind, inAppLevel: Bool, isListed: Bool, word: Int) {
        self.word = Int32(word)
        shortType = type >= 0 && type < Int(Self.wideType) ? UInt16(type) : Self.wideType
        self.kind = kind
        flags = (inAppLevel ? 1 : 0) | (isListed ? 2 : 0)
    }

    var inAppLevel: Bool { flags & 1 != 0 }
    var isListed: Bool { flags & 2 != 0 }
    var level: AttributeLevel { inAppLevel ? .inApp : .app }
}

/// What the tree says of a recorded attribute: its nodes, version and value range, read again by
/// `AttributeReader` exactly as the decoder read them (the tree does not change once decoded).
struct AttributeParts {
    var typeNode: Int
    var versionNode: Int
    var version: Int64?
    var valueNode: Int
    /// The parser's expansion of the value (-1: none).
    var innerNode: Int
    var valueRange: Range<Int>
    /// The type INTEGER's value (nil only for a node that is no attribute).
    var type: Int?

    /// The parts of the attribute at `node`, from the buffers the decoder reads.
    @inline(__always)
    static func read(_ node: Int, nodes nb: UnsafeNodeBuffer, bytes bb: UnsafeBufferPointer<UInt8>) -> AttributeParts {
        let shape = AttributeReader.read(node, nodes: nb, bytes: bb)
        let valueNode = shape.valueNode
        guard valueNode >= 0, valueNode < nb.count else {
            return AttributeParts(typeNode: shape.typeNode, versionNode: shape.versionNode, version: shape.version,
                                  valueNode: valueNode, innerNode: -1, valueRange: 0..<0, type: shape.type)
        }
        let vn = nb[valueNode]
        let start = Int(vn.offset) + Int(vn.identifierLength) + Int(vn.lengthLength)
        return AttributeParts(typeNode: shape.typeNode, versionNode: shape.versionNode, version: shape.version,
                              valueNode: valueNode,
                              innerNode: Int(vn.subtreeEnd) > valueNode + 1 && vn.isEncapsulated ? valueNode + 1 : -1,
                              valueRange: start..<(start + Int(vn.contentLength)), type: shape.type)
    }
}

/// Every attribute of one receipt, in two flat tables (app level in file order; in-app purchases
/// one after another, each in file order), with the values materialised from the bytes on access.
/// Immutable once the decoder has built it; shared by `Receipt`, its purchases and the links.
final class ReceiptFieldTable: Sendable {
    let bytes: [UInt8]
    /// The tree's nodes the records' attribute nodes point into.
    let nodes: NodeStore
    let app: [FieldRecord]
    let inApp: [FieldRecord]
    /// The first `inApp` record of each purchase, in purchase order (a purchase's records run to
    /// the next one's first): the purchase and position of an in-app record.
    let purchaseStarts: [Int32]
    /// Values that do not fit a record (rare: invalid values, big integers, dates with an offset).
    let side: [FieldValue]
    /// The attribute node of each `side` value and of each purchase's attribute (whose records
    /// hold their index instead).
    let sideNodes: [Int32]
    let purchaseNodes: [Int32]
    /// First app-level record of each type below `firstByType.count` (-1: none); other types scan.
    let firstByType: [Int32]
    /// Records whose type is outside the schema, both lists (counted by the decoder as it appends:
    /// a pass over 190,000 records to count them cost ≈ 1 ms per open).
    let unlistedCount: Int

    static let empty = ReceiptFieldTable(bytes: [], nodes: [], app: [], inApp: [], purchaseStarts: [], side: [],
                                         sideNodes: [], purchaseNodes: [], unlistedCount: 0)

    init(bytes: [UInt8], nodes: NodeStore, app: [FieldRecord], inApp: [FieldRecord], purchaseStarts: [Int32],
         side: [FieldValue], sideNodes: [Int32], purchaseNodes: [Int32], unlistedCount: Int) {
        self.bytes = bytes
        self.nodes = nodes
        self.unlistedCount = unlistedCount
        self.app = app
        self.inApp = inApp
        self.purchaseStarts = purchaseStarts
        self.side = side
        self.sideNodes = sideNodes
        self.purchaseNodes = purchaseNodes
        var first = [Int32](repeating: -1, count: 32)
        for i in app.indices.reversed() where app[i].shortType < 32 { first[Int(app[i].shortType)] = Int32(i) }
        firstByType = first
    }

    @inline(__always)
    func records(_ level: AttributeLevel) -> [FieldRecord] { level == .app ? app : inApp }

    /// The attribute's type as written.
    @inline(__always)
    func typeNumber(_ r: FieldRecord) -> Int {
        r.shortType != FieldRecord.wideType ? Int(r.shortType) : parts(r).type ?? Int(FieldRecord.wideType)
    }

    /// The record's attribute SEQUENCE.
    @inline(__always)
    func attributeNode(_ r: FieldRecord) -> Int {
        switch r.kind {
        case .inAppPurchase: Int(purchaseNodes[Int(r.word)])
        case .side: Int(sideNodes[Int(r.word)])
        default: Int(r.word)
        }
    }

    /// The purchase of an `.inAppPurchase` record, the side value of a `.side` one.
    @inline(__always)
    func index(_ r: FieldRecord) -> Int { Int(r.word) }

    func parts(_ r: FieldRecord) -> AttributeParts {
        nodes.withUnsafeBufferPointer { nb in
            bytes.withUnsafeBufferPointer { bb in AttributeParts.read(attributeNode(r), nodes: nb, bytes: bb) }
        }
    }

    /// The content of the value's inner TLV, as the decoder found it (a `.string`, `.integer` or
    /// `.date` record has one).
    func content(_ r: FieldRecord) -> Range<Int> { read(r).content }

    /// The record's parts and, for a `.string`, `.integer` or `.date` record, its value's content,
    /// read in one pass over the buffers.
    @inline(__always)
    private func read(_ r: FieldRecord) -> (parts: AttributeParts, content: Range<Int>) {
        nodes.withUnsafeBufferPointer { nb in
            bytes.withUnsafeBufferPointer { bb in
                let p = AttributeParts.read(attributeNode(r), nodes: nb, bytes: bb)
                guard r.kind == .string || r.kind == .integer || r.kind == .date else { return (p, 0..<0) }
                let found = InnerContent.find(valueRange: p.valueRange, innerNode: p.innerNode >= 0 ? p.innerNode : nil,
                                              nodes: nb, bytes: bb)
                return (p, found?.content ?? 0..<0)
            }
        }
    }

    /// The value of an `.integer` record.
    func integer(_ r: FieldRecord) -> Int64 { integer(content(r)) }
    private func integer(_ content: Range<Int>) -> Int64 { InnerContent.int64(content, bytes) ?? 0 }

    /// The instant of a `.date` record.
    func date(_ r: FieldRecord) -> ReceiptDate { date(content(r)) }
    private func date(_ range: Range<Int>) -> ReceiptDate {
        let parsed = bytes.withUnsafeBufferPointer { ReceiptDate.parse(UnsafeBufferPointer(rebasing: $0[range])) }
        if case .date(let d) = parsed { return d }
        return ReceiptDate(epochMilliseconds: 0)  // not a `.date` record
    }

    /// The purchase holding in-app record `i`: the last whose first record is at or before it
    /// (a purchase with no records starts where the next one does, so the next one is found).
    func purchase(holding i: Int) -> Int {
        var low = 0, high = purchaseStarts.count
        while low < high {
            let mid = (low + high) / 2
            if Int(purchaseStarts[mid]) <= i { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }

    /// The position of record `i` of a list in its `Receipt.fields` or purchase's `fields`.
    func position(_ level: AttributeLevel, _ i: Int) -> (purchase: Int?, position: Int) {
        guard level == .inApp else { return (nil, i) }
        let p = purchase(holding: i)
        return (p, i - Int(purchaseStarts[p]))
    }

    func value(_ r: FieldRecord) -> FieldValue {
        switch r.kind {
        case .string, .integer, .date: value(r, content: content(r))
        default: value(r, content: 0..<0)
        }
    }

    /// `value(r)` with the value's content already read (see `read`).
    private func value(_ r: FieldRecord, content: Range<Int>) -> FieldValue {
        switch r.kind {
        case .bytes: return .bytes
        case .string: return .string(string(content))
        case .integer: return .integer(integer(content))
        case .date: return .date(date(content))
        case .absentDate: return .absentDate
        case .inAppPurchase: return .inAppPurchase(index(r))
        case .side: return side[index(r)]
        }
    }

    /// The text of a `.string` record (callers check the kind: any other record has no string range).
    func string(_ r: FieldRecord) -> String { string(content(r)) }

    private func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Record `i` of a list as a field.
    func field(_ level: AttributeLevel, _ i: Int) -> ReceiptField {
        let r = level == .app ? app[i] : inApp[i]
        let (p, content) = read(r)
        return ReceiptField(type: r.shortType != FieldRecord.wideType ? Int(r.shortType) : p.type ?? Int(FieldRecord.wideType),
                            level: level, version: p.version, attributeNode: attributeNode(r),
                            typeNode: p.typeNode, versionNode: p.versionNode, valueNode: p.valueNode,
                            innerNode: p.innerNode >= 0 ? p.innerNode : nil, valueRange: p.valueRange, value: value(r, content: content),
                            inAppIndex: level == .inApp ? purchase(holding: i) : nil, isListed: r.isListed)
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
    public subscript(position: Int) -> ReceiptField {
        precondition(position >= 0 && position < range.count, "field index out of range")
        return table.field(level, range.lowerBound + position)
    }

    @inline(__always)
    func record(_ position: Int) -> FieldRecord {
        precondition(position >= 0 && position < range.count, "field index out of range")
        return level == .app ? table.app[range.lowerBound + position] : table.inApp[range.lowerBound + position]
    }

    /// The first field of a type: its index in the table's list, and its record.
    func first(_ type: Int) -> (index: Int, record: FieldRecord)? {
        let records = table.records(level)
        for i in range where table.typeNumber(records[i]) == type { return (i, records[i]) }
        return nil
    }

    /// The first field of a type, its record only.
    func firstRecord(_ type: Int) -> FieldRecord? { first(type)?.record }

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
