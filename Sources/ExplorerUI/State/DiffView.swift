import DocumentCore

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
    /// Each side's decoded value as the `diff` command prints it (quoted and escaped: terminal
    /// safe), nil where the engine gives none; the overlay shows bytes only without one.
    public var leftValue: String?
    public var rightValue: String?
    /// The change the list line shows after the title: `old → new` (an entry whose own fields
    /// are listed under it shows none, as the command prints it).
    public var change: String?

    public init(title: String, left: NodeID? = nil, leftRange: Range<Int>? = nil, right: NodeID? = nil, rightRange: Range<Int>? = nil,
                leftLayer: LayerID? = nil, rightLayer: LayerID? = nil, leftValue: String? = nil, rightValue: String? = nil,
                change: String? = nil) {
        self.title = title
        self.left = left
        self.leftRange = leftRange
        self.right = right
        self.rightRange = rightRange
        self.leftLayer = leftLayer
        self.rightLayer = rightLayer
        self.leftValue = leftValue
        self.rightValue = rightValue
        self.change = change
    }

    /// The list line: the title, then the change.
    var line: String { change.map { title + ": " + $0 } ?? title }
}

/// Computes the diff list of two documents: `documentDiffProvider` (the engine) unless a test sets
/// another.
public typealias DiffProvider = @Sendable (Document, Document) -> DiffList

/// The diff overlay: the entries of document 1 against document 2, the selected entry, and the
/// two sides' bytes (layer bytes resolved once, when the overlay opens).
public struct DiffViewState: Sendable {
    /// Rows made when drawn (`DiffList`).
    public var entries: DiffList
    public var row = 0
    public var names: (left: String, right: String)
    var left: Document
    var right: Document

    /// The bytes of `range` in `layer` of `document`, at most `limit` of them.
    static func bytes(_ document: Document, _ layer: LayerID?, _ range: Range<Int>?, limit: Int) -> ArraySlice<UInt8> {
        guard let layer, let range, layer.index < document.layers.count else { return [] }
        let bytes = document.layer(layer).bytes
        let lower = max(0, min(bytes.count, range.lowerBound))
        return bytes.baseSlice(lower..<min(bytes.count, lower + min(range.count, limit)))
    }
}

extension AppState {
    /// The state option behind `receipt-explorer diff A B --explore`: the diff overlay opened before
    /// the first frame, exactly as `d` opens it (the same list, status and refusal). The comparison
    /// runs here, at once: there is no screen yet to keep answering.
    public mutating func openDiffOverlay() {
        if case .compareDocuments(let job)? = openDiff() { documentsCompared(job.run()) }
    }

    /// `d`: asks for the diff of document 1 against document 2 (exactly two must be open) as an
    /// effect; the overlay opens when `Message.documentsCompared` brings the list.
    mutating func openDiff() -> Effect? {
        guard documents.count == 2 else {
            status = StatusMessage("d compares two documents: open exactly two (receipt-explorer A B)", isError: true)
            return nil
        }
        guard diffJobs.pending == nil else {
            status = StatusMessage("still comparing the two documents: the list opens when it is ready", isError: true)
            return nil
        }
        let mine = document
        guard let other = documents.parkedState(1 - documents.current)?.document else { return nil }
        let (left, right) = documents.current == 0 ? (mine, other) : (other, mine)
        let job = DiffJob(id: diffJobs.next, left: left, right: right, provider: diffProvider ?? documentDiffProvider)
        diffJobs.next += 1
        diffJobs.pending = job.id
        status = workInFlight
        return .compareDocuments(job)
    }

    /// A diff job's result: the overlay opens on it (a result for an older request is dropped).
    mutating func documentsCompared(_ result: DiffResult) {
        guard diffJobs.pending == result.id else { return }
        diffJobs.pending = nil
        let entries = result.entries
        diffView = DiffViewState(entries: entries, names: (UIText.escape(documents.names[0]), UIText.escape(documents.names[1])),
                                 left: result.left, right: result.right)
        diffView?.row = min(diffRow, max(0, entries.count - 1))  // back on the entry Enter left from
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
        case .diffGoLeft, .diffGoRight:
            goToDiffSide(left: binding.action == .diffGoLeft)
            return
        default: return
        }
        diffView = diff
        diffRow = diff.row
    }

    /// Enter / 1 (document 1, A) or 2 (document 2, B): closes the overlay, shows that document
    /// and selects the entry's node there (the innermost row holding its range for a side that is
    /// a layer's bytes); `d` comes back to the same entry.
    mutating func goToDiffSide(left: Bool) {
        guard let diff = diffView, diff.entries.indices.contains(diff.row) else { return }
        let entry = diff.entries[diff.row]
        let number = left ? 1 : 2
        let node = left ? entry.left : entry.right
        let range = left ? entry.leftRange : entry.rightRange
        guard let range, let layer = node?.layer ?? (left ? entry.leftLayer : entry.rightLayer) ?? (node == nil ? nil : .file) else {
            status = StatusMessage("this difference is only in document \(3 - number): \(number) has no node for it (press \(3 - number))", isError: true)
            return
        }
        let row = diff.row
        diffView = nil
        switchDocument(to: number - 1)
        diffRow = row
        setMode(.tree)
        focus = .tree
        let place: String
        let outline = layered.outline
        let target = node.flatMap { outline.row(of: $0) } ?? outline.deepestRow(in: layer, containing: range.lowerBound)
        if let target { selectOutlineRow(target) }
        place = node.map { "\($0)" } ?? "\(layer) @\(range.lowerBound)"
        ensureOutlineVisible()
        status = StatusMessage("difference \(row + 1) of \(diff.entries.count) in document \(number) (\(UIText.escape(file.name))): \(place); d returns to the list")
    }
}
