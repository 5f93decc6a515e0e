import ReceiptKit

/// What an entitlement check needs from a receipt, for `json`: the auto-renewable purchases active
/// at the moment (`--at`, default now) and the latest expiry per product and per original
/// transaction (a receipt carries no subscription group; StoreKit 2 tokens do, in their payload).
/// Dates in verifyReceipt's conventions, like the rest of the `json` document.
enum ReceiptSubscriptionsJSON {
    static func object(_ r: Receipt, at moment: ReceiptDate) -> [String: Any] {
        var latestByProduct: [String: ReceiptDate] = [:]
        var latestByOriginal: [String: ReceiptDate] = [:]
        for p in r.inApp where p.isAutoRenewable {
            guard let expires = p.expiresDate else { continue }
            if let product = p.productID, latestByProduct[product].map({ $0 < expires }) ?? true { latestByProduct[product] = expires }
            if let original = p.originalTransactionID ?? p.transactionID,
               latestByOriginal[original].map({ $0 < expires }) ?? true { latestByOriginal[original] = expires }
        }
        func dates(_ d: ReceiptDate) -> [String: Any] {
            ["expires_date": d.gmtString, "expires_date_ms": d.millisecondsString]
        }
        let active = r.activeSubscriptions(at: moment).map { p -> [String: Any] in
            var o: [String: Any] = ["in_app_index": p.index]
            if let v = p.productID { o["product_id"] = v }
            if let v = p.transactionID { o["transaction_id"] = v }
            if let v = p.originalTransactionID { o["original_transaction_id"] = v }
            if let d = p.expiresDate { o.merge(dates(d)) { a, _ in a } }
            return o
        }
        return [
            "at": moment.gmtString, "at_ms": moment.millisecondsString,
            "active": active,
            "latest_expiry_by_product": latestByProduct.mapValues(dates),
            "latest_expiry_by_original_transaction": latestByOriginal.mapValues(dates),
        ]
    }
}
