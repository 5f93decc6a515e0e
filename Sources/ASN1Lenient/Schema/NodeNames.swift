/// What a node is in its ASN.1 module (RFC 5280 / RFC 5652) or in the receipt format: a name, the
/// decoded meaning of its value where the tag and value alone do not say it, and one sentence.
/// Every output reads these: `dump`, `explain`, `dump --format json` and the explorer's tree.
public struct NodeName: Sendable, Equatable {
    /// "tbsCertificate", "issuer", "attribute 12 · receipt creation date". Terminal-safe.
    public var name: String
    /// "CN=Apple Root CA - G3, OU=Apple Certification Authority, O=Apple Inc., C=US",
    /// "digitalSignature, keyCertSign", "P-384"; nil when the value already says it all.
    /// Terminal-safe (input text in it is escaped).
    public var detail: String?
    /// What the part is for, one sentence (constant text); nil when the name says it.
    public var meaning: String?

    public init(_ name: String, detail: String? = nil, meaning: String? = nil) {
        self.name = name
        self.detail = detail
        self.meaning = meaning
    }

    /// "issuer: CN=…" or "tbsCertificate": the one-line form every output prints.
    public var text: String { detail.map { "\(name): \($0)" } ?? name }
}

/// The names of a tree's nodes: a table filled when the tree is matched against a schema, plus an
/// optional provider asked for the nodes the table does not hold (a receipt's attributes, which are
/// named on demand so a 10,000-purchase receipt costs nothing per node until a line is printed).
public struct NodeNames: Sendable {
    var table: [Int: NodeName]
    var provider: (@Sendable (Int) -> NodeName?)?

    public static let none = NodeNames(table: [:], provider: nil)

    public init(table: [Int: NodeName] = [:], provider: (@Sendable (Int) -> NodeName?)? = nil) {
        self.table = table
        self.provider = provider
    }

    public subscript(node: Int) -> NodeName? {
        if let name = table[node] { return name }
        return provider?(node)
    }

    /// The name the schema match gave the node (RFC 5280 / 5652), without asking the provider.
    public func structureName(_ node: Int) -> NodeName? { table[node] }

    /// Nodes named by the table (not by the provider).
    public var tableCount: Int { table.count }

    /// These names, then `other`'s provider for the nodes neither table names.
    public func adding(provider more: @escaping @Sendable (Int) -> NodeName?) -> NodeNames {
        let first = provider
        return NodeNames(table: table, provider: { node in first?(node) ?? more(node) })
    }
}
