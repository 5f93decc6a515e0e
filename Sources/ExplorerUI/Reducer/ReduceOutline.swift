import DocumentCore

/// Keys on a layer outline (StoreKit 2 documents): the tree keys move through rows of every
/// layer; the byte pane's cursor selects the deepest row of the shown layer holding its byte.
extension AppState {
    mutating func performOutline(_ action: Action) -> Bool {
        guard outline.count > 0 else { return false }
        let row = outlineView.selection
        let page = max(1, (viewport.tree?.height ?? 2) - 1)
        switch action {
        case .moveDown: if let n = outlineNext(row) { selectOutlineRow(n) }
        case .moveUp: if let p = outlinePrevious(row) { selectOutlineRow(p) }
        case .pageDown, .halfPageDown, .pageUp, .halfPageUp, .hexPageUp, .hexPageDown:
            let down = [.pageDown, .halfPageDown, .hexPageDown].contains(action)
            let half = action == .halfPageDown || action == .halfPageUp
            if activeContext == .hex {
                let rows = max(1, (viewport.hex?.height ?? 2) - 1)
                moveOutlineCursor(by: (down ? 1 : -1) * outlineBytesPerRow * (half ? max(1, rows / 2) : rows))
                break
            }
            if half { moveOutlineRows((down ? 1 : -1) * max(1, (viewport.tree?.height ?? 2) / 2)); break }
            var r = row
            for _ in 0..<page {
                if let n = down ? outlineNext(r) : outlinePrevious(r) { r = n }
            }
            selectOutlineRow(r)
        case .first: outlineView.top = 0; selectOutlineRow(0)
        case .last: if let last = outlineLast { selectOutlineRow(last) }
        case .expandOrChild:
            guard outlineHasChildren(row) else { status = StatusMessage("no children"); break }
            if outlineIsOpen(row) { selectOutlineRow(row + 1) } else { outlineView.expanded[row] = true }
        case .collapseOrParent:
            if outlineIsOpen(row) { outlineView.expanded[row] = false } else if let p = outlineParent(row) { selectOutlineRow(p) } else {
                status = StatusMessage("a top row: no parent")
            }
        case .toggle:
            guard outlineHasChildren(row) else { status = StatusMessage("no children"); break }
            outlineView.expanded[row] = !outlineView.expanded[row]
        case .expandSubtree:
            guard outlineHasChildren(row) else { status = StatusMessage("no children"); break }
            outlineView.expanded.fill(row..<outline.row(row).subtreeEnd, true)
        case .expandAll: outlineView.expanded.fill(0..<outline.count, true)
        case .collapseAll:
            outlineView.expanded = NodeBitSet(count: outline.count)
            outlineView.top = 0
            selectOutlineRow(outlineRepresentative(row))
        case .hexLeft: moveOutlineCursor(by: -1)
        case .hexRight: moveOutlineCursor(by: 1)
        case .hexUp: moveOutlineCursor(by: -outlineBytesPerRow)
        case .hexDown: moveOutlineCursor(by: outlineBytesPerRow)
        case .hexStart: moveOutlineCursor(by: -Int.max / 2)
        case .hexEnd: moveOutlineCursor(by: Int.max / 2)
        case .tableOpen:
            guard let additions, table.order.indices.contains(table.row) else {
                status = StatusMessage("no transaction to show: the table is empty", isError: true)
                break
            }
            let purchase = additions.purchases[table.order[table.row]]
            switch purchase.target {
            case .node(let node, _):
                // An in-app purchase of a receipt: its node's row, shown (not opened).
                guard let row = outline.row(of: node) else { break }
                mode = .tree
                focus = .tree
                selectOutlineRow(row)
                status = StatusMessage("in-app purchase #\(purchase.number) in the tree (p goes back)")
            case .layer(let layer):
                guard let tokenRow = outline.row(of: NodeID(layer, 0)) else { break }
                mode = .tree
                focus = .tree
                outlineView.expanded[tokenRow] = true
                selectOutlineRow(tokenRow)
                status = StatusMessage("transaction #\(purchase.number) in the tree (p goes back)")
            }
        case .jumpToPurchase: jumpToOutlinePurchase()
        case .toggleTokenText:
            outlineView.showTokenText.toggle()
            outlineView.textLayer = nil
            outlineView.cursor = shownRange.lowerBound
            status = StatusMessage(outlineView.showTokenText ? "byte pane: the characters that encode the node"
                                   : "byte pane: the node's own layer (decoded JSON, DER or signature bytes)")
        default: return false
        }
        return true
    }

    /// Bytes per row of the byte pane for the layer it shows.
    var outlineBytesPerRow: Int {
        let width = viewport.hex?.width ?? 17
        guard let id = shownLayer else { return max(1, width - 1) }
        return LayerByteGeometry.bytesPerRow(layered.document.layer(id), width: width, base: preferences.offsetBase)
    }

    /// `p`: from a row inside a transaction token to its row of the purchase table.
    mutating func jumpToOutlinePurchase() {
        guard let additions else { status = StatusMessage("not a receipt: there is no purchase table", isError: true); return }
        guard let row = outlineRow else { return }
        // A receipt's in-app purchase holds the row's node.
        if row.node.layer == .file, layered.document.fileLayer.tree != nil {
            guard let index = additions.purchaseIndex(containing: row.node.index) else {
                status = StatusMessage("this node is not inside an in-app purchase", isError: true)
                return
            }
            showPurchase(index, saying: "in-app purchase #\(additions.purchases[index].number)")
            return
        }
        var layer: LayerID? = row.node.layer
        while let l = layer {
            if let index = additions.purchases.firstIndex(where: { $0.target == .layer(l) }) {
                showPurchase(index, saying: "transaction #\(additions.purchases[index].number)")
                return
            }
            layer = layered.document.layer(l).parent
        }
        status = StatusMessage("this row is not inside a transaction token", isError: true)
    }

    /// The layer the byte pane shows: the selected row's own layer, or in token-text view the layer
    /// whose characters encode it (the token text for a header / payload / signature node, the
    /// header's x5c characters for a certificate node, a nested token's text for its nodes).
    public var shownLayer: LayerID? {
        guard let row = outlineRow else { return nil }
        let document = layered.document
        guard outlineView.showTokenText else { return row.node.layer }
        if let pinned = outlineView.textLayer { return pinned }
        let layer = document.layer(row.node.layer)
        if let parent = layer.parent, layer.map != nil { return parent }
        return row.node.layer
    }

    /// The selected row's range in the shown layer (mapped up through the offset maps).
    public var shownRange: Range<Int> {
        guard let row = outlineRow, let shown = shownLayer else { return 0..<0 }
        let document = layered.document
        var layer = row.node.layer
        var range = row.range
        while layer != shown {
            guard let parent = document.layer(layer).parent, let map = document.layer(layer).map else { return row.range }
            range = map.parentRange(range)
            layer = parent
        }
        return range
    }

    mutating func moveOutlineCursor(by delta: Int) {
        setOutlineCursor(outlineView.cursor.addingReportingOverflow(delta).partialValue)
    }

    /// Puts the byte cursor on `target` of the shown layer and selects the deepest row there: in
    /// the node's own layer; in token-text view, in the innermost layer the character decodes
    /// into (a header or payload field, a signature half, a certificate node inside x5c, a part of
    /// a nested token), while the pane keeps showing the same characters.
    mutating func setOutlineCursor(_ target: Int) {
        guard let layerID = shownLayer else { return }
        let count = layered.document.layer(layerID).bytes.count
        guard count > 0 else { return }
        let offset = max(0, min(count - 1, target))
        if outlineView.showTokenText { outlineView.textLayer = layerID }
        outlineView.cursor = offset
        let outline = layered.outline
        let row = outlineView.showTokenText ? outline.innermost(from: layerID, offset: offset)?.row
            : outline.deepestRow(in: layerID, containing: offset)
        if let row { selectOutlineRow(row, moveCursor: false) }
    }

    /// Ctrl-D / Ctrl-U: the pane and the selection move together by `rows` visible rows, as `less` does.
    mutating func moveOutlineRows(_ rows: Int) {
        if rows < 0 {
            outlineView.top = outlineBackward(outlineView.top, -rows)
            selectOutlineRow(outlineBackward(outlineView.selection, -rows))
            return
        }
        var target = outlineView.selection, top = outlineView.top
        for _ in 0..<rows {
            if let n = outlineNext(target) { target = n }
            if let n = outlineNext(top) { top = n }
        }
        outlineView.top = min(top, target)
        if outlineNext(target) == nil { outlineView.top = outlineBackward(target, max(0, (viewport.tree?.height ?? 1) - 1)) }
        selectOutlineRow(target)
    }

    /// The purchases view with the table's cursor on purchase `index`, and `message` in the status.
    private mutating func showPurchase(_ index: Int, saying message: String) {
        mode = .purchases
        focus = .table
        table.row = tableRow(showing: index)
        ensureTableVisible()
        status = StatusMessage(message)
    }
}
