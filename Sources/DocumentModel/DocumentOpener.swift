import ASN1Lenient
import ReceiptKit

extension Document {
    /// Opens decoded input: parses it once and, when it is a PKCS#7 SignedData, reads it as a
    /// receipt (locate, decode, link, validate as `options` asks). Never throws: every problem is a
    /// diagnostic in some layer.
    public static func open(_ input: LoadedInput, options: AnalysisOptions = AnalysisOptions()) -> Document {
        let source = DocumentSource(input)
        var tree = ASN1Parser.parse(input.bytes, options: options.parseOptions)
        guard ReceiptAnalyzer.isSignedData(tree) else {
            tree.append(input.diagnostics)  // the loader's findings count like the parser's
            return Document(source: source, kind: .asn1,
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
        return Document(source: source, kind: analysis.receipt != nil ? .receipt : .signedData,
                        layers: layers, receipt: analysis)
    }
}
