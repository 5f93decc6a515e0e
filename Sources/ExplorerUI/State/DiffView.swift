import DocumentModel

/// One entry of the diff list: what differs, and where on each side (a node and its bytes; nil on
/// the side where it is absent, e.g. a purchase that was added).
public struct DiffListEntry: Sendable, Equatable {
    public var title: String
    public var left: NodeID?
    public var leftRange: Range<Int>?
    public var right: NodeID?
    public var rightRange: Range<Int>?
    /// The layer of a range that has no node (a token's characters, a signature).
    public var leftLayer: LayerID?
    public var rightLayer: LayerID?

    public init(title: String, left: NodeID? = nil, leftRange: Range<Int>? = nil, right: NodeID? = nil, rightRange: Range<Int>? = nil,
                leftLayer: LayerID? = nil, rightLayer: LayerID? = nil) {
        self.title = title
        self.left = left
        self.leftRange = leftRange
        self.right = right
        self.rightRange = rightRange
        self.leftLayer = leftLayer
        self.rightLayer = rightLayer
    }
}

/// Computes the diff list of two documents: `documentDiffProvider` (the engine) unless a test sets
/// another.
public typealias DiffProvider = @Sendable (Document, Document) -> [DiffListEntry]

/// The diff overlay: the entries of document 1 against document 2, the selected entry, and the
/// two sides' bytes (layer bytes resolved once, when the overlay opens).
public struct DiffViewState: Sendable {
    public var entries: [DiffListEntry]
    public var row = 0
    public var names: (left: String, right: String)
    var left: Document
    var right: Document

    /// The bytes of `range` in `layer` of `document`, at most `limit` of them.
    static func bytes(_ document: Document, _ layer: LayerID?, _ range: Range<Int>?, limit: Int) -> ArraySlice<UInt8> {
        guard let layer, let range, layer.index < document.layers.count else { return [] }
        let bytes = document.layer(layer).bytes
        let lower = max(0, min(bytes.count, range.lowerBound))
        return bytes[lower..<min(bytes.count, lower + min(range.count, limit))]
    }
}

extension AppState {
    /// The state option behind `receipt-explorer diff A B --explore`: the diff overlay opened before
    /// the first frame, exactly as `d` opens it (the same list, status and refusal).
    public mutating func openDiffOverlay() {
        openDiff()
    }

    /// `d`: the diff of document 1 against document 2 (exactly two must be open).
    mutating func openDiff() {
        guard documents.count == 2 else {
            status = StatusMessage("d compares two documents: open exactly two (receipt-explorer A B)", isError: true)
            return
        }
        let provider = diffProvider ?? documentDiffProvider
        guard let mine = openedDocument, let other = documents.parkedState(1 - documents.current)?.openedDocument else { return }
        let (left, right) = documents.current == 0 ? (mine, other) : (other, mine)
        let entries = provider(left, right)
        diffView = DiffViewState(entries: entries, names: (UIText.escape(documents.names[0]), UIText.escape(documents.names[1])),
                                 left: left, right: right)
        status = StatusMessage(entries.isEmpty ? "the two documents are equivalent" : "\(entries.count) difference\(entries.count == 1 ? "" : "s")")
    }

    mutating func reduceDiff(_ event: InputEvent) {
        guard var diff = diffView, let binding = Keymap.binding(for: event, in: .diff) else { return }
        switch binding.action {
        case .moveUp: diff.row = max(0, diff.row - 1)
        case .moveDown: diff.row = min(max(0, diff.entries.count - 1), diff.row + 1)
        case .first: diff.row = 0
        case .last: diff.row = max(0, diff.entries.count - 1)
        case .showDiff:
            diffView = nil
            return
        default: return
        }
        diffView = diff
    }
}
