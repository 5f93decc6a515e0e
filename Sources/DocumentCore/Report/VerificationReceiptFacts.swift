#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit

/// What the text report of a receipt shows beside the steps, for `verify --format json`: the
/// receipt's fields, its purchases, the subscriptions active at `--at` and the latest expiry per
/// product and per original transaction (what an entitlement check needs; a receipt names no
/// subscription group). Values as decoded; dates as `Date`, written ISO 8601 like the rest of the report.
public struct VerificationReceiptFacts: Sendable, Equatable {
    public struct Purchase: Sendable, Equatable {
        /// Position in the receipt's in-app list (`json`'s `in_app[i]`).
        public var index: Int
        public var productID: String?
        public var transactionID: String?
        public var originalTransactionID: String?
        public var quantity: Int64?
        public var purchaseDate: Date?
        public var expiresDate: Date?
        public var cancellationDate: Date?
    }

    public var bundleID: String?
    public var appVersion: String?
    public var originalAppVersion: String?
    public var receiptType: String?
    public var creationDate: Date?
    /// Read from the receipt when asked for: only the JSON report lists them, and a 20,000-purchase
    /// receipt's list with its strings was 6.5 MB at every `verify`'s peak.
    public var purchases: [Purchase] { source.inApp.map(Self.purchase) }
    /// Indices into `purchases` of the auto-renewable ones active at `at`.
    public var active: [Int]
    public var at: Date
    public var latestExpiryByProduct: [String: Date]
    public var latestExpiryByOriginalTransaction: [String: Date]

    private let source: Receipt

    package init(_ r: Receipt, at moment: Date) {
        source = r
        bundleID = r.bundleID
        appVersion = r.appVersion
        originalAppVersion = r.originalAppVersion
        receiptType = r.receiptType
        creationDate = r.creationDate?.date
        at = moment
        active = r.activeSubscriptions(at: ReceiptDate(moment)).map(\.index)
        var byProduct: [String: Date] = [:], byOriginal: [String: Date] = [:]
        for p in r.inApp where p.isAutoRenewable {
            guard let expires = p.expiresDate?.date else { continue }
            if let product = p.productID { byProduct[product] = max(byProduct[product] ?? expires, expires) }
            if let original = p.originalTransactionID ?? p.transactionID { byOriginal[original] = max(byOriginal[original] ?? expires, expires) }
        }
        latestExpiryByProduct = byProduct
        latestExpiryByOriginalTransaction = byOriginal
    }

    static func purchase(_ p: InAppPurchase) -> Purchase {
        Purchase(index: p.index, productID: p.productID, transactionID: p.transactionID,
                 originalTransactionID: p.originalTransactionID, quantity: p.quantity,
                 purchaseDate: p.purchaseDate?.date, expiresDate: p.expiresDate?.date,
                 cancellationDate: p.cancellationDate?.date)
    }

    /// Each purchase in list order, made one at a time (the JSON report writes them as it goes).
    public func forEachPurchase(_ body: (Purchase) -> Void) {
        for p in source.inApp { body(Self.purchase(p)) }
    }

    /// The purchase at position `index` of the in-app list.
    public func purchase(at index: Int) -> Purchase? {
        source.inApp.first { $0.index == index }.map(Self.purchase)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.bundleID == b.bundleID && a.appVersion == b.appVersion && a.originalAppVersion == b.originalAppVersion
            && a.receiptType == b.receiptType && a.creationDate == b.creationDate && a.active == b.active && a.at == b.at
            && a.latestExpiryByProduct == b.latestExpiryByProduct
            && a.latestExpiryByOriginalTransaction == b.latestExpiryByOriginalTransaction && a.purchases == b.purchases
    }
}

extension VerificationJSON {
    static func object(_ f: VerificationReceiptFacts) -> [String: Any] {
        var o: [String: Any] = [:]
        if let v = f.bundleID { o["bundle_id"] = v }
        if let v = f.appVersion { o["application_version"] = v }
        if let v = f.originalAppVersion { o["original_application_version"] = v }
        if let v = f.receiptType { o["receipt_type"] = v }
        if let v = f.creationDate { o["creation_date"] = date(v) }
        let purchases = f.purchases.map { p -> [String: Any] in
            var po: [String: Any] = ["index": p.index]
            if let v = p.productID { po["product_id"] = v }
            if let v = p.transactionID { po["transaction_id"] = v }
            if let v = p.originalTransactionID { po["original_transaction_id"] = v }
            if let v = p.quantity { po["quantity"] = Int(v) }
            if let v = p.purchaseDate { po["purchase_date"] = date(v) }
            if let v = p.expiresDate { po["expires_date"] = date(v) }
            if let v = p.cancellationDate { po["cancellation_date"] = date(v) }
            return po
        }
        o["purchases"] = purchases
        o["subscriptions"] = [
            "at": date(f.at),
            "active": f.active.compactMap { i in purchases.first { $0["index"] as? Int == i } },
            "latest_expiry_by_product": f.latestExpiryByProduct.mapValues(date),
            "latest_expiry_by_original_transaction": f.latestExpiryByOriginalTransaction.mapValues(date),
        ] as [String: Any]
        return o
    }
}
