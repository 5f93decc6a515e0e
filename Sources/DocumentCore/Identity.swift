/// A byte layer of a document: the file itself, a reassembled payload, a JWS token's text, its
/// decoded JSON, an `x5c` certificate's DER… Its value is the layer's index in `Document.layers`.
public struct LayerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let index: Int
    public init(_ index: Int) { self.index = index }

    /// The file's own bytes are always the first layer.
    public static let file = LayerID(0)

    public static func < (a: LayerID, b: LayerID) -> Bool { a.index < b.index }
    public var description: String { "layer \(index)" }
}

/// A node of one layer's tree. Fields, diagnostics, search hits, tour steps, diff entries and UI
/// selections all refer to nodes this way, so that no index is ever read in the wrong tree.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let layer: LayerID
    /// Index into that layer's node arena.
    public let index: Int

    public init(_ layer: LayerID, _ index: Int) {
        self.layer = layer
        self.index = index
    }

    public static func < (a: NodeID, b: NodeID) -> Bool {
        a.layer != b.layer ? a.layer < b.layer : a.index < b.index
    }

    public var description: String { "node \(index) of \(layer)" }
}
