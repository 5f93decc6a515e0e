/// A diagnostic's stable code ("length-exceeds-parent", "receipt-attribute-wrong-type", …).
///
/// Typed so that code is never compared as text: every code comes from a case of one of the code
/// families (`ParserCode`, `InputCode`, ReceiptKit's `ReceiptCode`), and comparisons are between
/// values (`d.code == ParserCode.truncatedContent.code`, `d.code.parserCode == .missingEOC`).
/// `rawValue` is the spelling every output format prints.
public struct DiagnosticCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init<Family: DiagnosticCodeFamily>(_ code: Family) { rawValue = code.rawValue }

    public var description: String { rawValue }
    public static func < (a: DiagnosticCode, b: DiagnosticCode) -> Bool { a.rawValue < b.rawValue }

    /// The parser's code, when the parser reported it.
    public var parserCode: ParserCode? { ParserCode(rawValue: rawValue) }
    /// The loader's code, when the loader reported it.
    public var inputCode: InputCode? { InputCode(rawValue: rawValue) }
}

/// An enum of diagnostic codes: its raw values are the printed codes.
public protocol DiagnosticCodeFamily: RawRepresentable, Sendable where RawValue == String {}

extension DiagnosticCodeFamily {
    /// This case as a `Diagnostic.code`.
    public var code: DiagnosticCode { DiagnosticCode(self) }
}

extension ParserCode: DiagnosticCodeFamily {}
extension InputCode: DiagnosticCodeFamily {}
