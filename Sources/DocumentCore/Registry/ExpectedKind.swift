import JWSKit

/// What the user said the input is (`--expect`), checked against what it turned out to be, so
/// that passing one kind where another was meant gets a sentence rather than a puzzling output.
/// Which kinds satisfy an expectation, and the hint for a mismatch, come from the kind's format.
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
        let format = FormatRegistry.format(of: kind)
        if format.expectation(kind) == self { return nil }
        let hint = format.hint(expected: self, found: kind)
        return "this is \(format.foundPhrase(kind)), not \(phrase)\(hint.map { ": " + $0 } ?? "")"
    }
}

extension DocumentFormat {
    public func expectation(_ kind: DocumentKind) -> ExpectedKind? { nil }
    public func foundPhrase(_ kind: DocumentKind) -> String { kind.summary }
    public func hint(expected: ExpectedKind, found kind: DocumentKind) -> String? { nil }
}
