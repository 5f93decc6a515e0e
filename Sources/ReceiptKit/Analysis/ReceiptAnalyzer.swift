import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The receipt module's entry point: parse, locate the container, decode the payload, link fields
/// to nodes, validate. Never throws and never crashes on garbage: whatever is wrong becomes a
/// finding, and whatever can be shown is.
public enum ReceiptAnalyzer {
    /// Whether a parsed input is a PKCS#7 SignedData, i.e. worth reading as a receipt.
    public static func isSignedData(_ tree: Tree) -> Bool {
        PKCS7Locator.locate(tree).0?.signedData != nil
    }

    /// `parsed`: the tree of a parse the caller already made of `bytes` with
    /// `options.parseOptions` (e.g. to check `isSignedData` first), so it is not parsed again.
    /// Handed over: when the payload must be parsed again on purpose, that tree is let go first,
    /// so a large receipt never holds two trees (the caller keeps no reference to it).
    public static func analyze(bytes: [UInt8], options: AnalysisOptions = AnalysisOptions(),
                               parsed: consuming Tree? = nil) -> ReceiptAnalysis {
        var parseCount = 1
        var tree = (consume parsed) ?? ASN1Parser.parse(bytes, options: options.parseOptions)
        var (container, containerFindings) = PKCS7Locator.locate(tree)
        var receiptFindings: [Diagnostic] = []  // in receiptTree's terms
        var receipt: Receipt?
        var payloadTree: Tree?
        var payloadMap: PayloadMap?

        if let found = container, !found.payloadChunks.isEmpty {
            if found.payloadChunks.count == 1 {
                let chunk = found.payloadChunks[0]
                let start = tree.nodes[chunk].contentStart
                if let decoded = decodeInPlace(tree, chunk: chunk) {
                    (receipt, receiptFindings) = decoded
                    container?.payloadSet = decoded.0.payloadNode
                } else if start < tree.nodes[chunk].contentEnd, tree.bytes[start] == 0x31 {
                    // Parse again with the payload (and every typed value inside it) on purpose.
                    let (limit, chunkOffset) = (tree.nodes[chunk].contentEnd, Int(tree.nodes[chunk].offset))
                    tree = Tree(bytes: [], nodes: NodeStore(), diagnostics: [], roots: [])  // the first parse goes first
                    tree = parseOnPurpose(bytes, options.parseOptions, setStart: start, limit: limit, also: chunkOffset)
                    parseCount = 2
                    (container, containerFindings) = PKCS7Locator.locate(tree)
                    if let again = container, again.payloadChunks.count == 1,
                       let decoded = decodeInPlace(tree, chunk: again.payloadChunks[0], final: true) {
                        (receipt, receiptFindings) = decoded
                        container?.payloadSet = decoded.0.payloadNode
                    }
                }
                if receipt == nil, let again = container, let chunk = again.payloadChunks.first {
                    receiptFindings += notASetFindings(tree, chunk: chunk)
                }
            } else {
                // Several chunks: reassemble, parse the payload as a tree of its own.
                var payload: [UInt8] = []
                var segments: [PayloadMap.Segment] = []
                for c in found.payloadChunks {
                    let n = tree.nodes[c]
                    segments.append(.init(payloadOffset: payload.count, fileOffset: n.contentStart, length: Int(n.contentLength)))
                    payload += tree.content(of: c)
                }
                payloadMap = PayloadMap(segments: segments)
                container?.payloadIsReassembled = true
                if payload.first == 0x31 {
                    var inner = ASN1Parser.parse(payload, options: options.parseOptions)
                    var decoded = decodeRoot(inner)
                    if decoded.needsPurposefulParse {
                        inner = parseOnPurpose(payload, options.parseOptions, setStart: 0, limit: payload.count)
                        decoded = decodeRoot(inner)
                    }
                    receipt = decoded.receipt
                    receiptFindings = decoded.findings
                    inner.append(receiptFindings)
                    payloadTree = inner
                } else {
                    receiptFindings = [Diagnostic.receipt(.payloadNotSet,
                        "the receipt payload is not a SET of attributes: it starts with \(payload.first.map { describeStart($0, text: payload.prefix(16)) } ?? "nothing (it is empty)")",
                        node: found.payloadString ?? found.payloadChunks[0], in: tree)]
                }
            }
        }

        // Findings in the input's terms; payload-tree findings are mapped onto the chunk holding them.
        // Appended to the tree's list, their one copy (`ReceiptAnalysis.findingsRange`).
        let findingsStart = tree.diagnostics.count
        tree.append(containerFindings)
        if let map = payloadMap, payloadTree != nil, let found = container {
            let mapped = receiptFindings.map { d in
                var d = d
                let range = map.fileRange(d.range)
                d.offset = range.lowerBound
                d.length = range.count
                d.node = (found.payloadChunks.first { tree.nodes[$0].contentRange.contains(range.lowerBound) } ?? found.payloadString).map(NodeIndex.init)
                return d
            }
            tree.append(mapped)
        } else {
            tree.append(receiptFindings)
        }

        let links = receipt.map { ReceiptLinks(receipt: $0, tree: payloadTree ?? tree) } ?? .empty
        var analysis = ReceiptAnalysis(tree: tree, payloadTree: payloadTree, payloadMap: payloadMap,
                                       container: container, receipt: receipt, findingsRange: findingsStart..<tree.diagnostics.count, signature: nil,
                                       validationSteps: [], links: links, options: options, parseCount: parseCount,
                                       verdict: Verdict(.notValidated))
        ValidationChecks.run(&analysis, bytes: bytes)
        return analysis
    }

    /// Parses `bytes` again with the payload SET at `setStart` (and `also`) and every typed value
    /// inside it encapsulated on purpose. The offsets go on return, before the payload is decoded:
    /// a 135,000-purchase receipt's 2.4 million took 19 MB, which its decoding stacked on (issue 32).
    private static func parseOnPurpose(_ bytes: [UInt8], _ parseOptions: ParseOptions, setStart: Int, limit: Int,
                                       also: Int? = nil) -> Tree {
        var purposeful = parseOptions
        purposeful.encapsulateOnPurpose.formUnion(PurposeScanner.valueOffsets(bytes, setStart: setStart, limit: limit))
        if let also { purposeful.encapsulateOnPurpose.insert(also) }
        return ASN1Parser.parse(bytes, options: purposeful)
    }

    /// Decodes a payload chunk the parser expanded. Nil when it was not expanded, or when a value
    /// inside still needs a purposeful parse (unless `final`, the purposeful parse itself).
    private static func decodeInPlace(_ tree: Tree, chunk: Int, final: Bool = false)
        -> (Receipt, [Diagnostic])? {
        let node = tree.nodes[chunk]
        guard node.isEncapsulated, tree.hasChildren(chunk) else { return nil }
        let set = chunk + 1
        guard tree.nodes[set].isUniversal(17), tree.nodes[set].isConstructed else { return nil }
        var decoder = ReceiptDecoder(tree: tree)
        let receipt = decoder.decode(payloadSet: set)
        if decoder.needsPurposefulParse && !final { return nil }
        var findings = decoder.takeFindings()
        if tree.nodes[set].subtreeEnd < node.subtreeEnd {
            let extra = Int(tree.nodes[set].subtreeEnd)
            findings.append(.receipt(.payloadTrailingData,
                "\(node.contentEnd - tree.nodes[extra].byteRange.lowerBound) byte(s) follow the payload SET inside the content OCTET STRING",
                node: extra, in: tree))
        }
        return (receipt, findings)
    }

    private static func decodeRoot(_ tree: Tree)
        -> (receipt: Receipt?, findings: [Diagnostic], needsPurposefulParse: Bool) {
        guard let root = tree.roots.first, tree.nodes[root].isUniversal(17), tree.nodes[root].isConstructed else {
            return (nil, [], false)
        }
        var decoder = ReceiptDecoder(tree: tree)
        let receipt = decoder.decode(payloadSet: root)
        return (receipt, decoder.takeFindings(), decoder.needsPurposefulParse)
    }

    /// "payload is not a SET" for a chunk whose content is something else.
    private static func notASetFindings(_ tree: Tree, chunk: Int) -> [Diagnostic] {
        let node = tree.nodes[chunk]
        let content = tree.content(of: chunk)
        if node.isEncapsulated, tree.hasChildren(chunk) {
            let inner = chunk + 1
            if !(tree.nodes[inner].isUniversal(17) && tree.nodes[inner].isConstructed) {
                return [.receipt(.payloadNotSet,
                    "the receipt payload is \(PKCS7Locator.describe(tree, inner)), a SET of attributes was expected",
                    node: inner, in: tree)]
            }
            return []
        }
        let what = content.first.map { describeStart($0, text: content.prefix(16)) } ?? "nothing (it is empty)"
        return [.receipt(.payloadNotSet, "the receipt payload is not a SET of attributes: it starts with \(what)",
                         node: chunk, in: tree)]
    }

    private static func describeStart(_ byte: UInt8, text: ArraySlice<UInt8> = []) -> String {
        if byte == UInt8(ascii: "<") && text.starts(with: Array("<?xml".utf8)) {
            return "'<?xml' (an XML property list, not an App Store receipt)"
        }
        if byte == UInt8(ascii: "b") && text.starts(with: Array("bplist".utf8)) {
            return "'bplist' (a binary property list, not an App Store receipt)"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true)) (\(InnerTLV.describe(Array(text), at: 0)))"
    }
}
