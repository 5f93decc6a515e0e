/// Mouse: a click selects what is under the pointer, the wheel scrolls the pane under it.
extension AppState {
    mutating func performMouse(_ action: Action, event: InputEvent) -> Bool {
        switch (action, event) {
        case (.click, .mouseClick(let x, let y)): click(x: x, y: y)
        case (.wheelUp, .wheelUp(let x, let y)): wheel(x: x, y: y, delta: -3)
        case (.wheelDown, .wheelDown(let x, let y)): wheel(x: x, y: y, delta: 3)
        case (.click, _), (.wheelUp, _), (.wheelDown, _): break
        default: return false
        }
        return true
    }

    mutating func click(x: Int, y: Int) {
        let l = layout
        if y == 0, let tab = Layout.tab(at: x, purchaseCount: additions?.purchases.count) {
            if tab == .tree { setMode(.tree) } else if additions != nil { setMode(tab) }
            return
        }
        // The tree and byte panes: `performOutlineMouse`.
        if let r = l.detail, r.contains(x: x, y: y) {
            focus = .detail
            return
        }
        if mode == .purchases, let r = l.main, r.contains(x: x, y: y), y > r.y {
            moveTableRow(to: table.top + (y - r.y - 1))
        }
    }

    mutating func wheel(x: Int, y: Int, delta: Int) {
        let l = layout
        if let r = l.detail, r.contains(x: x, y: y) {
            scroll(by: delta)
        } else if mode == .purchases {
            let rows = max(1, (l.main?.height ?? 2) - 1)
            table.top = max(0, min(table.top + delta, max(0, table.order.count - rows)))
            if table.row < table.top { table.row = table.top } else if table.row >= table.top + rows { table.row = table.top + rows - 1 }
        } else if mode == .summary {
            scroll(by: delta)
        }
    }
}

/// The mouse on a layer outline: a click selects the outline row (a click on ▸ / ▾ toggles it) or
/// puts the byte cursor on the byte under the pointer, which selects the row there as the keys do.
extension AppState {
    mutating func performOutlineMouse(_ action: Action, event: InputEvent) -> Bool {
        let l = layout
        switch (action, event) {
        case (.click, .mouseClick(let x, let y)):
            if let r = l.tree, r.contains(x: x, y: y) {
                focus = .tree
                let rows = outlineVisibleRows(count: r.height)
                guard y - r.y < rows.count else { return true }
                let row = rows[y - r.y]
                let depth = outline.row(row).depth
                let unit = layered.document.fileLayer.tree == nil ? 2
                    : TreeGeometry.indentUnit(deepest: rows.reduce(0) { max($0, outline.row($1).depth) }, width: r.width)
                if x == r.x + TreeGeometry.glyphColumn(depth: depth, unit: unit, width: r.width), outlineHasChildren(row) { outlineView.expanded[row] = !outlineView.expanded[row] }
                selectOutlineRow(row)
                return true
            }
            if let r = l.hex, r.contains(x: x, y: y) {
                guard let offset = LayerByteGeometry.offset(self, rect: r, x: x, y: y) else { return true }
                focus = .hex
                setOutlineCursor(offset)
                return true
            }
            return false
        case (.wheelUp, .wheelUp(let x, let y)), (.wheelDown, .wheelDown(let x, let y)):
            let delta = action == .wheelUp ? -3 : 3
            if let r = l.tree, r.contains(x: x, y: y) {
                var top = outlineView.top
                for _ in 0..<3 { if let n = delta < 0 ? outlinePrevious(top) : outlineNext(top) { top = n } }
                // Never past the point where the last row sits at the bottom.
                if let last = outlineLast, delta > 0 { top = min(top, max(outlineView.top, outlineBackward(last, r.height - 1))) }
                outlineView.top = top
                return true
            }
            if let r = l.hex, r.contains(x: x, y: y) {
                moveOutlineCursor(by: delta * outlineBytesPerRow)
                return true
            }
            return false
        default:
            return false
        }
    }
}
