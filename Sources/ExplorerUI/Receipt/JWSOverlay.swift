import DocumentModel
import JWSKit

/// The purchase table and status-bar verdict of a StoreKit 2 document: one row per transaction
/// token (the one transaction, a history response's, a notification's nested one). A row's `node`
/// is the row of the layer outline that shows the token, so Enter jumps there.
enum JWSOverlay {
    static func make(_ document: Document) -> ReceiptOverlay? {
        guard let model = document.jws, !model.tokens.isEmpty, let outline = LayerOutline(document: document) else { return nil }
        var purchases: [PurchaseRow] = []
        // Each token's row, found in one pass (a history of many tokens must not search per token).
        var tokenRows: [LayerID: Int] = [:]
        let tokenLayers = Set(model.tokens.map(\.layers.token))
        for (i, row) in outline.rows.enumerated() where row.node.index == 0 && tokenLayers.contains(row.node.layer) && tokenRows[row.node.layer] == nil {
            tokenRows[row.node.layer] = i
        }
        for token in model.tokens where token.kind == .transaction {
            guard let row = tokenRows[token.layers.token] else { continue }
            let payload = token.document.payload
            func text(_ key: String) -> String { UIText.escape(payload.value(key)?.display ?? "") }
            var flags: [String] = []
            if payload.value("revocationDate") != nil { flags.append("revoked") }
            if payload.value("isUpgraded") == .bool(true) { flags.append("upgraded") }
            purchases.append(PurchaseRow(number: purchases.count + 1, node: row, nodeRange: row..<outline.rows[row].subtreeEnd,
                                         productID: text("productId"), transactionID: text("transactionId"),
                                         originalTransactionID: text("originalTransactionId"),
                                         purchaseDate: date(payload.value("purchaseDate")), expiresDate: date(payload.value("expiresDate")),
                                         quantity: text("quantity"), flags: flags.joined(separator: ",")))
        }
        let verified = model.tokens.contains { $0.report != nil }
        let verdict = !verified ? "not verified" : (model.allValid ? "valid" : "INVALID")
        return ReceiptOverlay(purchases: purchases, verdict: verdict, verdictFailed: verified && !model.allValid)
    }

    /// The ISO instant alone (the table's date columns), not the milliseconds beside it.
    static func date(_ value: StoreKitValue?) -> String {
        if case .date(_, let iso)? = value { return UIText.escape(iso) }
        return UIText.escape(value?.display ?? "")
    }
}
