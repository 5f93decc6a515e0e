import DocumentCore

/// Builds the time line: facts merged into events (one event per moment and transaction, with
/// every document that reports it), period starts named, entitlement and its gaps, conflicts.
extension Timeline {
    /// The documents are let go once read, before the events are made: a caller that hands them
    /// over (`consume`) does not hold a 20,000-purchase receipt's tree beside its events (issue 32).
    public static func build(_ documents: consuming [Document]) -> Timeline {
        let names = documents.map(\.source.name), summaries = documents.map(\.summary)
        // Handed on (an initializer owns its argument): the documents go when the reading is made.
        let reading = TimelineReading(documents)
        return build(names: names, summaries: summaries, reading: reading)
    }

    /// One subscription chain as references into the reading's strings.
    struct Chain: Hashable {
        var bundle: Int32
        var original: Int32
    }

    static func build(names: [String], summaries: [String], reading: consuming TimelineReading) -> Timeline {
        let groupOf = subscriptionGroups(reading)
        var merged = merge(reading.facts, strings: &reading.pool.strings)
        // The facts are all in the events now (conflicts read the observations).
        reading.facts.records = []
        var byChain: [Chain: [Int32]] = [:]
        var chainOrder: [Chain] = []
        for (i, chain) in merged.chains.enumerated() {
            if byChain[chain] == nil { chainOrder.append(chain) }
            byChain[chain, default: []].append(Int32(i))
        }
        merged.chains = []
        // Apps are named in the titles only when the documents are about more than one.
        let showsApp = Set(chainOrder.map(\.bundle)).count > 1
        var observed: [Chain: [Int32]] = [:]
        for (i, o) in reading.observations.records.enumerated() {
            observed[Chain(bundle: o.bundleID, original: o.originalTransactionID), default: []].append(Int32(i))
        }
        var built: [(chain: Chain, events: [EventRecord], entitled: [Range<Int64>], endings: [String], graces: [Range<Int64>])] = []
        for chain in chainOrder {
            // No copy of the strings is held here: interning a gap's words would copy them all.
            let key = ChainKey(bundleID: reading.pool.strings.string(chain.bundle), original: reading.pool.strings.string(chain.original) ?? "")
            let sorted = (byChain[chain] ?? []).map { merged.events[Int($0)] }.sorted { before($0, $1, reading.pool.sources) }
            let periods = Entitlement.periods(key, (observed[chain] ?? []).map { reading.observations[Int($0)] })
            let named = nameStarts(sorted, periods: periods, strings: reading.pool.strings)
            let graces = reading.graces.filter { ChainKey(bundleID: $0.bundleID, original: $0.originalTransactionID) == key }
            let (entitled, endings) = Entitlement.union(periods, graces: graces)
            let gaps = zip(entitled, entitled.dropFirst()).enumerated().map { i, pair in
                EventRecord(date: pair.0.upperBound, until: pair.1.lowerBound, transactionID: TimelineStrings.none,
                            productID: TimelineStrings.none,
                            detail: reading.pool.strings.intern("no entitlement for \(duration(pair.1.lowerBound - pair.0.upperBound)) (\(endings[i]))"),
                            undelivered: TimelineStrings.none, source: -1, kind: .gap, hasUntil: true)
            }
            built.append((chain, (named + gaps).sorted { before($0, $1, reading.pool.sources) }, entitled, endings,
                          graces.map { $0.from..<max($0.from, $0.to) }))
        }
        merged.events = []
        let store = TimelineStore(strings: reading.pool.strings, sources: reading.pool.sources, sourceLists: merged.sourceLists)
        var groups = built.map { b in
            TimelineGroup(subscriptionGroup: groupOf[b.chain].flatMap { store.strings.string($0) },
                          originalTransactionID: store.strings.string(b.chain.original) ?? "",
                          bundleID: showsApp ? store.strings.string(b.chain.bundle) : nil,
                          events: TimelineEvents(records: b.events, store: store), entitled: b.entitled, endings: b.endings, graces: b.graces)
        }
        built = []
        groups.sort { (first($0), $0.originalTransactionID, $0.bundleID ?? "") < (first($1), $1.originalTransactionID, $1.bundleID ?? "") }
        return Timeline(names: names, summaries: summaries, groups: groups, findings: TimelineConflicts.findings(reading, names: names))
    }

    static func first(_ group: TimelineGroup) -> Int64 { group.events.isEmpty ? 0 : group.events.date(at: 0) }

    /// Events at the same moment: by kind, then by their first source.
    static func before(_ a: EventRecord, _ b: EventRecord, _ sources: [SourceRecord]) -> Bool {
        if a.date != b.date { return a.date < b.date }
        if a.kind.order != b.kind.order { return a.kind.order < b.kind.order }
        func document(_ r: EventRecord) -> Int { r.source >= 0 ? Int(sources[Int(r.source)].document) : .max }
        return document(a) < document(b)
    }

    /// The group id any document gives an original transaction (receipts give none).
    static func subscriptionGroups(_ reading: TimelineReading) -> [Chain: Int32] {
        var out: [Chain: Int32] = [:]
        for f in reading.facts.records where f.group != TimelineStrings.none {
            let chain = Chain(bundle: f.bundleID, original: f.originalTransactionID)
            if out[chain] == nil { out[chain] = f.group }
        }
        for o in reading.observations.records where o.group != TimelineStrings.none {
            let chain = Chain(bundle: o.bundleID, original: o.originalTransactionID)
            if out[chain] == nil { out[chain] = o.group }
        }
        return out
    }

    /// What a moment of a transaction is, for merging: the facts with the same key are one event.
    struct MergeKey: Hashable {
        /// 255 for every kind that starts a period, else the kind's order.
        var kind: UInt8
        var bundle: Int32
        var original: Int32
        var transaction: Int32
        var second: Int64
    }

    /// The merged events, each with its chain, and the source lists of those several documents report.
    struct Merged {
        var events: [EventRecord] = []
        var chains: [Chain] = []
        var sourceLists: [[Int32]] = []
    }

    /// Facts about the same moment of the same transaction become one event: the most specific
    /// name, the longest detail, one source per document (the first it gave).
    static func merge(_ facts: TimelineFactList, strings: inout TimelineStrings) -> Merged {
        let sources = facts.pool.sources
        // Absent and empty are the same in the key (it was a text key joining them, "" for nil).
        let empty = strings.intern(""), on = strings.intern("on"), off = strings.intern("off")
        func key(_ ref: Int32) -> Int32 { ref == TimelineStrings.none ? empty : ref }
        var out = Merged()
        var index: [MergeKey: Int32] = [:]
        for f in facts.records {
            // Receipts write whole seconds, StoreKit milliseconds: the same moment to the second. A
            // renewal status is the chain's, not a transaction's: a renewal info (no transaction) and the
            // notification that carried it (its transaction) report one change when they agree on it.
            let renewal = f.kind == .renewalStatus
            let k = MergeKey(kind: f.kind.startsPeriod ? 255 : UInt8(f.kind.order), bundle: key(f.bundleID), original: f.originalTransactionID,
                             transaction: renewal && f.autoRenew >= 0 ? (f.autoRenew == 1 ? on : off) : key(f.transactionID),
                             second: f.date / 1000)
            guard let at = index[k].map(Int.init) else {
                index[k] = Int32(out.events.count)
                out.events.append(EventRecord(date: f.date, transactionID: f.transactionID, productID: f.productID, detail: f.detail,
                                              undelivered: f.undelivered, source: f.source, kind: f.kind))
                out.chains.append(Chain(bundle: f.bundleID, original: f.originalTransactionID))
                continue
            }
            var e = out.events[at]
            if f.kind.specificity > e.kind.specificity { e.kind = f.kind }
            if f.detail != TimelineStrings.none, strings.characterCount(f.detail) > strings.characterCount(e.detail) { e.detail = f.detail }
            if e.productID == TimelineStrings.none { e.productID = f.productID }
            if e.undelivered == TimelineStrings.none { e.undelivered = f.undelivered }
            if e.transactionID == TimelineStrings.none { e.transactionID = f.transactionID }
            var list = e.sourceList >= 0 ? out.sourceLists[Int(e.sourceList)] : [e.source]
            let document = sources[Int(f.source)].document
            if !list.contains(where: { sources[Int($0)].document == document }) {
                list.append(f.source)
                list.sort { sources[Int($0)].document < sources[Int($1)].document }
                e.source = list[0]
                if e.sourceList >= 0 {
                    out.sourceLists[Int(e.sourceList)] = list
                } else {
                    e.sourceList = Int32(out.sourceLists.count)
                    out.sourceLists.append(list)
                }
            }
            out.events[at] = e
        }
        return out
    }

    /// A later purchase in a chain that no document named: an upgrade when the period before it was
    /// marked upgraded, a resubscribe after a gap, a crossgrade when the product changed.
    static func nameStarts(_ events: [EventRecord], periods: [Entitlement.Period], strings: TimelineStrings) -> [EventRecord] {
        var out = events
        var previous: Entitlement.Period?
        let byID = Dictionary(periods.map { ($0.transactionID, $0) }, uniquingKeysWith: { a, _ in a })
        for i in out.indices where out[i].kind.startsPeriod {
            let period = strings.string(out[i].transactionID).flatMap { byID[$0] }
            defer { if period != nil { previous = period } }
            guard out[i].kind == .purchase, let period, let previous, period.originalTransactionID != period.transactionID else { continue }
            if previous.isUpgraded {
                out[i].kind = .upgrade
            } else if previous.end < period.start {
                out[i].kind = .resubscribe
            } else if previous.productID != period.productID {
                out[i].kind = .crossgrade
            }
        }
        return out
    }

    /// "3 days", "5 hours", "40 minutes", "14 seconds" (a gap under a minute is not "0 minutes").
    static func duration(_ ms: Int64) -> String {
        let seconds = ms / 1000, minutes = ms / 60_000, hours = minutes / 60, days = hours / 24
        func unit(_ n: Int64, _ name: String) -> String { "\(n) \(name)\(n == 1 ? "" : "s")" }
        if days >= 1 { return unit(days, "day") + (hours % 24 == 0 ? "" : " " + unit(hours % 24, "hour")) }
        if hours >= 1 { return unit(hours, "hour") }
        if minutes >= 1 { return unit(minutes, "minute") }
        return seconds >= 1 ? unit(seconds, "second") : unit(ms, "millisecond")
    }
}
