import DocumentCore

/// `timeline --format json`: one object {"documents", "groups", "findings"} and, when asked,
/// "at" and "transaction" (plain dictionaries; the command serialises them with sorted keys).
public enum TimelineJSON {
    public static func document(_ timeline: Timeline, at: Int64? = nil, lookup: TransactionLookup? = nil) -> [String: Any] {
        var doc: [String: Any] = [
            "documents": timeline.names.enumerated().map { i, name in
                ["index": i + 1, "name": name, "kind": timeline.summaries[i]] as [String: Any]
            },
            "groups": timeline.groups.map { group in
                var g: [String: Any] = ["original_transaction_id": group.originalTransactionID, "events": group.events.map(event),
                                        "entitled": zip(group.entitled, group.endings).map { range, ending in
                                            ["from": Timeline.iso(range.lowerBound), "until": Timeline.iso(range.upperBound), "ending": ending]
                                        }]
                g["subscription_group"] = group.subscriptionGroup as Any  // null when no document names it
                return g
            },
            "findings": timeline.findings.map { f in
                ["code": f.code, "severity": "warning", "message": f.message, "sources": f.sources.map(source)] as [String: Any]
            },
        ]
        if let at {
            doc["at"] = ["date": Timeline.iso(at), "groups": timeline.groups.map { group in
                let state = group.state(at: at)
                return ["original_transaction_id": group.originalTransactionID, "entitled": state.entitled, "state": state.text] as [String: Any]
            }] as [String: Any]
        }
        if let lookup {
            doc["transaction"] = [
                "id": lookup.id,
                "mentions": lookup.mentions.map { m in source(m.source).merging(["field": m.field]) { a, _ in a } },
                "absent_from_receipts": lookup.absences.map { a in
                    ["document": a.document + 1, "reason": a.reason, "explained": a.explained] as [String: Any]
                },
            ] as [String: Any]
        }
        return doc
    }

    static func event(_ e: TimelineEvent) -> [String: Any] {
        var out: [String: Any] = ["kind": e.kind.rawValue, "date": Timeline.iso(e.date), "date_ms": e.date, "sources": e.sources.map(source)]
        if let v = e.transactionID { out["transaction_id"] = v }
        if let v = e.productID { out["product_id"] = v }
        if let v = e.detail { out["detail"] = v }
        if let v = e.undelivered { out["not_delivered"] = v }
        if let v = e.until { out["until"] = Timeline.iso(v) }
        return out
    }

    static func source(_ s: TimelineSource) -> [String: Any] {
        var out: [String: Any] = ["document": s.document + 1, "place": s.place]
        if let node = s.node {
            out["layer"] = node.layer.index
            out["node"] = node.index
        }
        if let offset = s.fileOffset { out["file_offset"] = offset }
        return out
    }
}
