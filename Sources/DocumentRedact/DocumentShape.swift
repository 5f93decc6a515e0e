import ASN1Lenient
import JSONLenient
import ByteText
import DocumentCore

/// Everything about an opened document except the values: per layer its role, parent, size,
/// node counts, keyed hashes of its nodes (ASN.1 tag, offset, header and content lengths, links;
/// JSON kind and ranges) and every diagnostic's code, severity, range and node. A redacted copy
/// must have the same shape as its original; `redact` checks this on every copy before writing it.
///
/// The nodes are kept as hashes, not as the tree, so that the original (its tree and its input's
/// bytes) can be let go before the copy is opened (issue 32). There is a hash a node up to
/// `hashBudget` nodes, so a differing node is named exactly; beyond that, one a run of nodes, and
/// the run is named. The hash is Swift's `Hasher` (SipHash with a key drawn per process), so an
/// input cannot be made to collide with its copy.
public struct DocumentShape: Equatable, Sendable {
    public struct Layer: Equatable, Sendable {
        public var role: String
        public var parent: Int?
        public var byteCount: Int
        public var asn1Count: Int
        public var jsonCount: Int
        /// This layer's runs' hashes in `nodeHashes`.
        var hashes: Range<Int>
        public var diagnostics: [DiagnosticShape]

        var nodeCount: Int { asn1Count + jsonCount }
    }

    /// A diagnostic without its message (messages may quote the values that were replaced).
    public struct DiagnosticShape: Equatable, Sendable, CustomStringConvertible {
        public var code: DiagnosticCode
        public var severity: Severity
        public var range: Range<Int>
        public var node: NodeIndex?

        public var description: String { "\(code) at \(range.lowerBound)+\(range.count)" }
    }

    /// Hashes kept for a document's nodes at most (and one more a layer): 512 KB. A 50 MB history's
    /// 5 million nodes are hashed 77 at a time; a receipt of up to 65,536 nodes, one at a time.
    package static let hashBudget = 1 << 16

    public var kind: String
    public var layers: [Layer]
    /// Nodes a hash: 1 up to `hashBudget` nodes in all.
    var nodesPerHash: Int
    /// Each layer's nodes in runs of `nodesPerHash`, a hash a run, layer after layer.
    var nodeHashes: [Int]

    public init(_ document: Document) {
        kind = String(describing: document.kind)
        let total = document.layers.reduce(0) { count, layer in
            switch layer.content {
            case .asn1(let tree): count + tree.nodes.count
            case .json(let tree, _): count + tree.nodes.count
            case .token, .raw: count
            }
        }
        let perHash = max(1, (total + Self.hashBudget - 1) / Self.hashBudget)
        var hashes: [Int] = []
        hashes.reserveCapacity(min(total, Self.hashBudget) + document.layers.count)
        func hashRuns<Nodes: RandomAccessCollection>(_ nodes: Nodes) where Nodes.Element: Hashable, Nodes.Index == Int {
            var start = nodes.startIndex
            while start < nodes.endIndex {
                var hasher = Hasher()
                for i in start..<min(start + perHash, nodes.endIndex) { hasher.combine(nodes[i]) }
                hashes.append(hasher.finalize())
                start += perHash
            }
        }
        layers = document.layers.map { layer in
            let first = hashes.count
            var asn1Count = 0, jsonCount = 0
            switch layer.content {
            case .asn1(let tree):
                asn1Count = tree.nodes.count
                tree.nodes.withUnsafeBufferPointer(hashRuns)
            case .json(let tree, _):
                jsonCount = tree.nodes.count
                tree.nodes.withUnsafeBufferPointer(hashRuns)
            case .token, .raw: break
            }
            return Layer(role: String(describing: layer.role), parent: layer.parent?.index, byteCount: layer.bytes.count,
                         asn1Count: asn1Count, jsonCount: jsonCount, hashes: first..<hashes.count,
                         diagnostics: layer.content.diagnostics.map {
                             DiagnosticShape(code: $0.code, severity: $0.severity, range: $0.range, node: $0.node)
                         })
        }
        nodesPerHash = perHash
        nodeHashes = hashes
    }

    public var nodeCount: Int { layers.reduce(0) { $0 + $1.nodeCount } }
    /// How many hashes the nodes are kept as.
    package var nodeHashCount: Int { nodeHashes.count }
    public var diagnosticCount: Int { layers.reduce(0) { $0 + $1.diagnostics.count } }

    /// The first way the opened `copy` differs, in words; nil when the shapes are equal.
    public func firstDifference(from copy: Document) -> String? { firstDifference(from: DocumentShape(copy)) }

    /// The first way `other` differs, in words ("layer 1 (payload): node 12 differs"); nil when
    /// the shapes are equal. Sizes and counts first, layer by layer, then the nodes: runs of nodes
    /// line up only where every count is the same.
    public func firstDifference(from other: DocumentShape) -> String? {
        if kind != other.kind { return "the kind differs (\(kind) → \(other.kind))" }
        if layers.count != other.layers.count { return "\(layers.count) layers became \(other.layers.count)" }
        for (i, (a, b)) in zip(layers, other.layers).enumerated() {
            if a.byteCount != b.byteCount { return "layer \(i) (\(a.role)) is \(b.byteCount) bytes instead of \(a.byteCount)" }
            if a.asn1Count != b.asn1Count || a.jsonCount != b.jsonCount {
                return "layer \(i) (\(a.role)) has \(b.nodeCount) nodes instead of \(a.nodeCount)"
            }
        }
        for (i, (a, b)) in zip(layers, other.layers).enumerated() {
            if let run = a.hashes.indices.firstIndex(where: { nodeHashes[$0] != other.nodeHashes[b.hashes.lowerBound + $0 - a.hashes.lowerBound] }) {
                let first = (run - a.hashes.lowerBound) * nodesPerHash
                let last = min(first + nodesPerHash, a.nodeCount) - 1
                return first == last ? "layer \(i) (\(a.role)): node \(first) differs"
                    : "layer \(i) (\(a.role)): a node among nodes \(NumberText.grouped(first))–\(NumberText.grouped(last)) differs"
            }
            if a.diagnostics != b.diagnostics {
                let lost = a.diagnostics.filter { !b.diagnostics.contains($0) }.map(\.description)
                let gained = b.diagnostics.filter { !a.diagnostics.contains($0) }.map(\.description)
                return "layer \(i) (\(a.role)): diagnostics differ (lost: \(lost.joined(separator: ", ")); new: \(gained.joined(separator: ", ")))"
            }
            if a != b { return "layer \(i) (\(a.role)) differs" }
        }
        return nil
    }
}
