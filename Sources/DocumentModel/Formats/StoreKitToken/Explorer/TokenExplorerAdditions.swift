import DocumentModel
import JWSKit

/// The purchase table and status-bar verdict of a StoreKit 2 document: one row per transaction
/// token (the one transaction, a history response's, a notification's nested one). A row's target
/// is the token's index in `JWSModel.tokens`: Enter jumps to the outline row that shows it, built
/// then (the table never builds the outline's rows).
enum JWSOverlay {
    static func make(_ document: Document) -> ReceiptOverlay? {
        guard let model = document.jws, !model.tokens.isEmpty else { return nil }
        var purchases: [PurchaseRow] = []
        for (index, token) in model.tokens.enumerated() where token.kind == .transaction {
            let payload = token.document.payload
            func text(_ key: String) -> String { UIText.escape(payload.value(key)?.display ?? "") }
            var flags: [String] = []
            if payload.value("revocationDate") != nil { flags.append("revoked") }
            if payload.value("isUpgraded") == .bool(true) { flags.append("upgraded") }
            purchases.append(PurchaseRow(number: purchases.count + 1, target: .layer(token.layers.token),
                                         productID: text("productId"), transactionID: text("transactionId"),
                                         originalTransactionID: text("originalTransactionId"),
                                         purchaseDate: date(payload.value("purchaseDate")), expiresDate: date(payload.value("expiresDate")),
                                         quantity: text("quantity"), flags: flags.joined(separator: ",")))
        }
        let verified = model.tokens.contains { $0.report != nil }
        let verdict = !verified ? "not verified" : (model.allValid ? "valid" : "INVALID")
        var overlay = ReceiptOverlay(purchases: purchases, verdict: verdict, verdictFailed: verified && !model.allValid)
        overlay.rowsTitle = "Transactions"
        return overlay
    }

    /// The ISO instant alone (the table's date columns), not the milliseconds beside it.
    static func date(_ value: StoreKitValue?) -> String {
        if case .date(_, let iso)? = value { return UIText.escape(iso) }
        return UIText.escape(value?.display ?? "")
    }
}
