import ASN1Lenient

/// What a layer's bytes are.
public enum LayerRole: Sendable, Equatable {
    /// The decoded input (DER/BER, or a JWS token's text).
    case file
    /// A receipt payload reassembled from several OCTET STRING chunks.
    case reassembledPayload
}

/// One byte layer of a document and its parse.
public struct ByteLayer: Sendable {
    public let id: LayerID
    public var role: LayerRole
    /// A short label for headers and notes ("file", "payload (3 chunks)").
    public var name: String
    /// The parse of `bytes`, every diagnostic of this layer merged into `tree.diagnostics`.
    public var tree: Tree
    /// The layer these bytes were taken from (nil for the file) and where they sit in it.
    public var parent: LayerID?
    public var map: OffsetMap?

    public init(id: LayerID, role: LayerRole, name: String, tree: Tree, parent: LayerID? = nil, map: OffsetMap? = nil) {
        self.id = id
        self.role = role
        self.name = name
        self.tree = tree
        self.parent = parent
        self.map = map
    }

    public var bytes: [UInt8] { tree.bytes }

    /// The node with `index` in this layer.
    public func node(_ index: Int) -> NodeID { NodeID(id, index) }
}
