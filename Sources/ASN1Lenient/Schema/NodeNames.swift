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
    /// One bit per node up to the largest named one: most nodes are not in the table (a receipt's
    /// payload), and a bit test is cheaper than hashing for each of a million dumped lines.
    var inTable: [UInt64]
    var provider: (@Sendable (Int) -> NodeName?)?

    public static let none = NodeNames(table: [:], provider: nil)

    public init(table: [Int: NodeName] = [:], provider: (@Sendable (Int) -> NodeName?)? = nil) {
        self.table = table
        self.provider = provider
        var bits = [UInt64](repeating: 0, count: (table.keys.max() ?? -1) / 64 + 1)
        for node in table.keys where node >= 0 { bits[node >> 6] |= 1 << UInt64(node & 63) }
        inTable = bits
    }

    @inline(__always)
    func isInTable(_ node: Int) -> Bool {
        node >= 0 && node >> 6 < inTable.count && inTable[node >> 6] & (1 << UInt64(node & 63)) != 0
    }

    public subscript(node: Int) -> NodeName? {
        if isInTable(node) { return table[node] }
        return provider?(node)
    }

    /// The name the schema match gave the node (RFC 5280 / 5652), without asking the provider.
    public func structureName(_ node: Int) -> NodeName? { isInTable(node) ? table[node] : nil }

    /// Nodes named by the table (not by the provider).
    public var tableCount: Int { table.count }

    /// These names, then `more` for the nodes neither the table nor this provider names.
    public func adding(provider more: @escaping @Sendable (Int) -> NodeName?) -> NodeNames {
        guard let first = provider else { return NodeNames(table: table, provider: more) }
        return NodeNames(table: table, provider: { node in first(node) ?? more(node) })
    }
}
