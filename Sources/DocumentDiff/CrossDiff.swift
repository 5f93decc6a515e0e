import DocumentCore

/// Purchases of two kinds compared (a receipt against StoreKit 2 transactions), matched by
/// transaction id and compared field by field as the leading side names them: each side's format
/// says what a value compares as (`PurchaseRecordField.comparable`: dates as whole seconds,
/// numbers against strings by their text).
enum CrossDiff {
    static func entries(_ lead: PurchaseRecords, _ other: PurchaseRecords, leadIsA: Bool) -> [DiffEntry] {
        let purchases = lead.records, transactions = other.records
        let pairing = PurchasePairing(purchases.map(\.identity), transactions.map(\.identity))
        var out: [DiffEntry] = []
        for (i, p) in purchases.enumerated() {
            let key = p.identity.key
            guard let j = pairing.counterpartOfA[i] else {
                out.append(entry(leadIsA ? .transactionRemoved : .transactionAdded, p.subject, key,
                                 lead: p.side, other: nil, leadIsA: leadIsA))
                continue
            }
            let fields = fieldEntries(p, transactions[j], leadIsA: leadIsA)
            if !fields.isEmpty {
                var e = entry(.transactionChanged, p.subject, key, lead: p.side, other: transactions[j].side, leadIsA: leadIsA)
                e.fields = fields
                out.append(e)
            }
        }
        for (j, _) in pairing.unmatchedB {
            let t = transactions[j]
            out.append(entry(leadIsA ? .transactionAdded : .transactionRemoved, t.subject, t.identity.key,
                             lead: nil, other: t.side, leadIsA: leadIsA))
        }
        return out
    }

    static func entry(_ kind: DiffKind, _ subject: String, _ key: String, lead: DiffSide?, other: DiffSide?,
                      leadIsA: Bool) -> DiffEntry {
        DiffEntry(kind: kind, subject: subject, key: key, a: leadIsA ? lead : other, b: leadIsA ? other : lead)
    }

    /// A field the leading side leaves out says nothing about it (Xcode receipts omit some); one it
    /// has as absent says "none", which a value on the other side contradicts.
    static func fieldEntries(_ p: PurchaseRecord, _ t: PurchaseRecord, leadIsA: Bool) -> [DiffEntry] {
        var out: [DiffEntry] = []
        for field in p.fields {
            let counterpart = t.field(field.name)
            guard field.comparable != counterpart?.comparable else { continue }
            out.append(entry(.fieldChanged, "\(field.label) ↔ \(field.name)", "", lead: field.side, other: counterpart?.side,
                             leadIsA: leadIsA).withoutKey)
        }
        return out
    }
}

/// Whole seconds since 1970 (floor), for comparing instants written at different precisions.
package func floorSeconds(_ milliseconds: Double) -> Int64 {
    guard milliseconds.isFinite, abs(milliseconds) < 9e18 else { return Int64.min }
    return Int64((milliseconds / 1000).rounded(.down))
}

extension DiffEntry {
    var withoutKey: DiffEntry {
        var e = self
        e.key = nil
        return e
    }
}
