import DocumentCore

/// Where a document says something, compact: its strings in the pool (`TimelineSource` when read).
struct SourceRecord: Equatable {
    var document: Int32
    /// The place's text, or its text before a trailing number (`placeNumber`).
    var place: Int32
    /// -1: none. A receipt's 20,000 places "in-app purchase N" are then one string and a number,
    /// not 20,000 strings (issue 32).
    var placeNumber: Int32
    /// -1: no node.
    var nodeLayer: Int32
    var nodeIndex: Int32
    /// -1: no offset. An offset in a loaded file, which the loader keeps under 512 MiB.
    var fileOffset: Int32
}

/// The strings and sources the timeline's records name, filled while the documents are read.
/// Shared by the reading's fact and observation lists (a class, so that both append to one pool).
package final class TimelinePool {
    package var strings = TimelineStrings()
    var sources: [SourceRecord] = []

    package init() {}

    /// A source's index; the one before it again when it is the same (a purchase's facts and
    /// observation share one).
    func add(_ source: TimelineSource) -> Int32 {
        let (text, number) = Self.trailingNumber(source.place)
        let record = SourceRecord(document: Int32(source.document), place: strings.intern(text), placeNumber: number,
                                  nodeLayer: Int32(source.node?.layer.index ?? -1), nodeIndex: Int32(source.node?.index ?? 0),
                                  fileOffset: source.fileOffset.map { Int32(clamping: $0) } ?? -1)
        if let last = sources.last, last == record { return Int32(sources.count - 1) }
        sources.append(record)
        return Int32(sources.count - 1)
    }

    /// "in-app purchase 12" as ("in-app purchase ", 12); the place whole and -1 when it does not end
    /// in a number that its decimal text gives back exactly (no leading zero, within Int32).
    static func trailingNumber(_ place: String) -> (Substring, Int32) {
        let utf8 = place.utf8
        var start = utf8.endIndex
        while start > utf8.startIndex, case let byte = utf8[utf8.index(before: start)], byte >= 0x30 && byte <= 0x39 {
            start = utf8.index(before: start)
        }
        let digits = place[start...]
        guard !digits.isEmpty, digits == "0" || digits.first != "0", let number = Int32(digits) else {
            return (place[...], -1)
        }
        return (place[..<start], number)
    }
}

extension SourceRecord {
    func source(_ strings: TimelineStrings) -> TimelineSource {
        let text = strings.string(place) ?? ""
        return TimelineSource(document: Int(document), place: placeNumber >= 0 ? text + String(placeNumber) : text,
                              node: nodeLayer >= 0 ? NodeID(LayerID(Int(nodeLayer)), Int(nodeIndex)) : nil,
                              fileOffset: fileOffset < 0 ? nil : Int(fileOffset))
    }
}

/// A `TimelineFact` as kept: 48 bytes, its strings in the pool.
package struct FactRecord {
    var date: Int64
    var transactionID: Int32
    var originalTransactionID: Int32
    var group: Int32
    var productID: Int32
    var detail: Int32
    var bundleID: Int32
    var undelivered: Int32
    var source: Int32
    var kind: TimelineEventKind
    /// -1 not said, 0 off, 1 on.
    var autoRenew: Int8
}

/// A `TransactionObservation` as kept: 72 bytes, its strings in the pool.
package struct ObservationRecord {
    var purchase: Int64
    var expires: Int64
    var revocation: Int64
    var issued: Int64
    var transactionID: Int32
    var originalTransactionID: Int32
    var webOrderLineItemID: Int32
    var group: Int32
    var productID: Int32
    var type: Int32
    var ownership: Int32
    var bundleID: Int32
    var source: Int32
    /// Which of the four dates are said, `isUpgraded`, `isReceipt` (`Flag`).
    var flags: UInt8

    enum Flag {
        static let purchase: UInt8 = 1, expires: UInt8 = 2, revocation: UInt8 = 4, issued: UInt8 = 8
        static let upgraded: UInt8 = 16, receipt: UInt8 = 32
    }

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
    func date(_ value: Int64, _ flag: UInt8) -> Int64? { has(flag) ? value : nil }
    var purchaseDate: Int64? { date(purchase, Flag.purchase) }
    var expiresDate: Int64? { date(expires, Flag.expires) }
    var revocationDate: Int64? { date(revocation, Flag.revocation) }
    var issuedDate: Int64? { date(issued, Flag.issued) }
    var isReceipt: Bool { has(Flag.receipt) }
}

/// A list of values kept as records whose strings are interned in the reading's pool: appended and
/// read as values (the facts and the observations share this, each says how to store and make one).
package protocol TimelineRecordList {
    associatedtype Value
    associatedtype Record
    var records: [Record] { get set }
    func record(_ value: Value) -> Record
    func value(_ record: Record) -> Value
}

extension TimelineRecordList {
    package var count: Int { records.count }
    package var indices: Range<Int> { records.indices }
    package mutating func append(_ value: Value) { records.append(record(value)) }
    package subscript(i: Int) -> Value {
        get { value(records[i]) }
        set { records[i] = record(newValue) }
    }
}

/// What the documents say happened (`TimelineFact`s), kept as records: appended and read as
/// facts, the strings interned in the reading's pool.
package struct TimelineFactList: TimelineRecordList {
    let pool: TimelinePool
    package var records: [FactRecord] = []

    package func value(_ r: FactRecord) -> TimelineFact {
        let s = pool.strings
        return TimelineFact(kind: r.kind, date: r.date, transactionID: s.string(r.transactionID),
                            originalTransactionID: s.string(r.originalTransactionID) ?? "", group: s.string(r.group),
                            productID: s.string(r.productID), detail: s.string(r.detail),
                            source: pool.sources[Int(r.source)].source(s), bundleID: s.string(r.bundleID),
                            autoRenew: r.autoRenew < 0 ? nil : r.autoRenew == 1, undelivered: s.string(r.undelivered))
    }

    package func record(_ f: TimelineFact) -> FactRecord {
        let s = pool
        return FactRecord(date: f.date, transactionID: s.strings.intern(f.transactionID),
                          originalTransactionID: s.strings.intern(f.originalTransactionID), group: s.strings.intern(f.group),
                          productID: s.strings.intern(f.productID), detail: s.strings.intern(f.detail),
                          bundleID: s.strings.intern(f.bundleID), undelivered: s.strings.intern(f.undelivered),
                          source: s.add(f.source), kind: f.kind, autoRenew: f.autoRenew.map { $0 ? 1 : 0 } ?? -1)
    }
}

/// Every document's view of each transaction (`TransactionObservation`s), kept as records.
package struct TimelineObservationList: TimelineRecordList {
    let pool: TimelinePool
    package var records: [ObservationRecord] = []

    package func value(_ r: ObservationRecord) -> TransactionObservation {
        let s = pool.strings
        return TransactionObservation(
            transactionID: s.string(r.transactionID) ?? "", originalTransactionID: s.string(r.originalTransactionID) ?? "",
            webOrderLineItemID: s.string(r.webOrderLineItemID), group: s.string(r.group), productID: s.string(r.productID),
            type: s.string(r.type), ownership: s.string(r.ownership), purchase: r.purchaseDate, expires: r.expiresDate,
            revocation: r.revocationDate, isUpgraded: r.has(ObservationRecord.Flag.upgraded), issued: r.issuedDate,
            isReceipt: r.isReceipt, source: pool.sources[Int(r.source)].source(s), bundleID: s.string(r.bundleID))
    }

    package func record(_ o: TransactionObservation) -> ObservationRecord {
        let s = pool
        typealias Flag = ObservationRecord.Flag
        var flags: UInt8 = 0
        for (value, flag) in [(o.purchase, Flag.purchase), (o.expires, Flag.expires), (o.revocation, Flag.revocation), (o.issued, Flag.issued)]
        where value != nil { flags |= flag }
        if o.isUpgraded { flags |= Flag.upgraded }
        if o.isReceipt { flags |= Flag.receipt }
        return ObservationRecord(purchase: o.purchase ?? 0, expires: o.expires ?? 0, revocation: o.revocation ?? 0, issued: o.issued ?? 0,
                                 transactionID: s.strings.intern(o.transactionID), originalTransactionID: s.strings.intern(o.originalTransactionID),
                                 webOrderLineItemID: s.strings.intern(o.webOrderLineItemID), group: s.strings.intern(o.group),
                                 productID: s.strings.intern(o.productID), type: s.strings.intern(o.type),
                                 ownership: s.strings.intern(o.ownership), bundleID: s.strings.intern(o.bundleID),
                                 source: s.add(o.source), flags: flags)
    }
}
