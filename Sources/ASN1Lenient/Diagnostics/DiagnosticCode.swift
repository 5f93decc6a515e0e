/// A diagnostic's stable code ("length-exceeds-parent", "receipt-attribute-wrong-type", …).
///
/// Typed so that code is never compared as text: every code comes from a case of one of the code
/// families (`ParserCode`, TextLoader's `InputCode`, ReceiptKit's `ReceiptCode`, …), and comparisons are between
/// values (`d.code == ParserCode.truncatedContent.code`, `d.code.parserCode == .missingEOC`).
/// `rawValue` is the spelling every output format prints.
public struct DiagnosticCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init<Family: DiagnosticCodeFamily>(_ code: Family) { rawValue = code.rawValue }

    public var description: String { rawValue }
    public static func < (a: DiagnosticCode, b: DiagnosticCode) -> Bool { a.rawValue < b.rawValue }

    /// The parser's code, when the parser reported it.
    public var parserCode: ParserCode? { ParserCode(rawValue: rawValue) }
}

/// An enum of diagnostic codes (the parser's, the loader's, the JSON reader's, JWS decoding's, the
/// receipt module's): its raw values are the printed codes, each case has its severity, and every
/// family makes its findings the same way.
public protocol DiagnosticCodeFamily: RawRepresentable, Sendable, CaseIterable where RawValue == String {
    /// How bad a finding with this code is, unless the finding says otherwise.
    var severity: Severity { get }
}

extension DiagnosticCodeFamily {
    /// This case as a `Diagnostic.code`.
    public var code: DiagnosticCode { DiagnosticCode(self) }

    /// A finding with this code over `range`, about `node` when it concerns one, with the code's
    /// severity unless `severity` is given.
    public func diagnostic(_ message: String, _ range: Range<Int>, node: NodeIndex? = nil,
                           severity: Severity? = nil) -> Diagnostic {
        Diagnostic(severity: severity ?? self.severity, code: code, message: message,
                   offset: range.lowerBound, length: range.count, node: node)
    }
}

extension ParserCode: DiagnosticCodeFamily {}
