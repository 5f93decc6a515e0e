import ASN1Lenient
import JSONLenient
import DocumentCore

/// Everything about an opened document except the values: per layer its role, parent, size,
/// every node (ASN.1 tag, offset, header and content lengths, links; JSON kind and ranges) and
/// every diagnostic's code, severity, range and node. A redacted copy must have the same shape as
/// its original; `redact` checks this on every copy before writing it.
public struct DocumentShape: Equatable, Sendable {
    public struct Layer: Equatable, Sendable {
        public var role: String
        public var parent: Int?
        public var byteCount: Int
        /// The tree's own node store, shared, not copied (a copy took 20 bytes a node, twice:
        /// original and redacted copy; issue 32).
        public var asn1: NodeStore
        public var json: [JSONNode]
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
            var asn1 = NodeStore()
            var json: [JSONNode] = []
            switch layer.content {
            case .asn1(let tree): asn1 = tree.nodes
            case .json(let tree, _): json = tree.nodes
            case .token, .raw: break
            }
            return Layer(role: String(describing: layer.role), parent: layer.parent?.index, byteCount: layer.bytes.count,
                         asn1: asn1, json: json,
                         diagnostics: layer.content.diagnostics.map {
                             DiagnosticShape(code: $0.code, severity: $0.severity, range: $0.range, node: $0.node)
                         })
        }
    }

    public var nodeCount: Int { layers.reduce(0) { $0 + $1.asn1.count + $1.json.count } }
    public var diagnosticCount: Int { layers.reduce(0) { $0 + $1.diagnostics.count } }

    /// The first way `other` differs, in words; nil when the shapes are equal.
    public func firstDifference(from other: DocumentShape) -> String? {
        if kind != other.kind { return "the kind differs (\(kind) → \(other.kind))" }
        if layers.count != other.layers.count { return "\(layers.count) layers became \(other.layers.count)" }
        for (i, (a, b)) in zip(layers, other.layers).enumerated() where a != b {
            if a.byteCount != b.byteCount { return "layer \(i) (\(a.role)) is \(b.byteCount) bytes instead of \(a.byteCount)" }
            let countA: Int = a.asn1.count + a.json.count
            let countB: Int = b.asn1.count + b.json.count
            if a.asn1.count != b.asn1.count || a.json.count != b.json.count {
                return "layer \(i) (\(a.role)) has \(countB) nodes instead of \(countA)"
            }
            let asn1Node: Int? = a.asn1.indices.first { a.asn1[$0] != b.asn1[$0] }
            let jsonNode: Int? = a.json.indices.first { a.json[$0] != b.json[$0] }
            if let n = asn1Node ?? jsonNode {
                return "layer \(i) (\(a.role)): node \(n) differs"
            }
            if a.diagnostics != b.diagnostics {
                let lost = a.diagnostics.filter { !b.diagnostics.contains($0) }.map(\.description)
                let gained = b.diagnostics.filter { !a.diagnostics.contains($0) }.map(\.description)
                return "layer \(i) (\(a.role)): diagnostics differ (lost: \(lost.joined(separator: ", ")); new: \(gained.joined(separator: ", ")))"
            }
            return "layer \(i) (\(a.role)) differs"
        }
        return nil
    }
}
