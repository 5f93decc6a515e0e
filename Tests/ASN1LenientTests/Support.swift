import Testing
import TestSupport
@testable import ASN1Lenient

// Paths, corpus availability and hex bytes come from Tests/TestSupport (`Paths`, `DER`).

/// Parses hex text (spaces and line breaks ignored).
func parse(_ hex: String, options: ParseOptions = ParseOptions()) -> Tree {
    ASN1Parser.parse(DER.hex(hex), options: options)
}
