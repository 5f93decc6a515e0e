import ASN1Lenient
import ReceiptKit

/// How `Document.open` decides whether to read the input as a receipt.
public enum ReceiptReading: Sendable, Equatable {
    /// Only a PKCS#7 SignedData is read as a receipt; anything else is plain ASN.1, without
    /// receipt findings about what it is not (dump, explain, explore).
    case ifSignedData
    /// Always, so that `json` and `verify` can say why an input is not a receipt.
    case always
}

extension Document {
    /// Opens decoded input: parses it once and, when it is a PKCS#7 SignedData, reads it as a
    /// receipt (locate, decode, link, validate as `options` asks). Never throws: every problem is a
    /// diagnostic in some layer.
    ///
    /// StoreKit input (the loader's `.jws` / `.storeKitText`) becomes a JWS document instead: see
    /// `Document.jws`; `jws` carries the expectations only tokens have.
    public static func open(_ input: LoadedInput, options: AnalysisOptions = AnalysisOptions(),
                            reading: ReceiptReading = .ifSignedData, jws: JWSOptions = JWSOptions()) -> Document {
        if input.encoding == .externalPurchaseToken { return openExternalPurchaseToken(input) }
        if mayBeStoreKit(input), let document = openStoreKit(input, options: options, jws: jws) { return document }
        let source = DocumentSource(input)
        // Text the loader found no data in is not read as ASN.1 (nor as a receipt, even for
        // `.always`): its one finding says what it looks like.
        if isText(input) {
            let tree = Tree.unparsed(input.bytes, diagnostics: input.diagnostics)
            return Document(source: source, kind: .text, layers: [ByteLayer(id: .file, role: .file, name: "file", tree: tree)])
        }
        var tree = ASN1Parser.parse(input.bytes, options: options.parseOptions)
        let signedData = ReceiptAnalyzer.isSignedData(tree)
        guard signedData || reading == .always else {
            tree.append(input.diagnostics)  // the loader's findings count like the parser's
            return Document(source: source, kind: looksLikeCertificate(tree) ? .certificate : .asn1,
                            layers: [ByteLayer(id: .file, role: .file, name: "file", tree: tree)])
        }
        let analysis = ReceiptAnalyzer.analyze(bytes: input.bytes, options: options, parsed: tree)
        var fileTree = analysis.tree
        fileTree.append(input.diagnostics)
        var layers = [ByteLayer(id: .file, role: .file, name: "file", tree: fileTree)]
        if let payload = analysis.payloadTree, let map = analysis.payloadMap {
            let segments = map.segments.map {
                OffsetMap.Segment(layerOffset: $0.payloadOffset, parentOffset: $0.fileOffset, length: $0.length)
            }
            layers.append(ByteLayer(id: LayerID(1), role: .reassembledPayload,
                                    name: "payload (\(segments.count) chunks)", tree: payload,
                                    parent: .file, map: .segments(segments)))
        }
        let kind = signedData ? receiptKind(analysis) : looksLikeCertificate(tree) ? .certificate : .asn1
        return Document(source: source, kind: kind, layers: layers, receipt: analysis)
    }

    /// Text, UTF-16 text or base64 padded with NULs: the loader said what it is instead of DER.
    static func isText(_ input: LoadedInput) -> Bool {
        input.encoding == .binary && input.diagnostics.contains { $0.code == InputCode.unrecognizedText.code }
    }

    /// A receipt is Xcode's when its signer chain ends at (or embeds) the pinned StoreKit Testing
    /// certificate; the validation report says so when it ran, the embedded certificates otherwise.
    static func receiptKind(_ analysis: ReceiptAnalysis) -> DocumentKind {
        guard analysis.receipt != nil else { return .signedData }
        if let anchor = analysis.signature?.anchor { return anchor == .xcodeStoreKitTesting ? .xcodeTestingReceipt : .receipt }
        let tree = analysis.tree
        let xcode = analysis.container?.certificates.contains { node in
            guard node < tree.count, let cert = CertificateInfo(der: Array(tree.bytes[tree.nodes[node].byteRange])) else { return false }
            return TrustAnchors.kind(of: cert) == .xcodeStoreKitTesting
        } ?? false
        return xcode ? .xcodeTestingReceipt : .receipt
    }

    /// SEQUENCE { SEQUENCE (tbsCertificate), SEQUENCE (AlgorithmIdentifier), BIT STRING }, where
    /// the tbsCertificate starts with the [0] version or the serial INTEGER.
    static func looksLikeCertificate(_ tree: Tree) -> Bool {
        guard tree.roots.count == 1, let root = tree.roots.first, tree.nodes[root].isUniversal(16),
              tree.childCount(of: root) == 3,
              let tbs = tree.child(of: root, at: 0), let algorithm = tree.child(of: root, at: 1),
              let signature = tree.child(of: root, at: 2),
              tree.nodes[tbs].isUniversal(16), tree.nodes[algorithm].isUniversal(16), tree.nodes[signature].isUniversal(3),
              let first = tree.child(of: tbs, at: 0) else { return false }
        let head = tree.nodes[first]
        return head.isUniversal(2) || (head.tagClass == .contextSpecific && head.tagNumber == 0)
    }
}
