import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import ReceiptKit
import TextLoader
import DocumentCore

/// Where one batch input came from: a FILE operand, or line `line` (1-based) of one with `--lines`.
public struct BatchSource: Sendable, Equatable {
    /// The operand as given ("stdin" for "-").
    public var file: String
    public var line: Int?

    public init(file: String, line: Int? = nil) {
        self.file = file == "-" ? "stdin" : file
        self.line = line
    }

    /// "exports/a.txt:12", "a.receipt": for text lines, terminal-safe.
    public var label: String { TerminalSafe.escape(line.map { "\(file):\($0)" } ?? file) }
}

/// One input of a batch run, numbered in input order.
public struct BatchItem: Sendable {
    public enum Payload: Sendable {
        /// A FILE operand, read by the worker that checks it.
        case path(String)
        /// One line's bytes (`--lines`), CR/LF already removed.
        case line([UInt8])
        /// The operand could not be read at all (an I/O error: exit status 2).
        case unreadable(String)
    }

    public var sequence: Int
    public var source: BatchSource
    public var payload: Payload

    public init(sequence: Int, source: BatchSource, payload: Payload) {
        self.sequence = sequence
        self.source = source
        self.payload = payload
    }
}

/// What checking one input gave: its output, ready to write, and what the summary counts.
public struct BatchOutcome: Sendable {
    public enum Status: Sendable, Equatable {
        case valid
        case invalid
        /// The operand could not be read: an I/O error (the run exits 2).
        case ioError
        /// An option given cannot be used by this input's kind (`OptionTable`): a usage error (the run exits 2).
        case refused
    }

    public var sequence: Int
    public var status: Status
    /// The first failing reason's code ("signature-invalid", "input-not-loaded", "io-error"); nil when valid.
    public var reasonCode: String?
    /// What the input was ("receipt", "notification", …); nil when it could not be opened.
    public var kind: String?
    /// The whole output for this input in UTF-8, ending with a newline (one line in every batch
    /// format): bytes, so that a 20 KB JSON line is not validated as a `String` and copied back.
    public var bytes: [UInt8]

    package init(sequence: Int, status: Status, reasonCode: String? = nil, kind: String? = nil, bytes: [UInt8]) {
        self.sequence = sequence
        self.status = status
        self.reasonCode = reasonCode
        self.kind = kind
        self.bytes = bytes
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// The per-input work of `verify` and `json` in batch mode: load, open, verify, and render one line.
/// A value (Sendable): every worker thread holds the same one and shares nothing mutable through it;
/// the caches it reaches (`TrustAnchorSet`, the header memo, the verified-chain cache) lock their own state.
public struct BatchCheck: Sendable {
    public enum Format: Sendable, Equatable {
        /// `verify`: "SOURCE: VALID — summary" / "SOURCE: INVALID: first reason".
        case verifyText
        /// `verify --quiet`: the verdict line alone, one per input in input order.
        case verifyQuiet
        /// `verify --format json`: the report (docs/verify-schema.json) on one line, with source and line.
        case verifyJSON
        /// `json`: the decoded document on one line, with source and line.
        case json
    }

    public var format: Format
    public var options: AnalysisOptions
    public var jws: JWSOptions
    public var words: StepText
    /// `json --expect KIND`: an input of another kind is reported invalid with the reason.
    public var expect: ExpectedKind?
    /// `verify --ascii`: "VALID - …" instead of "VALID — …".
    public var ascii: Bool
    /// The reading options given: one an input's kind cannot use is that input's error (`OptionTable`).
    public var given: Set<ReadingOption>

    public init(format: Format, options: AnalysisOptions, jws: JWSOptions = JWSOptions(), words: StepText = .plain,
                expect: ExpectedKind? = nil, ascii: Bool = false, given: Set<ReadingOption> = []) {
        self.format = format
        self.given = given
        self.ascii = ascii
        self.options = options
        self.jws = jws
        self.words = words
        self.expect = expect
    }

    /// How every input is opened: read as a receipt whatever it is, so that an input that is not
    /// one says why (what `verify` and `json` do with one FILE).
    var opening: OpenOptions { OpenOptions(analysis: options, reading: .always, jws: jws) }

    /// Checks one input. Never throws: a refusal becomes that input's outcome. With `turn`, an
    /// output too large to make whole is written in the input's turn, and the outcome carries none.
    /// Handed over: a line's bytes go before its data is parsed (the item and the reading held a
    /// 50 MB receipt's 67 MB base64 line through its open; issue 32).
    public func evaluate(_ item: consuming BatchItem, turn: BatchTurn? = nil) -> BatchOutcome {
        let payload = item.payload
        item.payload = .unreadable("")  // the item keeps its number and source
        if case .unreadable(let message) = payload {
            return failure(item, status: .ioError, code: "io-error", message: message)
        }
        let isPath = if case .path = payload { true } else { false }
        let input: ReadInput
        do {
            input = try Self.read(consume payload, source: item.source)
        } catch let error as InputError {
            // A FILE that cannot be read is I/O; a line that cannot be loaded is bad data.
            if isPath, error.message.hasPrefix("cannot read") {
                return failure(item, status: .ioError, code: "io-error", message: error.message)
            }
            return failure(item, status: .invalid, code: "input-not-loaded", message: error.message)
        } catch {
            return failure(item, status: .ioError, code: "io-error", message: "\(error)")
        }
        switch format {
        case .json: return decoded(item, consume input, turn: turn)
        case .verifyText, .verifyQuiet, .verifyJSON: return verified(item, consume input, turn: turn)
        }
    }

    /// The one way in: a FILE as every command reads it, a line as a file holding that line.
    private static func read(_ payload: consuming BatchItem.Payload, source: BatchSource) throws -> ReadInput {
        switch consume payload {
        case .path(let path): try DocumentInput.path(path).read()
        case .line(let bytes): try DocumentInput.line(bytes, number: source.line ?? 1, of: source.file).read()
        case .unreadable(let message): throw InputError(message)
        }
    }

    private func verified(_ item: BatchItem, _ input: consuming ReadInput, turn: BatchTurn?) -> BatchOutcome {
        let size = input.loaded.bytes.count
        let document = Document.open(consume input, opening)
        if let refused = refusal(item, document) { return refused }
        // The text lines print the verdict alone: the report's ranges, certificates and headline are not built.
        let report = VerificationReport(verifying: document, now: options.now, words: words, jws: jws, bundleID: options.bundleID,
                                        detail: format == .verifyJSON ? .full : .verdict)
        var bytes: [UInt8] = []
        switch format {
        case .verifyJSON:
            let source = BatchSourceFields(file: item.source.file, line: item.source.line)
            if let turn, size >= JSONLine.writtenFrom {
                turn.write { VerificationJSON.stream(report, input: (document.source.name, size), compact: true, batchSource: source, to: $0) }
            } else {
                bytes = VerificationJSON.streamed(report, input: (document.source.name, size), compact: true, batchSource: source)
            }
        case .verifyQuiet:
            bytes = Array((VerificationText.quietLine(report, ascii: ascii) + "\n").utf8)
        default:
            bytes = Array((item.source.label + ": " + VerificationText.quietLine(report, ascii: ascii) + "\n").utf8)
        }
        return BatchOutcome(sequence: item.sequence, status: report.verdict.valid ? .valid : .invalid,
                            reasonCode: report.verdict.valid ? nil : report.verdict.reasons.first?.code.rawValue ?? "invalid",
                            kind: report.subject.kind, bytes: bytes)
    }

    /// `json`: valid means decoded without an error diagnostic (the command's exit rule); the
    /// summary counts the first error finding's code.
    private func decoded(_ item: BatchItem, _ input: consuming ReadInput, turn: BatchTurn?) -> BatchOutcome {
        let document = Document.open(consume input, opening)
        if let refused = refusal(item, document) { return refused }
        if let expect, let why = expect.mismatch(document.kind) {
            return failure(item, status: .invalid, code: "unexpected-kind", message: why, kind: document.kind.id)
        }
        guard let line = document.format.jsonLine(document, words: words, source: .init(file: item.source.file, line: item.source.line)) else {
            return failure(item, status: .invalid, code: "not-a-receipt", message: "not read as a receipt", kind: document.kind.id)
        }
        let firstError = line.firstError
        var bytes = line.bytes
        if let write = line.write {
            if let turn { turn.write(write) } else { bytes = line.made }
        }
        return BatchOutcome(sequence: item.sequence, status: firstError == nil ? .valid : .invalid, reasonCode: firstError,
                            kind: document.kind.id, bytes: bytes)
    }

    /// The input's error when an option given cannot be used by its kind.
    private func refusal(_ item: BatchItem, _ document: Document) -> BatchOutcome? {
        document.refusal(of: given).map {
            failure(item, status: .refused, code: OptionRefusal.code, message: $0.message, kind: document.kind.id)
        }
    }

    /// The input's own line: `{"error": {"code", "message"}, "source", "line"}` in JSON, else one text line.
    private func failure(_ item: BatchItem, status: BatchOutcome.Status, code: String, message: String,
                         kind: String? = nil) -> BatchOutcome {
        let text: String
        switch format {
        case .json, .verifyJSON:
            var object: [String: Any] = ["error": ["code": code, "message": message] as [String: Any]]
            Self.addSource(item.source, to: &object)
            text = ReceiptJSON.serialize(object, compact: true)
        case .verifyQuiet:
            text = Self.failureLine(status: status, message: message) + "\n"
        case .verifyText:
            text = item.source.label + ": " + Self.failureLine(status: status, message: message) + "\n"
        }
        return BatchOutcome(sequence: item.sequence, status: status, reasonCode: code, kind: kind, bytes: Array(text.utf8))
    }

    /// "ERROR: cannot read 'x': No such file or directory" / "INVALID: 'line 3' is empty (0 bytes)".
    /// `message` is terminal-safe already (`InputError`'s contract, or a sentence of ours).
    static func failureLine(status: BatchOutcome.Status, message: String) -> String {
        (status == .invalid ? "INVALID: " : "ERROR: ") + message
    }

    static func addSource(_ source: BatchSource, to object: inout [String: Any]) {
        object["source"] = source.file
        if let line = source.line { object["line"] = line }
    }
}
