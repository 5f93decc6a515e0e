import ASN1Lenient

/// The stable diagnostic codes of the JSON reader (kebab-case, `json-` prefix).
public enum JSONCode: String, Sendable, CaseIterable {
    case emptyInput = "json-empty-input"
    case unexpectedCharacter = "json-unexpected-character"
    case unexpectedEnd = "json-unexpected-end"
    case invalidLiteral = "json-invalid-literal"
    case invalidNumber = "json-invalid-number"
    case numberBeyond53Bits = "json-number-beyond-53-bits"
    case unterminatedString = "json-unterminated-string"
    case invalidEscape = "json-invalid-escape"
    case loneSurrogate = "json-lone-surrogate"
    case controlCharacter = "json-control-character"
    case invalidUTF8 = "json-invalid-utf8"
    case expectedKey = "json-expected-key"
    case expectedColon = "json-expected-colon"
    case expectedComma = "json-expected-comma"
    case trailingComma = "json-trailing-comma"
    case mismatchedBracket = "json-mismatched-bracket"
    case duplicateKey = "json-duplicate-key"
    case nestingTooDeep = "json-nesting-too-deep"
    case trailingData = "json-trailing-data"

    public var severity: Severity {
        switch self {
        case .numberBeyond53Bits: .warning
        default: .error
        }
    }
}
extension JSONCode: DiagnosticCodeFamily {}

extension DiagnosticCode {
    /// The JSON reader's code, when the JSON reader reported it.
    public var jsonCode: JSONCode? { JSONCode(rawValue: rawValue) }
}
