import ASN1Lenient

/// Row navigation over the visible tree without materialising it. Every function here is O(1) or
/// O(depth) per step (depth is bounded by the parser's maximum nesting).
extension AppState {
    @inline(__always)
    public func hasChildren(_ node: Int) -> Bool { Int(tree.nodes[node].subtreeEnd) > node + 1 }

    /// Expanded and has something to show.
    @inline(__always)
    public func isOpen(_ node: Int) -> Bool { treeView.expanded[node] && hasChildren(node) }

    /// The visible row after `node` (a visible node), or nil at the end.
    @inline(__always)
    public func nextVisible(_ node: Int) -> Int? {
        let next = isOpen(node) ? node + 1 : Int(tree.nodes[node].subtreeEnd)
        return next < tree.count ? next : nil
    }

    /// The visible row before `node` (a visible node), or nil at the start.
    public func previousVisible(_ node: Int) -> Int? {
        guard node > 0 else { return nil }
        let parent = tree.nodes.parentIndex(node)
        if parent == node - 1 { return parent }
        // node - 1 is the last (leaf) node of the previous sibling's subtree; the row shown for it
        // is its highest collapsed ancestor below `parent`, or itself.
        var result = node - 1
        var current = tree.nodes.parentIndex(node - 1)
        while current != parent && current >= 0 {
            if !treeView.expanded[current] { result = current }
            current = tree.nodes.parentIndex(current)
        }
        return result
    }

    /// The row that shows `node`: its highest collapsed ancestor, or itself when all are open.
    public func visibleRepresentative(_ node: Int) -> Int {
        var result = node
        var current = tree.nodes.parentIndex(node)
        while current >= 0 {
            if !treeView.expanded[current] { result = current }
            current = tree.nodes.parentIndex(current)
        }
        return result
    }

    public func isVisible(_ node: Int) -> Bool { visibleRepresentative(node) == node }

    public var firstVisible: Int? { tree.count > 0 ? 0 : nil }
    public var lastVisible: Int? { tree.count > 0 ? visibleRepresentative(tree.count - 1) : nil }

    /// `steps` visible rows down from `node` (stops at the last row).
    public func forward(_ node: Int, _ steps: Int) -> Int {
        var current = node
        var left = steps
        while left > 0, let next = nextVisible(current) {
            current = next
            left -= 1
        }
        return current
    }

    /// `steps` visible rows up from `node` (stops at the first row).
    public func backward(_ node: Int, _ steps: Int) -> Int {
        var current = node
        var left = steps
        while left > 0, let previous = previousVisible(current) {
            current = previous
            left -= 1
        }
        return current
    }

    /// The visible rows of the tree pane, from `treeTop`, at most `count` of them.
    public func visibleRows(count: Int) -> [Int] {
        guard tree.count > 0, count > 0 else { return [] }
        var rows: [Int] = []
        rows.reserveCapacity(count)
        var current: Int? = treeView.top
        while let node = current, rows.count < count {
            rows.append(node)
            current = nextVisible(node)
        }
        return rows
    }

    public mutating func expandAncestors(of node: Int) {
        var current = tree.nodes.parentIndex(node)
        while current >= 0 {
            treeView.expanded[current] = true
            current = tree.nodes.parentIndex(current)
        }
    }

    /// Selects `node`; with `expand`, opens its ancestors so it is visible. Moves the hex cursor to
    /// the node's first byte and scrolls both panes to keep it in view.
    public mutating func select(_ node: Int, expand: Bool = true, moveHexCursor: Bool = true) {
        guard node >= 0, node < tree.count else { return }
        if expand { expandAncestors(of: node) }
        treeView.selection = visibleRepresentative(node)
        detailView.scroll = 0
        if moveHexCursor { hexView.cursor = Int(tree.nodes[treeView.selection].offset) }
        ensureSelectionVisible()
    }

    /// Keeps `treeTop` on a visible row and the selection inside the tree pane, and the selected
    /// node's bytes (or the hex cursor) inside the hex pane. O(pane height + depth).
    public mutating func ensureSelectionVisible() {
        if layered != nil { return ensureOutlineVisible() }
        guard tree.count > 0 else { return }
        treeView.top = visibleRepresentative(min(max(0, treeView.top), tree.count - 1))
        treeView.selection = visibleRepresentative(min(max(0, treeView.selection), tree.count - 1))
        let layout = viewport
        let height = max(1, layout.tree?.height ?? 1)
        if treeView.selection < treeView.top {
            treeView.top = treeView.selection
        } else {
            var current = treeView.top
            var row = 0
            while current != treeView.selection && row < height {
                guard let next = nextVisible(current) else { break }
                current = next
                row += 1
            }
            if row >= height || current != treeView.selection {
                treeView.top = backward(treeView.selection, height - 1)
            }
        }
        ensureHexVisible(layout: layout)
    }

    /// Scrolls the hex pane so the hex cursor (when focused) or the selected node's start is shown;
    /// when the whole node fits, all of it is shown.
    mutating func ensureHexVisible(layout: Layout) {
        guard let hex = layout.hex, hex.height > 0 else { return }
        let perRow = layout.bytesPerRow
        let rows = hex.height
        let totalRows = max(1, (tree.bytes.count + perRow - 1) / perRow)
        if focus == .hex {
            let row = hexView.cursor / perRow
            if row < hexView.topRow { hexView.topRow = row } else if row >= hexView.topRow + rows { hexView.topRow = row - rows + 1 }
        } else if treeView.selection >= 0 {
            let node = tree.nodes[treeView.selection]
            let first = Int(node.offset) / perRow
            let last = max(first, (node.end - 1) / perRow)
            if last - first < rows {
                if first < hexView.topRow { hexView.topRow = first } else if last >= hexView.topRow + rows { hexView.topRow = last - rows + 1 }
            } else {
                // Too big to show whole: keep the hex cursor's row when it is inside the node (go to
                // offset, a click), else the node's first row.
                let anchor = node.byteRange.contains(hexView.cursor) ? hexView.cursor / perRow : first
                if anchor < hexView.topRow || anchor >= hexView.topRow + rows { hexView.topRow = anchor == first ? first : max(first, anchor - rows / 2) }
            }
        }
        hexView.topRow = max(0, min(hexView.topRow, totalRows - 1))
    }

    /// The path as sibling positions, e.g. `0 › 1 › 3`.
    public func pathText(_ node: Int, ascii: Bool) -> String {
        guard node >= 0 else { return "" }
        var positions: [Int32] = []
        var current = node
        while current >= 0 {
            positions.append(facts.siblingPosition[current])
            current = tree.nodes.parentIndex(current)
        }
        return positions.reversed().map(String.init).joined(separator: ascii ? " > " : " › ")
    }
}
