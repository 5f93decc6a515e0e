import ASN1Lenient

/// Offset column, 16 (or 8 when narrow) bytes per row in groups of 8, an ASCII column. The selected
/// node's identifier, length, content and end-of-contents octets have their own styles, its
/// ancestors' headers and its parent's range are shown more faintly, error bytes are in the error
/// style everywhere, and the hex cursor is shown when the pane has focus.
public enum HexPane {
    static func offsetText(_ offset: Int, digits: Int, base: OffsetBase) -> String {
        let raw = base == .hex ? String(offset, radix: 16, uppercase: true) : String(offset)
        return String(repeating: "0", count: max(0, digits - raw.count)) + raw
    }

    static func draw(_ state: AppState, into grid: inout Grid, rect: Rect, layout: Layout) {
        if state.layered != nil { return TextBytePane.draw(state, into: &grid, rect: rect) }
        let color = state.preferences.color
        let bytes = state.tree.bytes
        let perRow = layout.bytesPerRow, digits = layout.offsetDigits
        let selection = state.treeView.selection
        let node: Node? = selection >= 0 ? state.tree.nodes[selection] : nil
        // Ancestors: their header and end-of-contents octets; the parent's whole range.
        var ancestorMarks: [Range<Int>] = []
        var parentRange: Range<Int> = 0..<0
        if selection >= 0 {
            var current = state.tree.nodes.parentIndex(selection)
            if current >= 0 { parentRange = state.tree.nodes[current].byteRange }
            while current >= 0 {
                let a = state.tree.nodes[current]
                ancestorMarks.append(Int(a.offset)..<a.contentStart)
                if a.eocLength > 0 { ancestorMarks.append(a.eocRange) }
                current = state.tree.nodes.parentIndex(current)
            }
        }
        let showCursor = state.focus == .hex && state.mode == .tree
        func classify(_ offset: Int) -> StyleClass {
            if showCursor && offset == state.hexView.cursor { return .cursor }
            if let marked = TourOverlay.hexClass(state, offset) { return marked }
            let inSelection = node?.byteRange.contains(offset) ?? false
            if state.facts.isError(offset) { return inSelection ? .errorSelected : .error }
            if let node, inSelection {
                if offset < Int(node.offset) + Int(node.identifierLength) { return .identifier }
                if offset < node.contentStart { return .length }
                if offset < node.contentEnd { return .content }
                return .endOfContents
            }
            for mark in ancestorMarks where mark.contains(offset) { return .ancestorHeader }
            if parentRange.contains(offset) { return .ancestor }
            return .plain
        }
        let asciiX = rect.x + HexGeometry.asciiColumn(bytesPerRow: perRow, offsetDigits: digits)
        for r in 0..<rect.height {
            let y = rect.y + r
            grid.fill(x: rect.x, y: y, width: rect.width, height: 1)
            let start = (state.hexView.topRow + r) * perRow
            guard start < bytes.count else { continue }
            grid.put(offsetText(start, digits: digits, base: state.preferences.offsetBase), x: rect.x, y: y,
                     style: Theme.style(.dim, color: color), maxWidth: rect.width)
            var previous: StyleClass?
            for j in 0..<perRow {
                let offset = start + j
                guard offset < bytes.count else { break }
                let cls = classify(offset)
                let style = Theme.style(cls, color: color)
                let x = rect.x + HexGeometry.byteColumn(j, offsetDigits: digits)
                // A run of same-class bytes inside a group is one band, spaces included.
                if j % 8 != 0, let previous, previous == cls, cls != .plain, cls != .cursor {
                    grid.put(" ", x: x - 1, y: y, style: style, maxWidth: rect.x + rect.width - (x - 1))
                }
                let b = bytes[offset]
                grid.put(UIText.hex2(b).uppercased(), x: x, y: y, style: style, maxWidth: max(0, rect.x + rect.width - x))
                let ch: Unicode.Scalar = b >= 0x20 && b < 0x7F ? Unicode.Scalar(b) : "."
                if asciiX + j < rect.x + rect.width {
                    grid[asciiX + j, y] = Cell(ch, style: style)
                }
                previous = cls
            }
        }
    }
}
