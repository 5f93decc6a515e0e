import JWSKit
import ReceiptKit

/// A receipt against StoreKit 2 transactions, matched by transaction id and compared through the
/// migration table (`ReceiptFieldMap`): product_id ↔ productId, dates as instants (RFC 3339 text
/// against milliseconds), numbers against strings by their text.
enum CrossDiff {
    /// (in-app attribute type, JWS transaction field) for every one-to-one row of the table; the
    /// Apple-private product type (1707) has no one-to-one JWS value and is left out.
    static let mappings: [(type: Int, field: String)] = ReceiptFieldMap.rows.compactMap { row in
        let prefix = "JWSTransactionDecodedPayload."
        guard let type = row.attributeType, type >= 1701, type != 1707, row.jws.hasPrefix(prefix) else { return nil }
        let field = String(row.jws.dropFirst(prefix.count))
        guard field.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        return (type, field)
    }

    static func entries(_ receipt: ReceiptSide, _ storeKit: StoreKitSide, receiptIsA: Bool) -> [DiffEntry] {
        let transactions = storeKit.transactions
        let purchases = receipt.receipt.inApp
        let pairing = PurchasePairing(purchases.map(ReceiptDiff.identity), transactions.map(storeKit.identity))
        var out: [DiffEntry] = []
        for (i, p) in purchases.enumerated() {
            let key = ReceiptDiff.matchKey(p)
            guard let j = pairing.counterpartOfA[i] else {
                out.append(entry(receiptIsA ? .transactionRemoved : .transactionAdded, p.productID ?? "", key,
                                 receipt: receipt.side(p), storeKit: nil, receiptIsA: receiptIsA))
                continue
            }
            let fields = fieldEntries(p, receipt, transactions[j], storeKit, receiptIsA: receiptIsA)
            if !fields.isEmpty {
                var e = entry(.transactionChanged, p.productID ?? "", key, receipt: receipt.side(p),
                              storeKit: storeKit.transactionSide(transactions[j]), receiptIsA: receiptIsA)
                e.fields = fields
                out.append(e)
            }
        }
        for (j, _) in pairing.unmatchedB {
            let t = transactions[j]
            out.append(entry(receiptIsA ? .transactionAdded : .transactionRemoved,
                             storeKit.token(t).document.payload.string("productId") ?? "",
                             storeKit.identity(t).key, receipt: nil, storeKit: storeKit.transactionSide(t), receiptIsA: receiptIsA))
        }
        return out
    }

    static func entry(_ kind: DiffKind, _ subject: String, _ key: String, receipt: DiffSide?, storeKit: DiffSide?,
                      receiptIsA: Bool) -> DiffEntry {
        DiffEntry(kind: kind, subject: subject, key: key, a: receiptIsA ? receipt : storeKit, b: receiptIsA ? storeKit : receipt)
    }

    static func fieldEntries(_ p: InAppPurchase, _ r: ReceiptSide, _ t: Int, _ s: StoreKitSide,
                             receiptIsA: Bool) -> [DiffEntry] {
        var out: [DiffEntry] = []
        for (type, name) in mappings {
            // A receipt that leaves an attribute out says nothing about it (Xcode receipts omit 1705,
            // 1706 and 1711); an empty one says "none", which a StoreKit 2 value contradicts.
            guard let field = p.field(type) else { continue }
            let jws = s.token(t).document.payload.field(name)
            guard comparable(field, r.receipt) != comparable(jws) else { continue }
            let subject = "\(ReceiptSchema.displayName(type: type, level: .inApp)) ↔ \(name)"
            out.append(entry(.fieldChanged, subject, "", receipt: r.side(field), storeKit: jws.map { s.side(t, $0) },
                             receiptIsA: receiptIsA).withoutKey)
        }
        return out
    }

    /// The value a receipt field is compared by: dates as whole seconds (receipts write whole
    /// seconds, StoreKit 2 milliseconds, Xcode's with a fraction), empty dates as absent, and a web
    /// order line item id of 0 as absent (receipts write 0 for purchases that are not subscriptions;
    /// StoreKit 2 leaves the field out or writes "0").
    static func comparable(_ f: ReceiptField?, _ receipt: Receipt) -> String? {
        guard let f else { return nil }
        if f.type == 1711, f.value.integer == 0 { return nil }
        switch f.value {
        case .date(let d): return "date " + String(floorSeconds(Double(d.epochMilliseconds)))
        case .absentDate: return nil
        default:
            let text = ReceiptSide.text(f, receipt)
            return text.isEmpty ? nil : text
        }
    }

    static func comparable(_ f: StoreKitField?) -> String? {
        guard let f else { return nil }
        switch f.value {
        case .date(let ms, _): return "date " + String(floorSeconds(ms))
        case .string(let s): return f.name == "webOrderLineItemId" && s == "0" ? nil : s
        case .integer(let i): return String(i)
        case .null: return nil
        default: return f.value.display
        }
    }
}

/// Whole seconds since 1970 (floor), for comparing instants written at different precisions.
func floorSeconds(_ milliseconds: Double) -> Int64 {
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
