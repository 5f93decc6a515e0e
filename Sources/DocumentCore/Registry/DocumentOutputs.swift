import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `dump` and `explain` show a document: the file's ASN.1 tree (receipts, certificates, other
/// ASN.1, text as one unparsed region), or its layers (a token's segments, a body's tokens).
public enum DocumentLayout: Sendable, Equatable {
    case asn1File
    case layers
}

/// The `json` command's document (pretty, one trailing newline) and the code of its first error
/// (nil: no error, exit status 0).
public struct JSONReading {
    public var firstError: String?
    /// Writes the document to the sink it is given, in pieces as they are made: a large one (a
    /// 20,000-purchase receipt's is 60 MB) is never held whole.
    public let write: ((UnsafeRawBufferPointer) -> Void) -> Void

    package init(text: String, firstError: String? = nil) {
        self.firstError = firstError
        write = { sink in
            var text = text
            text.withUTF8 { sink(UnsafeRawBufferPointer($0)) }
        }
    }

    package init(firstError: String?, write: @escaping ((UnsafeRawBufferPointer) -> Void) -> Void) {
        self.firstError = firstError
        self.write = write
    }
}

/// What a format adds to the commands' outputs, beside recognising and opening. The commands ask
/// the document's format (`Document.format`) instead of asking which kind the document is.
public protocol DocumentOutputs {
    var layout: DocumentLayout { get }
    /// `json`'s object; nil when the kind has no JSON reading here (the caller says "not a receipt").
    func json(_ document: Document, words: StepText) -> JSONReading?
    /// A batch `json` line: the compact object with `"source"` (the file, replacing the byte
    /// ranges) and `"line"`; nil as for `json`. Formats with a streamed writer override it.
    func jsonLine(_ document: Document, words: StepText, source: BatchSourceFields) -> JSONLine?
    /// `verify`'s report (the kinds that cannot be verified say so in an invalid report).
    func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport
    /// The same report with only `detail` of it built; the full one by default.
    func verification(_ document: Document, now: Date, words: StepText, detail: VerificationDetail) -> VerificationReport
    /// `verify`'s text report, handed to `emit` in pieces of whole lines as it is made.
    func writeVerifyText(_ document: Document, report: VerificationReport, style: VerifyStyle, words: StepText, to emit: (String) -> Void)
    /// Adds to `report` the steps for expectations `verify` was given that `verification` does not
    /// compare (an external purchase token's fields against `--bundle-id`, …); by default none.
    func checkExpectations(_ report: inout VerificationReport, of document: Document, bundleID: String?, jws: JWSOptions)
    /// The file-layer node whose content layer 1 reassembles (a receipt's payload OCTET STRING):
    /// the structural diff pairs its content with that layer's nodes. Nil by default.
    func payloadStringNode(_ document: Document) -> Int?
    /// Lines `dump` prints under a top-level token beside what the token itself says (a
    /// notification's delivery attempts in a notification history); none by default.
    func tokenNotes(_ document: Document, token index: Int) -> [String]
    /// The names of `layer`'s nodes: `structure` (RFC 5652 / 5280) and what the kind adds (a
    /// receipt payload's attribute names). `structure` by default.
    func nodeNames(_ document: Document, layer: LayerID, structure: NodeNames) -> NodeNames
    /// `dump --format tree` of a document whose layout is `.layers` (a token's segments, a body's
    /// tokens), handed to `write` in pieces as it is made; false (nothing written) for the ASN.1
    /// layout, which the tree dump prints.
    func layersDump(_ document: Document, color: Bool, write: (String) -> Void) -> Bool
    /// `dump --format json`'s object of a `.layers` document, before its layer list; nil for the ASN.1 layout.
    func layersJSON(_ document: Document) -> [String: Any]?
    /// `explain --offset` of a `.layers` document: what the character at `fileOffset` encodes; nil
    /// when it is part of a body, not of a token (and for the ASN.1 layout).
    func layersExplain(_ document: Document, fileOffset: Int) -> String?
    /// `explain` of a `.layers` document without an offset: its tokens and segments, handed to
    /// `write` a token at a time; false (nothing written) for the ASN.1 layout.
    func layersOverview(_ document: Document, write: (String) -> Void) -> Bool
}

/// One batch `json` line and the code of its first error: its bytes, or for a line too large to
/// make whole, how to write it (`write`; then `bytes` is empty).
public struct JSONLine {
    /// The line's UTF-8 (the writer's bytes, handed on without a `String` in between).
    public var bytes: [UInt8]
    public var firstError: String?
    /// Writes the line to its sink, in pieces, never whole.
    public var write: (((UnsafeRawBufferPointer) -> Void) -> Void)?

    /// Inputs of this many bytes or more have their batch line written in pieces (`write`; and
    /// `verify --format json`'s): a 50 MB receipt's `json` line is 104 MB, and made whole it sat
    /// beside the document (issue 32).
    public static let writtenFrom = 1 << 20

    public init(bytes: [UInt8], firstError: String?) {
        self.bytes = bytes
        self.firstError = firstError
    }

    public init(text: String, firstError: String?) { self.init(bytes: Array(text.utf8), firstError: firstError) }

    public init(firstError: String?, write: @escaping ((UnsafeRawBufferPointer) -> Void) -> Void) {
        self.init(bytes: [], firstError: firstError)
        self.write = write
    }

    /// The whole line, made from `write` when it has one.
    public var made: [UInt8] {
        guard let write else { return bytes }
        var whole: [UInt8] = []
        write { whole.append(contentsOf: $0) }
        return whole
    }

    public var text: String { String(decoding: made, as: UTF8.self) }
}

extension DocumentOutputs {
    public func writeVerifyText(_ document: Document, report: VerificationReport, style: VerifyStyle, words: StepText, to emit: (String) -> Void) {
        VerificationText.write(report, inputName: document.source.name, style: style, to: emit)
    }

    public func verification(_ document: Document, now: Date, words: StepText, detail: VerificationDetail) -> VerificationReport {
        verification(document, now: now, words: words)
    }
    public func checkExpectations(_ report: inout VerificationReport, of document: Document, bundleID: String?, jws: JWSOptions) {}
    public func payloadStringNode(_ document: Document) -> Int? { nil }
    public func tokenNotes(_ document: Document, token index: Int) -> [String] { [] }
    public func nodeNames(_ document: Document, layer: LayerID, structure: NodeNames) -> NodeNames { structure }
    public func layersDump(_ document: Document, color: Bool, write: (String) -> Void) -> Bool { false }
    public func layersJSON(_ document: Document) -> [String: Any]? { nil }
    public func layersExplain(_ document: Document, fileOffset: Int) -> String? { nil }
    public func layersOverview(_ document: Document, write: (String) -> Void) -> Bool { false }

    /// Exit status 1 for `dump`, `explain` and `json` of a decoded input: an error in the layers the
    /// layout shows (for a receipt the file layer, where the receipt findings are merged).
    public func hasErrors(_ document: Document) -> Bool {
        switch layout {
        case .asn1File: document.fileTree.hasErrors
        case .layers: document.hasErrors
        }
    }
}

extension Document {
    /// The format that declares this document's kind: what the commands ask for its outputs.
    public var format: any DocumentFormat { FormatRegistry.format(of: kind) }
}
