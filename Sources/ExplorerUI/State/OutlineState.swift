import DocumentCore

/// The tree pane's state for a layer outline (StoreKit 2 documents): which rows are open, the
/// selected row, the first row shown, and which view of the bytes the byte pane shows.
public struct OutlineViewState: Sendable {
    /// One bit per row (a million-node file's set is copied in 125 KB, not 1 MB, on a key that changes it).
    public var expanded = NodeBitSet(count: 0)
    public var selection = 0
    public var top = 0
    /// The byte pane's cursor, an offset in the selected row's layer (or its token text).
    public var cursor = 0
    /// The byte pane shows the token characters that encode the selected node instead of its own
    /// layer's bytes (for header / payload / signature nodes).
    public var showTokenText = false
    /// While the byte cursor moves in token-text view, the layer it moves in (so selecting a row of
    /// a decoded layer keeps the characters on screen); nil: the selected row's parent layer.
    public var textLayer: LayerID?
}

/// The layered document behind an outline: what the byte and detail panes read.
public struct OutlineContext: Sendable {
    public let outline: LayerOutline
    public let document: Document
    /// Diagnostics of every layer by severity (error, not-DER, warning), for the status bar: the
    /// ASN.1 file tree a token lacks would count none.
    public let counts: (errors: Int, notDER: Int, warnings: Int)

    init(outline: LayerOutline, document: Document) {
        self.outline = outline
        self.document = document
        var c = [0, 0, 0, 0]
        // Layer by layer: `document.diagnostics` would list them all again (10,000 findings: 1.6 MB).
        for layer in document.layers {
            for d in layer.content.diagnostics { c[Int(d.severity.rawValue)] += 1 }
        }
        counts = (c[0], c[1], c[2])
    }
}

extension AppState {
    /// The outline, when this document is shown as one (StoreKit 2 tokens and bodies).
    public var outline: LayerOutline { layered.outline }

    /// Sets up the outline for `document`: a receipt opens the path to its attributes and selects
    /// its payload (`ExplorerAdditions`' node choices, as outline rows); other documents open their
    /// first levels (three for a DER file, as the node tree always has; two otherwise, so the rows
    /// of unbuilt tokens, which sit deeper, stay unbuilt).
    mutating func openOutline() {
        let outline = layered.outline
        outlineView.expanded = NodeBitSet(count: outline.count)
        outlineView.selection = 0
        let receiptNodes = (additions?.defaultExpanded ?? []).compactMap { outline.row(of: NodeID(.file, $0)) }
        if !receiptNodes.isEmpty {
            for row in receiptNodes {
                outlineView.expanded[row] = true
                var parent = outlineParent(row)
                while let p = parent { outlineView.expanded[p] = true; parent = outlineParent(p) }
            }
        } else {
            let levels = layered.document.fileLayer.tree != nil ? 3 : 2
            var row: Int? = outline.count > 0 ? 0 : nil
            while let r = row {
                let current = outline.extent(r)
                if current.depth < levels && current.subtreeEnd > r + 1 {
                    outlineView.expanded[r] = true
                    row = r + 1
                } else {
                    row = current.subtreeEnd < outline.count ? current.subtreeEnd : nil
                }
            }
        }
        if let initial = additions?.initialSelection, initial >= 0, let row = outline.row(of: NodeID(.file, initial)) {
            selectOutlineRow(row)
            // The tree from its first row whenever the payload fits on the first screen (a reader
            // sees the container that holds it); only a payload below the pane scrolls, to a
            // little context above it, never pinned to the bottom.
            if !showOutlineFromFirstRowIfSelectionFits() { outlineView.top = outlineBackward(row, 2) }
            ensureOutlineVisible()
        }
    }

    /// Scrolls the tree back to its first row when the selection is on that first screen (the
    /// explorer opens at 80×24 and then learns the terminal's size: a larger one shows the tree
    /// from the top again). False, and nothing changed, when the selection is below it.
    @discardableResult
    mutating func showOutlineFromFirstRowIfSelectionFits() -> Bool {
        let height = viewport.tree?.height ?? 1
        let row = outlineView.selection
        var shown = 0, current = 0
        while current != row, shown < height - 1, let next = outlineNext(current) { current = next; shown += 1 }
        guard current == row, outline.count > 0 else { return false }
        outlineView.top = 0
        return true
    }

    /// The selected row, when there is an outline.
    public var outlineRow: OutlineRow? {
        guard outlineView.selection < outline.count else { return nil }
        return outline.row(outlineView.selection)
    }

    func outlineHasChildren(_ row: Int) -> Bool { outline.extent(row).subtreeEnd > row + 1 }
    func outlineIsOpen(_ row: Int) -> Bool { row < outlineView.expanded.count && outlineView.expanded[row] && outlineHasChildren(row) }

    /// The next visible row after `row` (skipping closed subtrees): O(1).
    func outlineNext(_ row: Int) -> Int? {
        let next = outlineIsOpen(row) ? row + 1 : outline.extent(row).subtreeEnd
        return next < outline.count ? next : nil
    }

    /// The visible row before `row`: its parent, or the row showing the row just before it (its
    /// highest closed ancestor below the parent). O(depth); an unbuilt token stays unbuilt.
    func outlinePrevious(_ row: Int) -> Int? {
        guard row > 0 else { return nil }
        let parent = outline.parent(row)
        if parent == row - 1 { return parent }
        return outlineRepresentative(row - 1, below: parent)
    }

    /// The row showing `row`: its highest closed ancestor (below `stop`), or itself.
    func outlineRepresentative(_ row: Int, below stop: Int = -1) -> Int {
        // A row inside an unbuilt, closed token is shown by the token's row (no need to build it).
        var result = row
        if let head = outline.unbuiltHead(row), !outlineIsOpen(head) { result = head }
        var current = outline.parent(result)
        while current >= 0 && current != stop {
            if !outlineIsOpen(current) { result = current }
            current = outline.parent(current)
        }
        return result
    }

    func outlineParent(_ row: Int) -> Int? {
        let parent = outline.parent(row)
        return parent >= 0 ? parent : nil
    }

    /// The last visible row: O(depth).
    var outlineLast: Int? {
        guard outline.count > 0 else { return nil }
        return outlineRepresentative(outline.count - 1)
    }

    /// `steps` visible rows up from `row`.
    func outlineBackward(_ row: Int, _ steps: Int) -> Int {
        var current = row
        for _ in 0..<max(0, steps) { guard let p = outlinePrevious(current) else { break }; current = p }
        return current
    }

    /// The rows on screen from `top`.
    func outlineVisibleRows(count: Int) -> [Int] {
        guard outline.count > 0 else { return [] }
        var rows: [Int] = []
        var current: Int? = min(outlineView.top, outline.count - 1)
        while let c = current, rows.count < count { rows.append(c); current = outlineNext(c) }
        return rows
    }

    /// Selects `row`, opening its ancestors, and scrolls it into view.
    mutating func selectOutlineRow(_ row: Int, moveCursor: Bool = true) {
        guard row >= 0, row < outline.count else { return }
        var parent = outlineParent(row)
        while let p = parent { outlineView.expanded[p] = true; parent = outlineParent(p) }
        outlineView.selection = row
        detailView.scroll = 0
        if moveCursor {
            outlineView.textLayer = nil
            outlineView.cursor = shownRange.lowerBound
        }
        ensureOutlineVisible()
    }

    /// Keeps `top` on a visible row and the selection within the pane's height of it: O(height + depth).
    mutating func ensureOutlineVisible() {
        guard outline.count > 0 else { return }
        let height = max(1, viewport.tree?.height ?? 1)
        outlineView.top = outlineRepresentative(outlineView.top)
        if outlineView.selection < outlineView.top { outlineView.top = outlineView.selection; return }
        var row = outlineView.top, shown = 1
        while row != outlineView.selection, shown <= height, let next = outlineNext(row) { row = next; shown += 1 }
        if row != outlineView.selection || shown > height { outlineView.top = outlineBackward(outlineView.selection, height - 1) }
    }
}

extension AppState {
    /// The file tree's node that the selected row is (a receipt's or a certificate's DER), or -1.
    public var selectedFileNode: Int {
        guard let row = outlineRow, row.node.layer == .file, layered.document.fileLayer.tree != nil else { return -1 }
        return row.node.index
    }

    /// Whether file node `node`'s row is shown (every ancestor open).
    public func isFileNodeShown(_ node: Int) -> Bool {
        guard let row = outline.row(of: NodeID(.file, node)) else { return false }
        return outlineRepresentative(row) == row
    }
}
