import DocumentModel

/// Keys on a layer outline (StoreKit 2 documents): the tree keys move through rows of every
/// layer; the byte pane's cursor selects the deepest row of the shown layer holding its byte.
extension AppState {
    mutating func performOutline(_ action: Action) -> Bool {
        guard let outline, outline.count > 0 else { return false }
        let row = outlineView.selection
        let page = max(1, (viewport.tree?.height ?? 2) - 1)
        switch action {
        case .moveDown: if let n = outlineNext(row) { selectOutlineRow(n) }
        case .moveUp: if let p = outlinePrevious(row) { selectOutlineRow(p) }
        case .pageDown, .halfPageDown:
            var r = row
            for _ in 0..<(action == .pageDown ? page : max(1, page / 2)) { if let n = outlineNext(r) { r = n } }
            selectOutlineRow(r)
        case .pageUp, .halfPageUp:
            var r = row
            for _ in 0..<(action == .pageUp ? page : max(1, page / 2)) { if let p = outlinePrevious(r) { r = p } }
            selectOutlineRow(r)
        case .first: outlineView.top = 0; selectOutlineRow(0)
        case .last:
            var r = 0
            while let n = outlineNext(r) { r = n }
            selectOutlineRow(r)
        case .expandOrChild:
            if outlineHasChildren(row) { if outlineIsOpen(row) { selectOutlineRow(row + 1) } else { outlineView.expanded[row] = true } }
        case .collapseOrParent:
            if outlineHasChildren(row) && outlineIsOpen(row) { outlineView.expanded[row] = false } else if let p = outlineParent(row) { selectOutlineRow(p) }
        case .toggle: if outlineHasChildren(row) { outlineView.expanded[row].toggle() }
        case .expandSubtree:
            for i in row..<outline.rows[row].subtreeEnd { outlineView.expanded[i] = true }
        case .expandAll: outlineView.expanded = Array(repeating: true, count: outline.count)
        case .collapseAll:
            outlineView.expanded = Array(repeating: false, count: outline.count)
            outlineView.top = 0
            selectOutlineRow(0)
        case .hexLeft: moveOutlineCursor(by: -1)
        case .hexRight: moveOutlineCursor(by: 1)
        case .hexUp: moveOutlineCursor(by: -outlineBytesPerRow)
        case .hexDown: moveOutlineCursor(by: outlineBytesPerRow)
        case .hexStart: moveOutlineCursor(by: -Int.max / 2)
        case .hexEnd: moveOutlineCursor(by: Int.max / 2)
        case .tableOpen:
            guard let receipt, table.order.indices.contains(table.row) else { break }
            let purchase = receipt.purchases[table.order[table.row]]
            mode = .tree
            focus = .tree
            outlineView.expanded[purchase.node] = true
            selectOutlineRow(purchase.node)
            status = StatusMessage("transaction #\(purchase.number) in the tree")
        case .jumpToPurchase:
            status = StatusMessage("select a transaction in the purchase table (3) to jump to it", isError: true)
        case .toggleTokenText:
            outlineView.showTokenText.toggle()
            outlineView.cursor = shownRange.lowerBound
            status = StatusMessage(outlineView.showTokenText ? "byte pane: the token characters that encode the node"
                                   : "byte pane: the node's own layer (decoded JSON, DER or signature bytes)")
        default: return false
        }
        return true
    }

    /// Bytes per row of the text byte pane (its inner width).
    var outlineBytesPerRow: Int { max(1, (viewport.hex?.width ?? 17) - 1) }

    /// The layer the byte pane shows and the selected node's range in it: the node's own layer, or
    /// with `showTokenText` the token text layer that encodes it (through the layer's offset map).
    public var shownLayer: LayerID? {
        guard let row = outlineRow, let document = layered?.document else { return nil }
        let layer = document.layer(row.node.layer)
        if outlineView.showTokenText, let parent = layer.parent, layer.map != nil { return parent }
        return row.node.layer
    }

    public var shownRange: Range<Int> {
        guard let row = outlineRow, let document = layered?.document else { return 0..<0 }
        let layer = document.layer(row.node.layer)
        if outlineView.showTokenText, layer.parent != nil, let map = layer.map { return map.parentRange(row.range) }
        return row.range
    }

    /// Moves the byte cursor inside the shown layer and selects the deepest row there (in the
    /// node's own layer; in token text, the row of the token's layer that the character encodes).
    mutating func moveOutlineCursor(by delta: Int) {
        guard let layered, let layerID = shownLayer else { return }
        let count = layered.document.layer(layerID).bytes.count
        guard count > 0 else { return }
        let target = max(0, min(count - 1, outlineView.cursor.addingReportingOverflow(delta).partialValue))
        outlineView.cursor = target
        if let row = layered.outline.deepestRow(in: layerID, containing: target), !outlineView.showTokenText {
            selectOutlineRow(row, moveCursor: false)
        } else if outlineView.showTokenText, let current = outlineRow {
            // In token text: the character decodes into the node's layer at offset * 6 / 8.
            let own = layered.document.layer(current.node.layer)
            if case .base64(let start)? = own.map, target >= start {
                let decoded = (target - start) * 6 / 8
                if let row = layered.outline.deepestRow(in: current.node.layer, containing: decoded) {
                    selectOutlineRow(row, moveCursor: false)
                }
            }
        }
    }
}
