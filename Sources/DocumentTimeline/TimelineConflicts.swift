import DocumentCore

/// Documents that contradict each other about the same subscription or transaction.
enum TimelineConflicts {
    static func findings(_ reading: TimelineReading, names: [String]) -> [TimelineFinding] {
        missedRenewals(reading, names: names) + disagreements(reading, names: names) + unreportedRefunds(reading, names: names)
    }

    static func name(_ source: TimelineSource, _ names: [String]) -> String { "[\(source.document + 1)] \(names[source.document])" }

    /// A receipt whose periods had all ended at its creation while another document reports a
    /// period of the same subscription that covered that moment (and is not in the receipt).
    static func missedRenewals(_ reading: TimelineReading, names: [String]) -> [TimelineFinding] {
        var out: [TimelineFinding] = []
        for snapshot in reading.receipts {
            guard let created = snapshot.created else { continue }
            let own = reading.observations.filter { $0.source.document == snapshot.document && $0.expires != nil }
            for original in ordered(own.map(\.originalTransactionID)) {
                let mine = own.filter { $0.originalTransactionID == original }
                let ids = Set(mine.map(\.transactionID))
                guard !mine.contains(where: { covers($0, created) }), let lastEnd = mine.compactMap(\.expires).max() else { continue }
                let others = reading.observations.filter {
                    $0.source.document != snapshot.document && $0.originalTransactionID == original && $0.bundleID == snapshot.bundleID
                        && !ids.contains($0.transactionID)
                        && covers($0, created)
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

    /// Every document's view of each transaction (per app), in first-seen order.
    static func byTransaction(_ reading: TimelineReading) -> [[TransactionObservation]] {
        var index: [[String]: Int] = [:]
        var out: [[TransactionObservation]] = []
        for o in reading.observations {
            let key = [o.bundleID ?? "", o.transactionID]
            if let i = index[key] { out[i].append(o) } else { index[key] = out.count; out.append([o]) }
        }
        return out
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
