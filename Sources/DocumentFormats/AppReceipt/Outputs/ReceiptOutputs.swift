#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ASN1Lenient
import ReceiptKit
import DocumentCore
import DocumentDiff
import DocumentTour
import DocumentRedact

/// The outputs of a document read as a receipt: the app receipt format's, and the certificate's and
/// other ASN.1's when `json` and `verify` read them as receipts to say why they are not one.
enum ReceiptOutputs {
    static func json(_ document: Document, words: StepText) -> JSONReading? {
        guard let analysis = document.receipt else { return nil }
        let input = input(document)
        return JSONReading(firstError: firstError(analysis)) { sink in
            ReceiptJSON.stream(analysis, input: input, words: words, to: sink)
        }
    }

    static func jsonLine(_ document: Document, words: StepText, source: BatchSourceFields) -> JSONLine? {
        guard let analysis = document.receipt else { return nil }
        let input = input(document)
        guard document.fileLayer.bytes.count < JSONLine.writtenFrom else {
            return JSONLine(firstError: firstError(analysis)) { sink in
                ReceiptJSON.stream(analysis, input: input, words: words, compact: true, batchSource: source, to: sink)
            }
        }
        return JSONLine(bytes: ReceiptJSON.streamed(analysis, input: input, words: words, compact: true, batchSource: source),
                        firstError: firstError(analysis))
    }

    /// The receipt payload's attribute names over the structure's, in the layer the receipt's node
    /// indices point into (the payload's own tree when it was reassembled).
    static func nodeNames(_ document: Document, layer: LayerID, structure: NodeNames) -> NodeNames {
        guard let analysis = document.receipt, let receipt = analysis.receipt else { return structure }
        let payloadLayer = analysis.payloadTree == nil ? LayerID.file : document.layers.first { $0.role == .reassembledPayload }?.id
        guard payloadLayer == layer else { return structure }
        let links = analysis.links
        return structure.adding { node in ReceiptNames.name(of: node, receipt: receipt, links: links) }
    }

    static func input(_ document: Document) -> ReceiptJSON.InputInfo {
        ReceiptJSON.InputInfo(name: document.source.name, encoding: document.source.encoding.rawValue, origin: document.source.origin)
    }

    static func firstError(_ analysis: ReceiptAnalysis) -> String? {
        analysis.allDiagnostics.first { $0.severity == .error }?.code.rawValue ?? (analysis.receipt == nil ? "not-a-receipt" : nil)
    }

    static func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        VerificationReport(receiptOf: document, words: words) ?? VerificationReport(unverifiable: document, now: now)
    }

    static func verifyText(_ document: Document, report: VerificationReport, style: VerifyStyle, words: StepText) -> String {
        guard let analysis = document.receipt else {
            return VerificationText.text(report, inputName: document.source.name, style: style)
        }
        return VerifyReport.text(analysis, inputName: document.source.name, inputNote: document.note, style: style, words: words,
                                 report: report)
    }
}

/// The formats whose documents are read as an ASN.1 file with a receipt analysis (`.always` reads
/// every ASN.1 input as a receipt): one set of outputs for all of them.
public protocol ReadsAsReceipt: DocumentOutputs, DiffBasisSource, RedactionSource, LabChangeSource {}

extension ReadsAsReceipt {
    public var layout: DocumentLayout { .asn1File }
    public func json(_ document: Document, words: StepText) -> JSONReading? { ReceiptOutputs.json(document, words: words) }
    public func jsonLine(_ document: Document, words: StepText, source: BatchSourceFields) -> JSONLine? {
        ReceiptOutputs.jsonLine(document, words: words, source: source)
    }
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        ReceiptOutputs.verification(document, now: now, words: words)
    }
    public func writeVerifyText(_ document: Document, report: VerificationReport, style: VerifyStyle, words: StepText, to emit: (String) -> Void) {
        emit(ReceiptOutputs.verifyText(document, report: report, style: style, words: words))
    }
    /// The receipt's fields and purchases when one was decoded; else (a certificate, other ASN.1) the structure.
    public func diffBasis(_ document: Document) -> (any DiffBasis)? { ReceiptSide(document) }
    public func payloadStringNode(_ document: Document) -> Int? { ReceiptSide.payloadString(document) }
    public func redactionParts(_ document: Document, fields: Set<RedactField>) -> RedactionParts {
        ReceiptRedaction.parts(document, fields: fields)
    }
    public func labChanges(before: Document, after: Document) -> [LabChangeLine] { ReceiptLabChange.describe(before: before, after: after) }
    public func nodeNames(_ document: Document, layer: LayerID, structure: NodeNames) -> NodeNames {
        ReceiptOutputs.nodeNames(document, layer: layer, structure: structure)
    }
}

extension AppReceiptFormat: ReadsAsReceipt {}
extension CertificateFormat: ReadsAsReceipt {}
extension ASN1Format: ReadsAsReceipt {}
