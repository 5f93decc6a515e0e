import DocumentCore

/// `timeline --format json`: one object {"documents", "groups", "findings"} and, when asked,
/// "at" and "transaction" (plain dictionaries; the command serialises them with sorted keys).
public enum TimelineJSON {
    public static func document(_ timeline: Timeline, at: Int64? = nil, lookup: TransactionLookup? = nil) -> [String: Any] {
        document(timeline, at: at, lookup: lookup, groups: true)
    }

    static func document(_ timeline: Timeline, at: Int64?, lookup: TransactionLookup?, groups: Bool) -> [String: Any] {
        var doc: [String: Any] = [
            "documents": timeline.names.enumerated().map { i, name in
                ["index": i + 1, "name": name, "kind": timeline.summaries[i]] as [String: Any]
            },
            "groups": !groups ? [] : timeline.groups.map { group in
                var g = groupFields(group)
                g["events"] = group.events.map(event)
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

    /// A group's object but its events.
    static func groupFields(_ group: TimelineGroup) -> [String: Any] {
        var g: [String: Any] = ["original_transaction_id": group.originalTransactionID,
                                "entitled": zip(group.entitled, group.endings).map { range, ending in
                                    ["from": Timeline.iso(range.lowerBound), "until": Timeline.iso(range.upperBound), "ending": ending]
                                }]
        g["subscription_group"] = group.subscriptionGroup as Any  // null when no document names it
        return g
    }

    /// The bytes `ReceiptJSON.serialize(document(…))` gives, handed to `emit` 64 KiB or so at a time and
    /// made one event at a time: a 20,000-purchase receipt's document was 11 MB of text made from
    /// ≈ 100,000 dictionaries, all held at once (issue 32).
    public static func write(_ timeline: Timeline, at: Int64? = nil, lookup: TransactionLookup? = nil, to emit: ([UInt8]) -> Void) {
        var out: [UInt8] = []
        func drain() {
            guard out.count >= 1 << 16 else { return }
            emit(out)
            out.removeAll(keepingCapacity: true)
        }
        func open(_ key: String, indent: Int) {
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            ReceiptJSON.writeString(key, into: &out)
            out += [0x3A, 0x20]
        }
        // Streams an array of `count` elements at `indent` as `ReceiptJSON.write` lays it out.
        func array(_ count: Int, indent: Int, element: (Int) -> Void) {
            if count == 0 { out += [0x5B, 0x5D]; return }
            out.append(0x5B)
            for i in 0..<count {
                out.append(0x0A)
                out += [UInt8](repeating: 0x20, count: indent + 2)
                element(i)
                if i < count - 1 { out.append(0x2C) }
                drain()
            }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            out.append(0x5D)
        }
        // An object whose keys are written by `value`, the one named `streamed` by `stream`.
        func object(_ fields: [String: Any], streamed: String, indent: Int, stream: () -> Void) {
            let keys = (Array(fields.keys) + [streamed]).sorted()
            out.append(0x7B)
            for (n, key) in keys.enumerated() {
                open(key, indent: indent + 2)
                if key == streamed { stream() } else { ReceiptJSON.write(fields[key]!, indent: indent + 2, into: &out) }
                if n < keys.count - 1 { out.append(0x2C) }
            }
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: indent)
            out.append(0x7D)
        }
        var top = document(timeline, at: at, lookup: lookup, groups: false)
        top["groups"] = nil
        object(top, streamed: "groups", indent: 0) {
            array(timeline.groups.count, indent: 2) { g in
                let group = timeline.groups[g]
                object(groupFields(group), streamed: "events", indent: 4) {
                    array(group.events.count, indent: 6) { i in ReceiptJSON.write(event(group.events[i]), indent: 8, into: &out) }
                }
            }
        }
        out.append(0x0A)
        emit(out)
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
