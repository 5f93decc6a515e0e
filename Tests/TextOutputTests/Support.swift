import ASN1Lenient
import TestSupport

/// Parses hex text (spaces and line breaks ignored).
func parse(_ hex: String, options: ParseOptions = ParseOptions()) -> Tree {
    ASN1Parser.parse(DER.hex(hex), options: options)
}

/// Codes for diagnostics that tests hand to the outputs as if a later layer (the receipt module)
/// had found them.
enum TestCode: String, DiagnosticCodeFamily {
    case receiptX = "receipt-x"
    case receiptTest = "receipt-test"
    case receiptNote = "receipt-note"
    case receiptBadNode = "receipt-bad-node"

    /// Unused: each test diagnostic states its severity.
    var severity: Severity { .info }
}
