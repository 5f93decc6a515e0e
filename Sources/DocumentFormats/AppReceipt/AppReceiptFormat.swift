import ASN1Lenient
import ReceiptKit
import X509Trust
import DocumentCore
import DocumentTour

/// A PKCS#7 SignedData read as an App Store receipt: an app receipt, an Xcode StoreKit Testing
/// receipt, or SignedData that is not a receipt. Layers: the file's tree and, when the content
/// was found, the reassembled payload.
public struct AppReceiptFormat: DocumentFormat, TourRoute {
    public static let id = FormatID(rawValue: "app-receipt")
    public var id: FormatID { Self.id }

    /// Base64 of a SignedData in a paste is most likely the receipt, above all under a key that
    /// verifyReceipt requests, server SDKs or StoreKit 1 name a receipt by.
    public var pasteHints: [PasteHint] {
        [PasteHint(.der, score: 60, matches: PasteHint.isSignedData,
                   keys: ["receipt-data", "receiptData", "receipt_data", "latest_receipt", "receipt", "transactionReceipt", "appReceipt"])]
    }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        probe.isSignedData ? Recognition(.certain, "PKCS#7 SignedData (content type 1.2.840.113549.1.7.2)") : nil
    }

    public func open(_ probe: FormatProbe) -> Document {
        Self.openAsReceipt(probe, kind: Self.kind)
    }

    /// Reads the probe's input as a receipt (locate, decode, link, validate as its options ask).
    /// Other ASN.1 formats call this for `ReceiptReading.always`, so that `json` and `verify` can
    /// say why their input is not a receipt; `kind` names what the input is.
    static func openAsReceipt(_ probe: FormatProbe, kind: (ReceiptAnalysis) -> DocumentKind) -> Document {
        let analysis = ReceiptAnalyzer.analyze(bytes: probe.input.bytes, options: probe.options, parsed: probe.takeASN1())
        var fileTree = analysis.tree
        fileTree.append(probe.input.diagnostics)  // the loader's findings count like the parser's
        var layers = [ByteLayer(id: .file, role: .file, name: "file", tree: fileTree)]
        if let payload = analysis.payloadTree, let map = analysis.payloadMap {
            let segments = map.segments.map {
                OffsetMap.Segment(layerOffset: $0.payloadOffset, parentOffset: $0.fileOffset, length: $0.length)
            }
            layers.append(ByteLayer(id: LayerID(1), role: .reassembledPayload,
                                    name: "payload (\(segments.count) chunks)", tree: payload,
                                    parent: .file, map: .segments(segments)))
        }
        return Document(source: probe.source, kind: kind(analysis), layers: layers, receipt: analysis)
    }

    /// A receipt is Xcode's when its signer chain ends at (or embeds) the pinned StoreKit Testing
    /// certificate; the validation report says so when it ran, the embedded certificates otherwise.
    static func kind(_ analysis: ReceiptAnalysis) -> DocumentKind {
        guard analysis.receipt != nil else { return .signedData }
        if let anchor = analysis.signature?.anchor { return anchor == .xcodeStoreKitTesting ? .xcodeTestingReceipt : .receipt }
        let tree = analysis.tree
        let xcode = analysis.container?.certificates.contains { node in
            // By fingerprint alone (Swift SHA-256): naming the kind decodes no certificate with OpenSSL.
            guard node < tree.count else { return false }
            let fingerprint = Digest.hex(Digest.sha256(Array(tree.bytes[tree.nodes[node].byteRange])))
            return TrustAnchors.kind(forSHA256: fingerprint) == .xcodeStoreKitTesting
        } ?? false
        return xcode ? .xcodeTestingReceipt : .receipt
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        switch kind {
        case .receipt: KindDescription(summary: "a PKCS#7 App Store receipt", title: "Receipt")
        case .xcodeTestingReceipt:
            KindDescription(summary: "a PKCS#7 receipt signed by Xcode StoreKit Testing (local testing only)", title: "Receipt")
        case .signedData: KindDescription(summary: "a PKCS#7 SignedData that is not a receipt", title: "PKCS#7 SignedData")
        default: nil
        }
    }

    public func expectation(_ kind: DocumentKind) -> ExpectedKind? {
        kind == .receipt || kind == .xcodeTestingReceipt ? .receipt : nil
    }

    public func hint(expected: ExpectedKind, found kind: DocumentKind) -> String? {
        guard kind == .receipt || kind == .xcodeTestingReceipt else { return nil }
        return "the app receipt (StoreKit 1) holds in_app purchases; a StoreKit 2 \(expected.rawValue) is a JWS (Transaction.jwsRepresentation or the App Store Server API)"
    }

    /// The receipt route when the receipt was found and decoded; the generic route otherwise.
    public func tourSteps(_ document: Document) -> [TourStep]? {
        guard let analysis = document.receipt, let container = analysis.container, analysis.receipt != nil else { return nil }
        return ReceiptRoute(document: document, analysis: analysis, container: container).steps()
    }
}
