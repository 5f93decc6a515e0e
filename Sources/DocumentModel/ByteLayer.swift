import ASN1Lenient

/// What a layer's bytes are.
public enum LayerRole: Sendable, Equatable {
    /// The decoded input (DER/BER, or a JWS token's text).
    case file
    /// A receipt payload reassembled from several OCTET STRING chunks.
    case reassembledPayload
}

/// A layer's parse, by syntax. JWS work adds JSON and token-text cases; every case keeps the
/// byte range of each node and its own diagnostics.
public enum LayerContent: Sendable {
    case asn1(Tree)

    /// The layer's diagnostics (node indices refer to this layer's arena).
    public var diagnostics: [Diagnostic] {
        switch self {
        case .asn1(let tree): tree.diagnostics
        }
    }
}

/// One byte layer of a document and its parse.
public struct ByteLayer: Sendable {
    public let id: LayerID
    public var role: LayerRole
    /// A short label for headers and notes ("file", "payload (3 chunks)").
    public var name: String
    public var bytes: [UInt8]
    /// The parse of `bytes`, every diagnostic of this layer merged into it.
    public var content: LayerContent
    /// The layer these bytes were taken from (nil for the file) and where they sit in it.
    public var parent: LayerID?
    public var map: OffsetMap?

    public init(id: LayerID, role: LayerRole, name: String, bytes: [UInt8], content: LayerContent,
                parent: LayerID? = nil, map: OffsetMap? = nil) {
        self.id = id
        self.role = role
        self.name = name
        self.bytes = bytes
        self.content = content
        self.parent = parent
        self.map = map
    }

    /// An ASN.1 layer from its parse.
    public init(id: LayerID, role: LayerRole, name: String, tree: Tree, parent: LayerID? = nil, map: OffsetMap? = nil) {
        self.init(id: id, role: role, name: name, bytes: tree.bytes, content: .asn1(tree), parent: parent, map: map)
    }

    /// The ASN.1 tree, for ASN.1 layers.
    public var tree: Tree? {
        if case .asn1(let tree) = content { return tree }
        return nil
    }

    /// The node with `index` in this layer.
    public func node(_ index: Int) -> NodeID { NodeID(id, index) }
}
