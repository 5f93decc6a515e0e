import DocumentModel

/// The tree pane's state for a layer outline (StoreKit 2 documents): which rows are open, the
/// selected row, the first row shown, and which view of the bytes the byte pane shows.
public struct OutlineViewState: Sendable {
    public var expanded: [Bool] = []
    public var selection = 0
    public var top = 0
    /// The byte pane's cursor, an offset in the selected row's layer (or its token text).
    public var cursor = 0
    /// The byte pane shows the token characters that encode the selected node instead of its own
    /// layer's bytes (for header / payload / signature nodes).
    public var showTokenText = false
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
        for (_, d) in document.diagnostics { c[Int(d.severity.rawValue)] += 1 }
        counts = (c[0], c[1], c[2])
    }
}

extension AppState {
    /// The outline, when this document is shown as one (StoreKit 2 tokens and bodies).
    public var outline: LayerOutline? { layered?.outline }

    /// Sets up the outline for `document` (nil for ASN.1 documents): the first two levels open.
    mutating func adoptOutline(_ document: Document) {
        guard let outline = LayerOutline(document: document) else { return }
        layered = OutlineContext(outline: outline, document: document)
        outlineView.expanded = outline.rows.map { $0.depth < 2 && $0.subtreeEnd > 0 }
        outlineView.selection = 0
    }

    /// The selected row, when there is an outline.
    public var outlineRow: OutlineRow? {
        guard let outline, outlineView.selection < outline.count else { return nil }
        return outline.rows[outlineView.selection]
    }

    func outlineHasChildren(_ row: Int) -> Bool { outline.map { $0.rows[row].subtreeEnd > row + 1 } ?? false }
    func outlineIsOpen(_ row: Int) -> Bool { row < outlineView.expanded.count && outlineView.expanded[row] }

    /// The next visible row after `row` (skipping closed subtrees): O(1).
    func outlineNext(_ row: Int) -> Int? {
        guard let outline else { return nil }
        let next = outlineIsOpen(row) ? row + 1 : outline.rows[row].subtreeEnd
        return next < outline.count ? next : nil
    }

    /// The visible row before `row`: walk forward from its parent (or the first row) to it.
    func outlinePrevious(_ row: Int) -> Int? {
        guard row > 0 else { return nil }
        var last = outlineParent(row) ?? 0
        var current: Int? = last
        while let c = current, c < row { last = c; current = outlineNext(c) }
        return last
    }

    func outlineParent(_ row: Int) -> Int? {
        guard let outline else { return nil }
        let depth = outline.rows[row].depth
        var i = row - 1
        while i >= 0 { if outline.rows[i].depth < depth { return i }; i -= 1 }
        return nil
    }

    /// The rows on screen from `top`.
    func outlineVisibleRows(count: Int) -> [Int] {
        guard let outline, outline.count > 0 else { return [] }
        var rows: [Int] = []
        var current: Int? = min(outlineView.top, outline.count - 1)
        while let c = current, rows.count < count { rows.append(c); current = outlineNext(c) }
        return rows
    }

    /// Selects `row`, opening its ancestors, and scrolls it into view.
    mutating func selectOutlineRow(_ row: Int, moveCursor: Bool = true) {
        guard let outline, row >= 0, row < outline.count else { return }
        var parent = outlineParent(row)
        while let p = parent { outlineView.expanded[p] = true; parent = outlineParent(p) }
        outlineView.selection = row
        if moveCursor { outlineView.cursor = outline.rows[row].range.lowerBound }
        ensureOutlineVisible()
    }

    mutating func ensureOutlineVisible() {
        let height = max(1, viewport.tree?.height ?? 1)
        if outlineView.selection < outlineView.top || !isOutlineVisible(outlineView.top) { outlineView.top = outlineView.selection; return }
        var row = outlineView.top, shown = 1
        while row != outlineView.selection, let next = outlineNext(row) { row = next; shown += 1 }
        while shown > height, let next = outlineNext(outlineView.top) { outlineView.top = next; shown -= 1 }
    }

    func isOutlineVisible(_ row: Int) -> Bool {
        var parent = outlineParent(row)
        while let p = parent { if !outlineIsOpen(p) { return false }; parent = outlineParent(p) }
        return true
    }
}
