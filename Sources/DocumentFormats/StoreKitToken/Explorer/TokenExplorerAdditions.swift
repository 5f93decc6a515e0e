import ByteText
import JWSKit
import DocumentCore

extension ExplorerAdditions {
    /// The purchase table and status-bar verdict of a StoreKit 2 document: one row per transaction
    /// token (the one transaction, a history response's, a notification's nested one). A row's
    /// target is the layer of the token's text: Enter jumps to the outline row that shows it, built
    /// then (the table never builds the outline's rows). Nil when the document holds no token.
    init?(tokensOf document: Document) {
        guard let model = document.jws, !model.tokens.isEmpty else { return nil }
        var purchases: [PurchaseRow] = []
        for token in model.tokens where token.kind == .transaction {
            let payload = token.document.payload
            func text(_ key: String) -> String { TerminalSafe.escape(payload.value(key)?.display ?? "") }
            var flags: [String] = []
            if payload.value("revocationDate") != nil { flags.append("revoked") }
            if payload.value("isUpgraded") == .bool(true) { flags.append("upgraded") }
            purchases.append(PurchaseRow(number: purchases.count + 1, target: .layer(token.layers.token),
                                         productID: text("productId"), transactionID: text("transactionId"),
                                         originalTransactionID: text("originalTransactionId"),
                                         purchaseDate: Self.date(payload.value("purchaseDate")), expiresDate: Self.date(payload.value("expiresDate")),
                                         quantity: text("quantity"), flags: flags.joined(separator: ",")))
        }
        self.init(purchases: purchases)
        setVerdict(document.verificationReport())
        rowsTitle = "Transactions"
    }

    /// The ISO instant alone (the table's date columns), not the milliseconds beside it.
    static func date(_ value: StoreKitValue?) -> String {
        if case .date(_, let iso)? = value { return TerminalSafe.escape(iso) }
        return TerminalSafe.escape(value?.display ?? "")
    }
}

/// Every format of verified tokens (a token, a JSON body of tokens, a developer-signed JWS) adds
/// its transactions table and verdict.
extension VerifiesTokens where Self: DocumentFormat {
    public func explorerAdditions(of document: Document) -> ExplorerAdditions? { ExplorerAdditions(tokensOf: document) }
}
