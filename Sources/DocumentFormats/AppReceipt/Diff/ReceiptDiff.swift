import ASN1Lenient
import ReceiptKit
import ByteText
import DocumentCore
import DocumentDiff

/// The semantic comparison of two receipts: attributes by type, purchases by transaction id, then
/// what signed them.
enum ReceiptDiff {
    /// Attributes, then purchases (made when read: `purchaseEntries`).
    static func entries(_ a: ReceiptSide, _ b: ReceiptSide) -> DiffEntries {
        var out = DiffEntries(fieldEntries(a.receipt.fields.filter { $0.type != 17 }, b.receipt.fields.filter { $0.type != 17 },
                                           a: a, b: b))
        purchaseEntries(a, b, into: &out)
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

    /// One purchase entry as the purchases it names, its words made when it is read: 8 bytes, the
    /// kind in the indices (A's -1: added, -2: a renewal; B's -1: removed).
    struct PurchaseEntry {
        enum Kind { case removed, changed, added, renewal }
        var a: Int32
        var b: Int32

        init(a: Int, b: Int?) {
            self.a = Int32(a)
            self.b = b.map(Int32.init) ?? -1
        }

        init(addedB b: Int, renewal: Bool) {
            a = renewal ? -2 : -1
            self.b = Int32(b)
        }

        var kind: Kind { a == -1 ? .added : a == -2 ? .renewal : b < 0 ? .removed : .changed }
    }

    /// Appended to `out` as a run made when read: which purchases differ is found now, and each
    /// entry's strings are made when it is written. Kept whole, two 50 MB receipts' 162,897 entries
    /// and their strings were 86 MB beside the two documents (issue 32); now 1.3 MB.
    static func purchaseEntries(_ a: ReceiptSide, _ b: ReceiptSide, into out: inout DiffEntries) {
        // Identities made when asked, not listed: a 20,000-purchase receipt's took 5 MB a side.
        let inAppA = a.receipt.inApp, inAppB = b.receipt.inApp
        let pairing = PurchasePairing(countA: inAppA.count, countB: inAppB.count,
                                      a: { identity(inAppA[$0]) }, b: { identity(inAppB[$0]) })
        var found: [PurchaseEntry] = []
        found.reserveCapacity(inAppA.count + pairing.unmatchedB.count)
        for (i, p) in inAppA.enumerated() {
            guard let j = pairing.counterpartOfA[i] else {
                found.append(PurchaseEntry(a: i, b: nil))
                continue
            }
            if !fieldEntries(p.fields, inAppB[j].fields, a: a, b: b).isEmpty {
                found.append(PurchaseEntry(a: i, b: j))
            }
        }
        for (j, chain) in pairing.unmatchedB {
            found.append(PurchaseEntry(addedB: j, renewal: chain != nil))
        }
        let entries = found
        out.append(count: entries.count) { purchaseEntry(entries[$0], a, b) }
    }

    /// The entry `found` stands for.
    static func purchaseEntry(_ found: PurchaseEntry, _ a: ReceiptSide, _ b: ReceiptSide) -> DiffEntry {
        switch found.kind {
        case .removed:
            let p = a.receipt.inApp[Int(found.a)], id = identity(p)
            return DiffEntry(kind: .purchaseRemoved, subject: p.productID ?? "", key: id.key, a: a.side(p),
                             note: id.isFallback ? PurchaseIdentity.fallbackNote : nil)
        case .changed:
            let p = a.receipt.inApp[Int(found.a)], q = b.receipt.inApp[Int(found.b)], id = identity(p)
            let fields = fieldEntries(p.fields, q.fields, a: a, b: b)
            let refunded = fields.contains { f in
                f.subject == ReceiptSchema.displayName(type: 1712, level: .inApp) && (f.a?.value ?? "").isEmpty
                    && !(f.b?.value ?? "").isEmpty
            }
            return DiffEntry(kind: refunded ? .refund : .purchaseChanged, subject: p.productID ?? "", key: id.key,
                             a: a.side(p), b: b.side(q), fields: fields,
                             note: PurchasePairing.note(refunded ? "cancellation date appeared: \(q.cancellationDate?.text ?? "")" : nil,
                                                        id.isFallback ? PurchaseIdentity.fallbackNote : nil))
        case .added, .renewal:
            // A renewal continues the chain of its own original transaction id (`PurchasePairing`).
            let q = b.receipt.inApp[Int(found.b)], id = identity(q)
            let chain = found.kind == .renewal ? q.originalTransactionID : nil
            return DiffEntry(kind: found.kind == .renewal ? .renewal : .purchaseAdded, subject: q.productID ?? "", key: id.key,
                             b: b.side(q),
                             note: PurchasePairing.note(chain.map(PurchasePairing.renewalNote),
                                                        id.isFallback ? PurchaseIdentity.fallbackNote : nil))
        }
    }
}
