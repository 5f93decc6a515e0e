/// A `TimelineEvent` as kept: 48 bytes, its strings in the timeline's store.
struct EventRecord {
    var date: Int64
    /// A gap's end (`hasUntil`).
    var until: Int64 = 0
    var transactionID: Int32
    var productID: Int32
    var detail: Int32
    var undelivered: Int32
    /// The one source (-1: none), or the first of `sourceList`'s.
    var source: Int32
    /// Index into `TimelineStore.sourceLists` when the event has more than one source, else -1.
    var sourceList: Int32 = -1
    var kind: TimelineEventKind
    var hasUntil = false
}

/// What a built timeline's records name: the strings, the sources and the lists of sources of the
/// events several documents report. Made once the timeline is built, then only read.
final class TimelineStore: Sendable {
    let strings: TimelineStrings
    let sources: [SourceRecord]
    let sourceLists: [[Int32]]

    init(strings: TimelineStrings, sources: [SourceRecord], sourceLists: [[Int32]]) {
        self.strings = strings
        self.sources = sources
        self.sourceLists = sourceLists
    }

    func sourceIndices(_ r: EventRecord) -> [Int32] {
        r.sourceList >= 0 ? sourceLists[Int(r.sourceList)] : r.source >= 0 ? [r.source] : []
    }

    func event(_ r: EventRecord) -> TimelineEvent {
        TimelineEvent(kind: r.kind, date: r.date, transactionID: strings.string(r.transactionID), productID: strings.string(r.productID),
                      detail: strings.string(r.detail), until: r.hasUntil ? r.until : nil,
                      sources: sourceIndices(r).map { sources[Int($0)].source(strings) }, undelivered: strings.string(r.undelivered))
    }
}

/// A group's events, each made from its record when read (`TimelineEvent`): the events of a
/// 20,000-purchase receipt made up front, with their strings and sources, took ≈ 10 MB (issue 32).
public struct TimelineEvents: RandomAccessCollection, Sendable, Equatable {
    let records: [EventRecord]
    let store: TimelineStore

    init(records: [EventRecord], store: TimelineStore) {
        self.records = records
        self.store = store
    }

    public var startIndex: Int { records.startIndex }
    public var endIndex: Int { records.endIndex }
    public subscript(position: Int) -> TimelineEvent { store.event(records[position]) }

    /// The moment and kind of event `i`, without making the event.
    public func date(at i: Int) -> Int64 { records[i].date }
    public func kind(at i: Int) -> TimelineEventKind { records[i].kind }

    public static func == (a: TimelineEvents, b: TimelineEvents) -> Bool { a.elementsEqual(b) }
}
