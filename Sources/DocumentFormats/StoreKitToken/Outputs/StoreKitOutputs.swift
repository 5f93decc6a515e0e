#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DocumentCore
import DocumentDiff
import DocumentTour
import DocumentRedact

/// The outputs of a StoreKit document (a token, a JSON body of tokens) and of the kinds that are
/// only named (an iOS 6 transaction receipt, text): `JWSJSON` and the per-token verification.
enum StoreKitOutputs {
    static func json(_ document: Document) -> JSONReading {
        JSONReading(firstError: firstError(document)) { sink in ReceiptJSON.stream(JWSJSON.object(document), to: sink) }
    }

    /// The compact object with `"source"` (replacing the byte ranges) and `"line"`.
    static func jsonLine(_ document: Document, source: BatchSourceFields) -> JSONLine {
        var object = JWSJSON.object(document)
        object["source"] = source.file
        if let line = source.line { object["line"] = line }
        return JSONLine(text: ReceiptJSON.serialize(object, compact: true), firstError: firstError(document))
    }

    static func firstError(_ document: Document) -> String? {
        document.diagnostics.first { $0.diagnostic.severity == .error }?.diagnostic.code.rawValue
    }

    static func verification(_ document: Document, now: Date, words: StepText, detail: VerificationDetail = .full) -> VerificationReport {
        VerificationReport(storeKitOf: document, now: now, words: words, detail: detail)
            ?? VerificationReport(unverifiable: document, now: now)
    }

    /// The tokens' fields and transactions, when there are tokens.
    static func diffBasis(_ document: Document) -> (any DiffBasis)? { StoreKitSide(document) }

    /// `--expect receipt` given StoreKit 2 input.
    static let notAReceiptHint = "StoreKit 2 JWS is not the PKCS#7 app receipt; drop --expect receipt to read it"

    /// The token route through the first top-level token (a body's first token).
    static func tourSteps(_ document: Document) -> [TourStep]? {
        document.jws?.topLevel.first.map { JWSRoute(document: document, token: $0).steps() }
    }
}

/// The formats whose `json` is the token document (`JWSJSON`): tokens, bodies of tokens, and the
/// kinds that are only named (an iOS 6 transaction receipt, text) or unsigned (an external purchase token).
public protocol WritesTokenJSON: DocumentOutputs {}

extension WritesTokenJSON {
    public var layout: DocumentLayout { .layers }
    public func json(_ document: Document, words: StepText) -> JSONReading? { StoreKitOutputs.json(document) }
    public func jsonLine(_ document: Document, words: StepText, source: BatchSourceFields) -> JSONLine? {
        StoreKitOutputs.jsonLine(document, source: source)
    }
    public func layersDump(_ document: Document, color: Bool, write: (String) -> Void) -> Bool {
        JWSTreeDump(document, color: color).write(write)
        return true
    }
    public func layersJSON(_ document: Document) -> [String: Any]? { JWSJSON.object(document) }
    public func layersExplain(_ document: Document, fileOffset: Int) -> String? { JWSExplain(document).explain(fileOffset: fileOffset) }
    public func layersOverview(_ document: Document, write: (String) -> Void) -> Bool {
        JWSExplain(document).writeOverview(write)
        return true
    }
}

/// The formats of signed tokens: verified token by token (a developer key for developer-signed
/// ones), and compared by `diff` token by token.
public protocol VerifiesTokens: WritesTokenJSON, DiffBasisSource, RedactionSource, LabChangeSource {}

extension VerifiesTokens {
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        StoreKitOutputs.verification(document, now: now, words: words)
    }
    public func diffBasis(_ document: Document) -> (any DiffBasis)? { StoreKitOutputs.diffBasis(document) }
    public func redactionParts(_ document: Document, fields: Set<RedactField>) -> RedactionParts { TokenRedaction.parts(document) }
    public func labChanges(before: Document, after: Document) -> [LabChangeLine] { TokenLabChange.describe(before: before, after: after) }
}

// The formats whose report is `StoreKitOutputs.verification` build the verdict alone when asked;
// a format that words its own report (a Server API response, a Retention request) gives the full one.
extension StoreKitTokenFormat: VerifiesTokens {
    public func verification(_ document: Document, now: Date, words: StepText, detail: VerificationDetail) -> VerificationReport {
        StoreKitOutputs.verification(document, now: now, words: words, detail: detail)
    }
}

extension StoreKitJSONFormat: VerifiesTokens {
    public func verification(_ document: Document, now: Date, words: StepText, detail: VerificationDetail) -> VerificationReport {
        StoreKitOutputs.verification(document, now: now, words: words, detail: detail)
    }
}

extension LegacyTransactionReceiptFormat: WritesTokenJSON, RedactionSource {
    public func redactionRefusal(_ document: Document) -> String? {
        "an iOS 6 style transaction receipt is not read by this tool, so its identifiers cannot be found"
    }

    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(unverifiable: document, now: now)
    }
}

/// `json`: the input, its kind and the loader's one finding: there is no receipt to describe.
extension TextFormat: WritesTokenJSON {
    public var layout: DocumentLayout { .asn1File }
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(unverifiable: document, now: now)
    }
}

extension DeveloperTokenFormat: VerifiesTokens, TourRoute {
    public func verification(_ document: Document, now: Date, words: StepText, detail: VerificationDetail) -> VerificationReport {
        StoreKitOutputs.verification(document, now: now, words: words, detail: detail)
    }
    public func tourSteps(_ document: Document) -> [TourStep]? { StoreKitOutputs.tourSteps(document) }
}
