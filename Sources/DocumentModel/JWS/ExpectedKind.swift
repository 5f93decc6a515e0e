import JWSKit

/// What the user said the input is (`--expect`), checked against what it turned out to be, so
/// that passing one kind where another was meant gets a sentence rather than a puzzling output.
public enum ExpectedKind: String, Sendable, CaseIterable {
    case transaction, renewal
    case appTransaction = "app-transaction"
    case notification, history, receipt

    /// "a transaction", "an App Store receipt", …
    public var phrase: String {
        switch self {
        case .transaction: "a transaction"
        case .renewal: "a renewal info"
        case .appTransaction: "an app transaction"
        case .notification: "a notification"
        case .history: "a transaction history"
        case .receipt: "an App Store receipt"
        }
    }

    /// Nil when `kind` is what was expected; else one sentence saying what it is instead and what
    /// to do: "this is a renewal info token (JWSRenewalInfoDecodedPayload), not a transaction: …".
    public func mismatch(_ kind: DocumentKind) -> String? {
        if matches(kind) { return nil }
        return "this is \(Self.describe(kind)), not \(phrase)\(hint(kind).map { ": " + $0 } ?? "")"
    }

    func matches(_ kind: DocumentKind) -> Bool {
        switch (self, kind) {
        case (.transaction, .transaction), (.renewal, .renewalInfo), (.appTransaction, .appTransaction),
             (.notification, .notification), (.history, .transactionHistory): true
        case (.receipt, _): kind.isReceipt
        default: false
        }
    }

    static func describe(_ kind: DocumentKind) -> String {
        switch kind {
        case .transaction: "a transaction token (\(StoreKitPayloadKind.transaction.rawValue))"
        case .renewalInfo: "a renewal info token (\(StoreKitPayloadKind.renewalInfo.rawValue))"
        case .appTransaction: "an app transaction token (\(StoreKitPayloadKind.appTransaction.rawValue))"
        case .notification: "an App Store Server Notification V2 (\(StoreKitPayloadKind.notification.rawValue))"
        default: kind.summary
        }
    }

    func hint(_ kind: DocumentKind) -> String? {
        switch (self, kind) {
        case (.transaction, .renewalInfo), (.renewal, .transaction):
            return "a notification's data carries both, signedTransactionInfo (the transaction) and signedRenewalInfo (the renewal info); decode each with its own type"
        case (.transaction, .notification), (.renewal, .notification):
            return "the notification nests it at data.\(self == .transaction ? "signedTransactionInfo" : "signedRenewalInfo"); `dump` and `json` show it decoded in place"
        case (.transaction, .transactionHistory):
            return "each of its signedTransactions is one; `json` lists them decoded"
        case (.transaction, .appTransaction), (.appTransaction, .transaction):
            return "AppTransaction (AppTransaction.shared) describes the app's purchase; a Transaction describes one in-app purchase"
        case (.notification, .transaction), (.notification, .renewalInfo):
            return "a notification is the signedPayload of an App Store Server Notification V2 request body"
        case (.receipt, _) where kind.isStoreKit2:
            return "StoreKit 2 JWS is not the PKCS#7 app receipt; drop --expect receipt to read it"
        case (_, .receipt), (_, .xcodeTestingReceipt):
            return "the app receipt (StoreKit 1) holds in_app purchases; a StoreKit 2 \(rawValue) is a JWS (Transaction.jwsRepresentation or the App Store Server API)"
        case (_, .legacyTransactionReceipt), (_, .asn1), (_, .certificate), (_, .signedData):
            return nil
        default:
            return nil
        }
    }
}
