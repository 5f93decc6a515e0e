import ASN1Lenient
import TestSupport

/// Parses hex text (spaces and line breaks ignored).
func parse(_ hex: String, options: ParseOptions = ParseOptions()) -> Tree {
    ASN1Parser.parse(DER.hex(hex), options: options)
}
