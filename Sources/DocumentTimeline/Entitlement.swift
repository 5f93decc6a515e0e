import DocumentCore

/// When a customer was entitled: each subscription period from its start to its end (refund,
/// upgrade or expiry), and the billing grace periods notifications announced.
public enum Entitlement {
    struct Period {
        var transactionID: String
        var originalTransactionID: String
        var productID: String?
        var start: Int64
        var end: Int64
        /// Why the period ended: "expired", "refunded", "revoked", "upgraded".
        var ending: String
        var isUpgraded: Bool
    }

    /// The subscription periods of an original transaction, one per transaction id, every
    /// document's view combined (a refund or an upgrade any document reports counts).
    static func periods(_ chain: ChainKey, _ observations: [TransactionObservation]) -> [Period] {
        let original = chain.original
        var byID: [String: [TransactionObservation]] = [:]
        var order: [String] = []
        for o in observations where o.originalTransactionID == original && o.bundleID == chain.bundleID && o.expires != nil && o.purchase != nil {
            if byID[o.transactionID] == nil { order.append(o.transactionID) }
            byID[o.transactionID, default: []].append(o)
        }
        var periods: [Period] = order.compactMap { id in
            let seen = byID[id] ?? []
            // The latest document's dates; a refund or upgrade from any of them.
            guard let latest = seen.max(by: { ($0.issued ?? .min) < ($1.issued ?? .min) }),
                  let start = latest.purchase, let expires = latest.expires else { return nil }
            let revoked = seen.compactMap(\.revocation).min()
            let family = seen.contains { $0.ownership == "FAMILY_SHARED" }
            return Period(transactionID: id, originalTransactionID: original, productID: latest.productID, start: start,
                          end: max(start, revoked ?? expires), ending: revoked == nil ? "expired" : family ? "revoked" : "refunded",
                          isUpgraded: seen.contains { $0.isUpgraded })
        }
        periods.sort { $0.start < $1.start }
        // An upgraded period ends when the next one starts.
        for i in periods.indices where periods[i].isUpgraded {
            if let next = periods[(i + 1)...].first(where: { $0.start > periods[i].start }), next.start < periods[i].end {
                periods[i].end = next.start
                periods[i].ending = "upgraded"
            }
        }
        return periods
    }

    /// The periods and grace windows merged into disjoint ranges, each with why it ended.
    static func union(_ periods: [Period], graces: [GraceWindow]) -> ([Range<Int64>], [String]) {
        let spans = periods.map { ($0.start, $0.end, $0.ending) } + graces.map { ($0.from, max($0.from, $0.to), "grace period ended") }
        var ranges: [Range<Int64>] = []
        var endings: [String] = []
        for (start, end, ending) in spans.sorted(by: { $0.0 < $1.0 }) {
            if let last = ranges.last, start <= last.upperBound {
                if end > last.upperBound {
                    ranges[ranges.count - 1] = last.lowerBound..<end
                    endings[endings.count - 1] = ending
                }
            } else {
                ranges.append(start..<end)
                endings.append(ending)
            }
        }
        return (ranges, endings)
    }
}

/// The entitlement of one group at one moment (`timeline --at`, the explorer's cursor).
public struct EntitlementState: Sendable, Equatable {
    public var entitled: Bool
    public var text: String
}

extension TimelineGroup {
    /// Entitled or not at `date`, and why.
    public func state(at date: Int64) -> EntitlementState {
        guard let first = entitled.first, let last = entitled.last else {
            return EntitlementState(entitled: false, text: "no subscription period in these documents")
        }
        if let i = entitled.firstIndex(where: { $0.contains(date) }) {
            let period = events.last { $0.kind.startsPeriod && $0.date <= date && $0.date >= entitled[i].lowerBound }
            // A grace period that began after the last period started: entitled by the grace period.
            if let grace = graces.first(where: { $0.contains(date) && (period?.date ?? .min) < $0.lowerBound }) {
                return EntitlementState(entitled: true, text: "entitled in a billing grace period until \(Timeline.iso(grace.upperBound))"
                                        + (period?.transactionID.map { " (after transaction \($0))" } ?? ""))
            }
            let what = period.map { [$0.productID, $0.transactionID.map { "transaction \($0)" }].compactMap { $0 }.joined(separator: ", ") }
            return EntitlementState(entitled: true, text: "entitled" + (what.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
                                    + " until \(Timeline.iso(entitled[i].upperBound)) (then \(endings[i]))")
        }
        if date < first.lowerBound {
            return EntitlementState(entitled: false, text: "not entitled: the first period starts \(Timeline.iso(first.lowerBound))")
        }
        if date >= last.upperBound {
            return EntitlementState(entitled: false, text: "not entitled since \(Timeline.iso(last.upperBound)) (\(endings[endings.count - 1]))")
        }
        let i = entitled.lastIndex { $0.upperBound <= date } ?? 0
        return EntitlementState(entitled: false, text: "not entitled: in a gap from \(Timeline.iso(entitled[i].upperBound)) (\(endings[i])) "
                                + "until \(Timeline.iso(entitled[i + 1].lowerBound))")
    }
}
