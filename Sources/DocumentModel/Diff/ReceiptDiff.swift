import ASN1Lenient
import ReceiptKit

/// One receipt as the diff reads it: the decoded model and the layer its node indices live in.
struct ReceiptSide {
    let document: Document
    let receipt: Receipt
    /// The layer of `receipt`'s node indices (the reassembled payload, or the file).
    let layer: LayerID

    init?(_ document: Document) {
        guard let receipt = document.receipt?.receipt else { return nil }
        self.document = document
        self.receipt = receipt
        layer = document.receipt?.payloadTree != nil && document.layers.count > 1 ? document.layers[1].id : .file
    }

    /// A field's value bytes and inner node, with the value as text.
    func side(_ field: ReceiptField) -> DiffSide {
        DiffSide(node: NodeID(layer, field.primaryNode), range: field.valueRange,
                 fileRange: document.fileRange(field.valueRange, in: layer), value: Self.text(field, receipt))
    }

    /// A purchase's attribute 17 SEQUENCE, shown by its product id.
    func side(_ purchase: InAppPurchase) -> DiffSide {
        let tree = document.layer(layer).tree!
        let range = tree.nodes[purchase.attributeNode].byteRange
        return DiffSide(node: NodeID(layer, purchase.attributeNode), range: range,
                        fileRange: document.fileRange(range, in: layer), value: purchase.productID)
    }

    /// The payload bytes (reassembled when chunked): equal payloads mean the same signed content.
    var payloadBytes: ArraySlice<UInt8> {
        let tree = document.layer(layer).tree!
        return tree.bytes[tree.nodes[receipt.payloadNode].byteRange]
    }

    static func text(_ field: ReceiptField, _ receipt: Receipt) -> String {
        switch field.value {
        case .string(let s): s
        case .integer(let v): String(v)
        case .bigInteger(let s): s
        case .date(let d): d.text
        case .absentDate: ""
        case .bytes: receipt.raw(field).map { hexByte($0) }.joined()
        case .inAppPurchase(let i): "in-app purchase \(i)"
        case .invalid(let why): "(invalid: \(why))"
        }
    }

    /// What two values are compared by: dates as instants, everything else as shown.
    static func key(_ field: ReceiptField, _ receipt: Receipt) -> String {
        if case .date(let d) = field.value { return "date \(d.epochMilliseconds)" }
        return text(field, receipt)
    }

    static func hexByte(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }
}

/// The semantic comparison of two receipts: attributes by type, purchases by transaction id, then
/// what signed them.
enum ReceiptDiff {
    static func entries(_ a: ReceiptSide, _ b: ReceiptSide) -> [DiffEntry] {
        var out = fieldEntries(a.receipt.fields.filter { $0.type != 17 }, b.receipt.fields.filter { $0.type != 17 },
                               a: a, b: b)
        out += purchaseEntries(a, b)
        return out
    }

    /// Attributes grouped by type and paired in file order within a type (a type may repeat).
    static func fieldEntries(_ xs: [ReceiptField], _ ys: [ReceiptField], a: ReceiptSide, b: ReceiptSide) -> [DiffEntry] {
        var byTypeA: [Int: [ReceiptField]] = [:], byTypeB: [Int: [ReceiptField]] = [:]
        for f in xs { byTypeA[f.type, default: []].append(f) }
        for f in ys { byTypeB[f.type, default: []].append(f) }
        var out: [DiffEntry] = []
        for type in Set(byTypeA.keys).union(byTypeB.keys).sorted() {
            let la = byTypeA[type] ?? [], lb = byTypeB[type] ?? []
            for k in 0..<max(la.count, lb.count) {
                let fa = k < la.count ? la[k] : nil, fb = k < lb.count ? lb[k] : nil
                let name = (fa ?? fb)!.displayName
                switch (fa, fb) {
                case let (x?, y?):
                    if ReceiptSide.key(x, a.receipt) != ReceiptSide.key(y, b.receipt) {
                        out.append(DiffEntry(kind: .attributeChanged, subject: name, a: a.side(x), b: b.side(y)))
                    }
                case let (x?, nil): out.append(DiffEntry(kind: .attributeRemoved, subject: name, a: a.side(x)))
                case let (nil, y?): out.append(DiffEntry(kind: .attributeAdded, subject: name, b: b.side(y)))
                default: break
                }
            }
        }
        return out
    }

    /// The transaction id, or the original transaction id and purchase date when it is missing.
    static func matchKey(_ p: InAppPurchase) -> String {
        if let id = p.transactionID, !id.isEmpty { return id }
        return "\(p.originalTransactionID ?? "?")@\(p.purchaseDate.map { String($0.epochMilliseconds) } ?? "?")"
    }

    static func purchaseEntries(_ a: ReceiptSide, _ b: ReceiptSide) -> [DiffEntry] {
        var indexB: [String: [Int]] = [:]
        for (i, p) in b.receipt.inApp.enumerated().reversed() { indexB[matchKey(p), default: []].append(i) }
        var matchedB = [Bool](repeating: false, count: b.receipt.inApp.count)
        var out: [DiffEntry] = []
        // The latest purchase date of each subscription chain on side A, for telling renewals.
        var chainEnd: [String: Int64] = [:]
        for p in a.receipt.inApp {
            guard let chain = p.originalTransactionID, let date = p.purchaseDate?.epochMilliseconds else { continue }
            chainEnd[chain] = max(chainEnd[chain] ?? date, date)
        }
        for p in a.receipt.inApp {
            let key = matchKey(p)
            guard let j = indexB[key]?.popLast() else {
                out.append(DiffEntry(kind: .purchaseRemoved, subject: p.productID ?? "", key: key, a: a.side(p)))
                continue
            }
            matchedB[j] = true
            let q = b.receipt.inApp[j]
            let fields = fieldEntries(p.fields, q.fields, a: a, b: b)
            guard !fields.isEmpty else { continue }
            let refunded = fields.contains { f in
                f.subject == ReceiptSchema.displayName(type: 1712, level: .inApp) && (f.a?.value ?? "").isEmpty
                    && !(f.b?.value ?? "").isEmpty
            }
            out.append(DiffEntry(kind: refunded ? .refund : .purchaseChanged, subject: p.productID ?? "", key: key,
                                 a: a.side(p), b: b.side(q), fields: fields,
                                 note: refunded ? "cancellation date appeared: \(q.cancellationDate?.text ?? "")" : nil))
        }
        for (j, q) in b.receipt.inApp.enumerated() where !matchedB[j] {
            var kind = DiffKind.purchaseAdded
            var note: String?
            if let chain = q.originalTransactionID, let end = chainEnd[chain],
               let date = q.purchaseDate?.epochMilliseconds, date > end {
                kind = .renewal
                note = "continues subscription chain \(chain)"
            }
            out.append(DiffEntry(kind: kind, subject: q.productID ?? "", key: matchKey(q), b: b.side(q), note: note))
        }
        return out
    }
}
