import DocumentCore

/// Documents that contradict each other about the same subscription or transaction.
enum TimelineConflicts {
    static func findings(_ reading: TimelineReading, names: [String]) -> [TimelineFinding] {
        missedRenewals(reading, names: names) + disagreements(reading, names: names) + unreportedRefunds(reading, names: names)
    }

    static func name(_ source: TimelineSource, _ names: [String]) -> String { "[\(source.document + 1)] \(names[source.document])" }

    /// A receipt whose periods had all ended at its creation while another document reports a
    /// period of the same subscription that covered that moment (and is not in the receipt).
    /// Observations are made from their records only where they may count: per original transaction.
    static func missedRenewals(_ reading: TimelineReading, names: [String]) -> [TimelineFinding] {
        var out: [TimelineFinding] = []
        guard reading.receipts.contains(where: { $0.created != nil }) else { return out }
        let records = reading.observations.records
        var byOriginal: [Int32: [Int32]] = [:]
        for (i, o) in records.enumerated() { byOriginal[o.originalTransactionID, default: []].append(Int32(i)) }
        for snapshot in reading.receipts {
            guard let created = snapshot.created else { continue }
            let document = Int32(snapshot.document)
            func inSnapshot(_ i: Int32) -> Bool { reading.pool.sources[Int(records[Int(i)].source)].document == document }
            let own = records.indices.filter { records[$0].expiresDate != nil && inSnapshot(Int32($0)) }
            for originalRef in ordered(own.map { records[$0].originalTransactionID }) {
                let mine = own.filter { records[$0].originalTransactionID == originalRef }.map { reading.observations[$0] }
                let original = mine[0].originalTransactionID
                let ids = Set(mine.map(\.transactionID))
                guard !mine.contains(where: { covers($0, created) }), let lastEnd = mine.compactMap(\.expires).max() else { continue }
                let others = (byOriginal[originalRef] ?? []).filter { !inSnapshot($0) }.map { reading.observations[Int($0)] }.filter {
                    $0.bundleID == snapshot.bundleID && !ids.contains($0.transactionID) && covers($0, created)
                }
                guard let first = others.first, let start = first.purchase, let end = first.expires else { continue }
                let sources = ordered(others.filter { $0.transactionID == first.transactionID }.map(\.source), by: \.document)
                out.append(TimelineFinding(
                    code: "receipt-missed-renewal",
                    message: "\(name(snapshot.source, names)) was created \(Timeline.iso(created)) and says original transaction \(original) "
                        + "had expired (its last period ended \(Timeline.iso(lastEnd))), but \(sources.map { name($0, names) }.joined(separator: ", ")) "
                        + "report\(sources.count == 1 ? "s" : "") transaction \(first.transactionID) renewing it from \(Timeline.iso(start)) until \(Timeline.iso(end))",
                    sources: [snapshot.source] + sources))
            }
        }
        return out
    }

    /// Purchase or expiry dates, or products, that two documents give differently for one transaction.
    static func disagreements(_ reading: TimelineReading, names: [String]) -> [TimelineFinding] {
        var out: [TimelineFinding] = []
        for seen in byTransaction(reading) {
            guard let first = seen.first else { continue }
            let id = first.transactionID
            // To the second: receipts write no milliseconds.
            let second = { (ms: Int64) in Timeline.iso(ms - ((ms % 1000) + 1000) % 1000) }
            for (label, value) in [("purchase date", { (o: TransactionObservation) in o.purchase.map(second) }),
                                   ("expires date", { (o: TransactionObservation) in o.expires.map(second) }),
                                   ("product", { (o: TransactionObservation) in o.productID })] {
                guard let other = seen.first(where: { value($0) != nil && value(first) != nil && value($0) != value(first) }) else { continue }
                out.append(TimelineFinding(
                    code: "documents-disagree",
                    message: "transaction \(id): \(name(first.source, names)) gives the \(label) \(value(first)!), "
                        + "\(name(other.source, names)) gives \(value(other)!)",
                    sources: [first.source, other.source]))
            }
        }
        return out
    }

    /// A refund one document reports, and another document made after it does not show.
    static func unreportedRefunds(_ reading: TimelineReading, names: [String]) -> [TimelineFinding] {
        var out: [TimelineFinding] = []
        for seen in byTransaction(reading) {
            let id = seen[0].transactionID
            guard let refunded = seen.first(where: { $0.revocation != nil }), let at = refunded.revocation,
                  let silent = seen.first(where: { $0.revocation == nil && ($0.issued ?? .min) >= at }) else { continue }
            out.append(TimelineFinding(
                code: "refund-not-reported",
                message: "transaction \(id) was refunded or revoked \(Timeline.iso(at)) (\(name(refunded.source, names))), but "
                    + "\(name(silent.source, names)), made \(Timeline.iso(silent.issued!)), shows no refund",
                sources: [refunded.source, silent.source]))
        }
        return out
    }

    /// Every document's view of each transaction (per app) that more than one document gives, in
    /// first-seen order: a transaction seen once can neither disagree nor lack a refund.
    static func byTransaction(_ reading: TimelineReading) -> [[TransactionObservation]] {
        struct Key: Hashable {
            var bundle: Int32
            var transaction: Int32
        }
        var first: [Key: Int32] = [:]
        var more: [Int32: [Int32]] = [:]
        for (i, o) in reading.observations.records.enumerated() {
            // Absent and empty app are one (it was a text key).
            let bundle = o.bundleID == TimelineStrings.none ? reading.pool.strings.intern("") : o.bundleID
            let key = Key(bundle: bundle, transaction: o.transactionID)
            if let f = first[key] { more[f, default: [f]].append(Int32(i)) } else { first[key] = Int32(i) }
        }
        return more.keys.sorted().map { f in more[f]!.map { reading.observations[Int($0)] } }
    }

    static func covers(_ o: TransactionObservation, _ date: Int64) -> Bool {
        guard let start = o.purchase, let end = o.expires else { return false }
        return start <= date && date < min(end, o.revocation ?? end)
    }

    static func ordered<T: Hashable>(_ items: [T]) -> [T] {
        var seen = Set<T>()
        return items.filter { seen.insert($0).inserted }
    }

    static func ordered<T, K: Hashable>(_ items: [T], by key: KeyPath<T, K>) -> [T] {
        var seen = Set<K>()
        return items.filter { seen.insert($0[keyPath: key]).inserted }
    }
}
