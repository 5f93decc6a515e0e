import ASN1Lenient
import JSONLenient
import DocumentCore

/// Everything about an opened document except the values: per layer its role, parent, size,
/// node counts, a keyed hash of every node (ASN.1 tag, offset, header and content lengths, links;
/// JSON kind and ranges) and every diagnostic's code, severity, range and node. A redacted copy
/// must have the same shape as its original; `redact` checks this on every copy before writing it.
///
/// The nodes are kept as a hash, not as the tree, so that the original's tree can be let go before
/// the copy is opened (two trees at once took twice the memory; issue 32). The hash is Swift's
/// `Hasher` (SipHash with a key drawn per process), so an input cannot be made to collide with its
/// copy; when the hashes differ, `firstNodeDifference` names the node by walking both trees.
public struct DocumentShape: Equatable, Sendable {
    public struct Layer: Equatable, Sendable {
        public var role: String
        public var parent: Int?
        public var byteCount: Int
        public var asn1Count: Int
        public var jsonCount: Int
        var nodeHash: Int
        public var diagnostics: [DiagnosticShape]
    }

    /// A diagnostic without its message (messages may quote the values that were replaced).
    public struct DiagnosticShape: Equatable, Sendable, CustomStringConvertible {
        public var code: DiagnosticCode
        public var severity: Severity
        public var range: Range<Int>
        public var node: NodeIndex?

        public var description: String { "\(code) at \(range.lowerBound)+\(range.count)" }
    }

    public var kind: String
    public var layers: [Layer]

    public init(_ document: Document) {
        kind = String(describing: document.kind)
        layers = document.layers.map { layer in
            var hasher = Hasher()
            var asn1Count = 0, jsonCount = 0
            switch layer.content {
            case .asn1(let tree):
                asn1Count = tree.nodes.count
                tree.nodes.withUnsafeBufferPointer { nodes in
                    for node in nodes { hasher.combine(node) }
                }
            case .json(let tree, _):
                jsonCount = tree.nodes.count
                for node in tree.nodes { hasher.combine(node) }
            case .token, .raw: break
            }
            return Layer(role: String(describing: layer.role), parent: layer.parent?.index, byteCount: layer.bytes.count,
                         asn1Count: asn1Count, jsonCount: jsonCount, nodeHash: hasher.finalize(),
                         diagnostics: layer.content.diagnostics.map {
                             DiagnosticShape(code: $0.code, severity: $0.severity, range: $0.range, node: $0.node)
                         })
        }
    }

    public var nodeCount: Int { layers.reduce(0) { $0 + $1.asn1Count + $1.jsonCount } }
    public var diagnosticCount: Int { layers.reduce(0) { $0 + $1.diagnostics.count } }

    /// The first way `other` differs, in words; nil when the shapes are equal. Differing nodes are
    /// named by layer only ("its nodes differ"): the trees are not kept.
    public func firstDifference(from other: DocumentShape) -> String? { difference(from: other)?.words }

    /// The first way the opened `copy` differs, a differing node named ("layer 1 (payload): node 12
    /// differs") by walking both trees, the original's opened again by `reopenOriginal` (only then).
    public func firstDifference(from copy: Document, reopenOriginal: () -> Document) -> String? {
        guard let found = difference(from: DocumentShape(copy)) else { return nil }
        guard found.inNodes else { return found.words }
        return Self.firstNodeDifference(reopenOriginal(), copy) ?? found.words
    }

    private func difference(from other: DocumentShape) -> (words: String, inNodes: Bool)? {
        if kind != other.kind { return ("the kind differs (\(kind) → \(other.kind))", false) }
        if layers.count != other.layers.count { return ("\(layers.count) layers became \(other.layers.count)", false) }
        for (i, (a, b)) in zip(layers, other.layers).enumerated() where a != b {
            if a.byteCount != b.byteCount { return ("layer \(i) (\(a.role)) is \(b.byteCount) bytes instead of \(a.byteCount)", false) }
            if a.asn1Count != b.asn1Count || a.jsonCount != b.jsonCount {
                return ("layer \(i) (\(a.role)) has \(b.asn1Count + b.jsonCount) nodes instead of \(a.asn1Count + a.jsonCount)", false)
            }
            if a.nodeHash != b.nodeHash { return ("layer \(i) (\(a.role)): its nodes differ", true) }
            if a.diagnostics != b.diagnostics {
                let lost = a.diagnostics.filter { !b.diagnostics.contains($0) }.map(\.description)
                let gained = b.diagnostics.filter { !a.diagnostics.contains($0) }.map(\.description)
                return ("layer \(i) (\(a.role)): diagnostics differ (lost: \(lost.joined(separator: ", ")); new: \(gained.joined(separator: ", ")))", false)
            }
            return ("layer \(i) (\(a.role)) differs", false)
        }
        return nil
    }

    /// The first node that differs between two documents of the same layers and node counts
    /// ("layer 1 (payload): node 12 differs"), nil when every node is equal.
    public static func firstNodeDifference(_ a: Document, _ b: Document) -> String? {
        for (i, (x, y)) in zip(a.layers, b.layers).enumerated() {
            var node: Int?
            switch (x.content, y.content) {
            case (.asn1(let p), .asn1(let q)):
                node = zip(p.nodes.indices, zip(p.nodes, q.nodes)).first { $0.1.0 != $0.1.1 }?.0
            case (.json(let p, _), .json(let q, _)):
                node = zip(p.nodes.indices, zip(p.nodes, q.nodes)).first { $0.1.0 != $0.1.1 }?.0
            default: break
            }
            if let node { return "layer \(i) (\(String(describing: x.role))): node \(node) differs" }
        }
        return nil
    }
}
