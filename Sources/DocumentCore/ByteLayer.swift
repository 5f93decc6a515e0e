import ByteText
import ASN1Lenient
import JSONLenient

/// What a layer's bytes are.
public enum LayerRole: Sendable, Equatable {
    /// The decoded input (DER/BER, or a JWS token's text).
    case file
    /// A receipt payload reassembled from several OCTET STRING chunks.
    case reassembledPayload
    /// A JWS token's characters inside a JSON body or a parent token's payload.
    case jwsToken
    /// A token's base64url-decoded header / payload JSON.
    case jwsHeader
    case jwsPayload
    /// A token's decoded signature (64 bytes r‖s for ES256).
    case jwsSignature
    /// The DER of `x5c[i]`.
    case x5cCertificate(Int)
    /// JSON decoded from base64 text in the parent layer: an Advanced Commerce request's `request`
    /// claim (standard base64), an external purchase token (base64url, `urlSafe`).
    case decodedJSON(urlSafe: Bool)

    /// Whether the layer was decoded from standard base64 ('+' and '/'), not base64url.
    public var usesStandardBase64: Bool {
        switch self {
        case .x5cCertificate, .decodedJSON(urlSafe: false): true
        default: false
        }
    }
}

/// A layer's parse, by syntax; every case keeps the byte range of each node and its own diagnostics.
public enum LayerContent: Sendable {
    case asn1(Tree)
    /// JSON (a token's header or payload, or a JSON body carrying tokens): the tree, and every
    /// diagnostic of the layer (the reader's and the schema's).
    case json(JSONTree, diagnostics: [Diagnostic])
    /// A compact JWS's characters: no tree, the token's own findings (segments, base64).
    case token(diagnostics: [Diagnostic])
    /// Bytes without structure (a JWS signature), with their findings.
    case raw(diagnostics: [Diagnostic])

    /// The layer's diagnostics (node indices refer to this layer's arena).
    public var diagnostics: [Diagnostic] {
        switch self {
        case .asn1(let tree): tree.diagnostics
        case .json(_, let diagnostics), .token(let diagnostics), .raw(let diagnostics): diagnostics
        }
    }
}

/// One byte layer of a document and its parse.
public struct ByteLayer: Sendable {
    public let id: LayerID
    public var role: LayerRole
    /// A short label for headers and notes ("file", "payload (3 chunks)").
    public var name: String
    /// The layer's own array, or a window into its parent's (a token's characters in a body).
    public var bytes: ByteWindow
    /// The parse of `bytes`, every diagnostic of this layer merged into it.
    public var content: LayerContent
    /// The layer these bytes were taken from (nil for the file) and where they sit in it.
    public var parent: LayerID?
    public var map: OffsetMap?

    public init(id: LayerID, role: LayerRole, name: String, bytes: [UInt8], content: LayerContent,
                parent: LayerID? = nil, map: OffsetMap? = nil) {
        self.init(id: id, role: role, name: name, window: ByteWindow(bytes), content: content, parent: parent, map: map)
    }

    public init(id: LayerID, role: LayerRole, name: String, window bytes: ByteWindow, content: LayerContent,
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

    /// The JSON tree, for JSON layers.
    public var json: JSONTree? {
        if case .json(let tree, _) = content { return tree }
        return nil
    }

    /// The node with `index` in this layer.
    public func node(_ index: Int) -> NodeID { NodeID(id, index) }
}
