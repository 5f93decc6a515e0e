/// What a kind adds to the explorer beside the byte layers and their node tree: the explorer asks
/// the document's format (`Document.explorerViews`) instead of testing which kind it is.
public struct ExplorerViews: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The layer outline: every layer's rows (a token, its header, payload, signature and
    /// certificates; a JSON body's members) in one tree, with a byte pane per layer.
    public static let layerOutline = ExplorerViews(rawValue: 1 << 0)
}

extension Document {
    /// The views this document's format adds in the explorer.
    public var explorerViews: ExplorerViews { FormatRegistry.format(of: kind).explorerViews(of: self) }
}
