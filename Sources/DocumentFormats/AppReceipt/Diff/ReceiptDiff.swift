import ASN1Lenient
import ReceiptKit
import ByteText
import DocumentCore
import DocumentDiff

/// The semantic comparison of two receipts: attributes by type, purchases by transaction id, then
/// what signed them.
enum ReceiptDiff {
    /// `room`: entries the caller appends after these (the signing's), kept room for.
    static func entries(_ a: ReceiptSide, _ b: ReceiptSide, room: Int) -> [DiffEntry] {
        var out = fieldEntries(a.receipt.fields.filter { $0.type != 17 }, b.receipt.fields.filter { $0.type != 17 },
                               a: a, b: b)
        purchaseEntries(a, b, into: &out, room: room)
        return out
    }

    /// Attributes grouped by type and paired in file order within a type (a type may repeat).
    static func fieldEntries<X: Sequence<ReceiptField>, Y: Sequence<ReceiptField>>(_ xs: X, _ ys: Y, a: ReceiptSide,
                                                                                 b: ReceiptSide) -> [DiffEntry] {
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

    static func identity(_ p: InAppPurchase) -> PurchaseIdentity {
        PurchaseIdentity(transactionID: p.transactionID, originalTransactionID: p.originalTransactionID,
                         purchaseDate: p.purchaseDate?.epochMilliseconds)
    }

    /// The transaction id, or the original transaction id and purchase date when it is missing.
    static func matchKey(_ p: InAppPurchase) -> String { identity(p).key }

    /// Appended to `out`, which has room for every entry there can be (one a purchase of A, one an
    /// unmatched purchase of B) and `room` more: grown by doubling, two receipts' 163,000 entries
    /// held a copy beside the old list, 50 MB (issue 32). Room not written is address space.
    static func purchaseEntries(_ a: ReceiptSide, _ b: ReceiptSide, into out: inout [DiffEntry], room: Int) {
        // Identities made when asked, not listed: a 20,000-purchase receipt's took 5 MB a side.
        let inAppA = a.receipt.inApp, inAppB = b.receipt.inApp
        let pairing = PurchasePairing(countA: inAppA.count, countB: inAppB.count,
                                      a: { identity(inAppA[$0]) }, b: { identity(inAppB[$0]) })
        out.reserveCapacity(out.count + inAppA.count + pairing.unmatchedB.count + room)
        for (i, p) in inAppA.enumerated() {
            let id = identity(p), key = id.key
            let fallback = id.isFallback ? PurchaseIdentity.fallbackNote : nil
            guard let j = pairing.counterpartOfA[i] else {
                out.append(DiffEntry(kind: .purchaseRemoved, subject: p.productID ?? "", key: key, a: a.side(p), note: fallback))
                continue
            }
            let q = inAppB[j]
            let fields = fieldEntries(p.fields, q.fields, a: a, b: b)
            guard !fields.isEmpty else { continue }
            let refunded = fields.contains { f in
                f.subject == ReceiptSchema.displayName(type: 1712, level: .inApp) && (f.a?.value ?? "").isEmpty
                    && !(f.b?.value ?? "").isEmpty
            }
            out.append(DiffEntry(kind: refunded ? .refund : .purchaseChanged, subject: p.productID ?? "", key: key,
                                 a: a.side(p), b: b.side(q), fields: fields,
                                 note: PurchasePairing.note(refunded ? "cancellation date appeared: \(q.cancellationDate?.text ?? "")" : nil,
                                                            fallback)))
        }
        for (j, chain) in pairing.unmatchedB {
            let q = inAppB[j], id = identity(q)
            out.append(DiffEntry(kind: chain == nil ? .purchaseAdded : .renewal, subject: q.productID ?? "", key: id.key,
                                 b: b.side(q),
                                 note: PurchasePairing.note(chain.map(PurchasePairing.renewalNote),
                                                            id.isFallback ? PurchaseIdentity.fallbackNote : nil)))
        }
    }
}
