import DocumentCore

/// Builds the time line: facts merged into events (one event per moment and transaction, with
/// every document that reports it), period starts named, entitlement and its gaps, conflicts.
extension Timeline {
    public static func build(_ documents: [Document]) -> Timeline {
        build(documents, reading: TimelineReading(documents))
    }

    static func build(_ documents: [Document], reading: TimelineReading) -> Timeline {
        let groupOf = subscriptionGroups(reading)
        var byChain: [ChainKey: [TimelineEvent]] = [:]
        for event in merge(reading.facts) {
            byChain[event.chain, default: []].append(event.event)
        }
        // Apps are named in the titles only when the documents are about more than one.
        let showsApp = Set(byChain.keys.map(\.bundleID)).count > 1
        var observed: [ChainKey: [TransactionObservation]] = [:]
        for o in reading.observations { observed[ChainKey(bundleID: o.bundleID, original: o.originalTransactionID), default: []].append(o) }
        var groups: [TimelineGroup] = []
        for (chain, events) in byChain {
            let sorted = events.sorted(by: before)
            let periods = Entitlement.periods(chain, observed[chain] ?? [])
            let named = nameStarts(sorted, periods: periods)
            let graces = reading.graces.filter { ChainKey(bundleID: $0.bundleID, original: $0.originalTransactionID) == chain }
            let (entitled, endings) = Entitlement.union(periods, graces: graces)
            let gaps = zip(entitled, entitled.dropFirst()).enumerated().map { i, pair in
                TimelineEvent(kind: .gap, date: pair.0.upperBound, detail: "no entitlement for \(duration(pair.1.lowerBound - pair.0.upperBound)) (\(endings[i]))",
                              until: pair.1.lowerBound, sources: [])
            }
            groups.append(TimelineGroup(subscriptionGroup: groupOf[chain], originalTransactionID: chain.original,
                                        bundleID: showsApp ? chain.bundleID : nil,
                                        events: (named + gaps).sorted(by: before), entitled: entitled, endings: endings,
                                        graces: graces.map { $0.from..<max($0.from, $0.to) }))
        }
        groups.sort { ($0.events.first?.date ?? 0, $0.originalTransactionID, $0.bundleID ?? "")
            < ($1.events.first?.date ?? 0, $1.originalTransactionID, $1.bundleID ?? "") }
        return Timeline(names: documents.map(\.source.name), summaries: documents.map(\.summary), groups: groups,
                        findings: TimelineConflicts.findings(reading, names: documents.map(\.source.name)))
    }

    /// Events at the same moment: by kind, then by their first source.
    static func before(_ a: TimelineEvent, _ b: TimelineEvent) -> Bool {
        if a.date != b.date { return a.date < b.date }
        if a.kind.order != b.kind.order { return a.kind.order < b.kind.order }
        return (a.sources.first?.document ?? .max) < (b.sources.first?.document ?? .max)
    }

    /// The group id any document gives an original transaction (receipts give none).
    static func subscriptionGroups(_ reading: TimelineReading) -> [ChainKey: String] {
        var out: [ChainKey: String] = [:]
        for f in reading.facts { if let g = f.group { out[ChainKey(bundleID: f.bundleID, original: f.originalTransactionID)] = out[ChainKey(bundleID: f.bundleID, original: f.originalTransactionID)] ?? g } }
        for o in reading.observations { if let g = o.group { out[ChainKey(bundleID: o.bundleID, original: o.originalTransactionID)] = out[ChainKey(bundleID: o.bundleID, original: o.originalTransactionID)] ?? g } }
        return out
    }

    /// Facts about the same moment of the same transaction become one event: the most specific
    /// name, the longest detail, one source per document (the first it gave).
    static func merge(_ facts: [TimelineFact]) -> [(chain: ChainKey, event: TimelineEvent)] {
        var order: [String] = []
        var merged: [String: (chain: ChainKey, event: TimelineEvent)] = [:]
        for f in facts {
            // Receipts write whole seconds, StoreKit milliseconds: the same moment to the second. A
            // renewal status is the chain's, not a transaction's: a renewal info (no transaction) and the
            // notification that carried it (its transaction) report one change when they agree on it.
            let renewal = f.kind == .renewalStatus
            let key = [f.kind.startsPeriod ? "start" : f.kind.rawValue, f.bundleID ?? "", f.originalTransactionID,
                       renewal ? (f.autoRenew.map { $0 ? "on" : "off" } ?? f.transactionID ?? "") : f.transactionID ?? "",
                       String(f.date / 1000)].joined(separator: "\u{0}")
            guard var entry = merged[key] else {
                order.append(key)
                merged[key] = (ChainKey(bundleID: f.bundleID, original: f.originalTransactionID), TimelineEvent(kind: f.kind, date: f.date, transactionID: f.transactionID,
                                                                      productID: f.productID, detail: f.detail, sources: [f.source],
                                                                      undelivered: f.undelivered))
                continue
            }
            if f.kind.specificity > entry.event.kind.specificity { entry.event.kind = f.kind }
            if let d = f.detail, d.count > (entry.event.detail?.count ?? -1) { entry.event.detail = d }
            if entry.event.productID == nil { entry.event.productID = f.productID }
            if entry.event.undelivered == nil { entry.event.undelivered = f.undelivered }
            if entry.event.transactionID == nil { entry.event.transactionID = f.transactionID }
            if !entry.event.sources.contains(where: { $0.document == f.source.document }) {
                entry.event.sources.append(f.source)
                entry.event.sources.sort { $0.document < $1.document }
            }
            merged[key] = entry
        }
        return order.compactMap { merged[$0] }
    }

    /// A later purchase in a chain that no document named: an upgrade when the period before it was
    /// marked upgraded, a resubscribe after a gap, a crossgrade when the product changed.
    static func nameStarts(_ events: [TimelineEvent], periods: [Entitlement.Period]) -> [TimelineEvent] {
        var out = events
        var previous: Entitlement.Period?
        let byID = Dictionary(periods.map { ($0.transactionID, $0) }, uniquingKeysWith: { a, _ in a })
        for i in out.indices where out[i].kind.startsPeriod {
            let period = out[i].transactionID.flatMap { byID[$0] }
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
