import ASN1Lenient
import ByteText
import TextOutput
import DocumentCore

/// The tree pane for a layer outline: one row per visible outline row (only the rows on screen).
enum OutlinePane {
    static func draw(_ state: AppState, into grid: inout Grid, rect: GridRect, glyphs: Glyphs) {
        let outline = state.outline
        let color = state.preferences.color
        let focused = state.focus == .tree && state.mode == .tree
        let visible = state.outlineVisibleRows(count: rect.height).map { ($0, outline.row($0)) }
        // A DER file's deep rows indent by one column instead of two, as the node tree always did.
        let deepest = visible.reduce(0) { max($0, $1.1.depth) }
        let fileTree = state.layered.document.fileLayer.tree != nil
        let unit = fileTree ? TreeGeometry.indentUnit(deepest: deepest, width: rect.width) : 2
        for (i, (index, row)) in visible.enumerated() {
            let y = rect.y + i
            let selected = index == state.outlineView.selection
            let rowClass: StyleClass? = selected ? (focused ? .selected : .selectedUnfocused) : nil
            func st(_ c: StyleClass) -> CellStyle { Theme.style(rowClass ?? c, color: color) }
            grid.fill(x: rect.x, y: y, width: rect.width, height: 1, style: st(.plain))
            let limit = rect.x + rect.width
            // A DER file's node: `!` error or warning in it or below, `~` only not-DER notes.
            if fileTree, row.node.layer == .file, let severity = state.facts.severity(ofSubtree: row.node.index), severity != .info {
                let notDER = severity == .notDER
                grid.put(notDER ? "~" : "!", x: rect.x, y: y, style: st(notDER ? .markerNotDER : .markerError))
            }
            var x = rect.x + 2 + TreeGeometry.indent(depth: row.depth, unit: unit, width: rect.width)
            if state.outlineHasChildren(index) {
                grid.put(state.outlineIsOpen(index) ? glyphs.expanded : glyphs.collapsed, x: x, y: y, style: st(.plain), maxWidth: max(0, limit - x))
            }
            x += 2
            guard x < limit else { continue }
            // A cut label or value ends at a word or name boundary, with the ellipsis.
            let label = glyphs.fitAtBoundary(UIText.display(row.label, ascii: state.preferences.ascii), limit - x)
            // A DER node's length is dim after its tag, as the tree pane draws it.
            if state.layered.document.layer(row.node.layer).tree != nil, let paren = label.lastIndex(of: "("), paren > label.startIndex,
               label[label.index(before: paren)] == " " {
                let space = label.index(before: paren)
                x = grid.put(String(label[..<space]), x: x, y: y, style: st(.title), maxWidth: limit - x)
                x = grid.put(String(label[space...]), x: x, y: y, style: st(.dim), maxWidth: limit - x)
            } else {
                x = grid.put(label, x: x, y: y, style: st(.title), maxWidth: limit - x)
            }
            x += 2
            guard x < limit else { continue }
            // A receipt's field reads as its meaning (name and decoded value) unless the module names the node.
            if fileTree, row.node.layer == .file, state.names.structureName(row.node.index) == nil,
               let meaning = state.additions?.meaning(of: row.node.index) {
                grid.put(glyphs.fitAtBoundary(UIText.display(meaning.label, ascii: state.preferences.ascii), limit - x), x: x, y: y, style: st(.meaning), maxWidth: limit - x)
            } else if let name = row.name {
                let text = NodeText.fit(name, preview: row.value, width: limit - x, glyphs: glyphs)
                grid.put(UIText.display(text, ascii: state.preferences.ascii), x: x, y: y, style: st(.meaning), maxWidth: limit - x)
            } else {
                grid.put(glyphs.fitAtBoundary(UIText.display(row.value, ascii: state.preferences.ascii), limit - x), x: x, y: y, style: st(.plain), maxWidth: limit - x)
            }
        }
    }
}

/// The byte pane for a layer outline: JSON and token text as text (one byte a cell, control and
/// non-ASCII bytes as `.`), DER and signature bytes as hex; the selected node's range highlighted
/// and the cursor shown when the pane has focus. Only the rows on screen are read. Where bytes sit
/// on screen is `LayerByteGeometry` (the reducer's click hit test uses the same).
enum TextBytePane {
    static func draw(_ state: AppState, into grid: inout Grid, rect: GridRect) {
        let layered = state.layered
        guard let id = state.shownLayer else { return }
        let layer = layered.document.layer(id)
        let bytes = layer.bytes
        let range = state.shownRange
        let text = LayerByteGeometry.isText(layer)
        let perRow = LayerByteGeometry.bytesPerRow(layer, width: rect.width, base: state.preferences.offsetBase)
        let color = state.preferences.color
        let top = LayerByteGeometry.topRow(state, rect: rect, perRow: perRow)
        if let rows = LayerByteGeometry.hexRows(layer, width: rect.width, base: state.preferences.offsetBase) {
            return drawHex(state, layer: layer, into: &grid, rect: rect, rows: rows, top: top)
        }
        for r in 0..<rect.height {
            let start = (top + r) * perRow
            guard start < bytes.count else { break }
            for i in start..<min(bytes.count, start + perRow) {
                let cls: StyleClass = (state.focus == .hex && i == state.outlineView.cursor) ? .cursor : (range.contains(i) ? .content : .plain)
                let cell = text ? String(printable(bytes[i])) : hexByte(bytes[i]) + " "
                let x = rect.x + (i - start) * (text ? 1 : 3)
                grid.put(cell, x: x, y: rect.y + r, style: Theme.style(cls, color: color), maxWidth: rect.x + rect.width - x)
            }
        }
    }

    /// A binary layer as the hex pane shows a file: offsets, bytes in groups of 8, ASCII; a DER
    /// node's identifier, length, content and end-of-contents octets in their styles, its
    /// ancestors' headers and its parent's range fainter, the file's error bytes marked.
    static func drawHex(_ state: AppState, layer: ByteLayer, into grid: inout Grid, rect: GridRect, rows: (perRow: Int, digits: Int), top: Int) {
        let color = state.preferences.color
        let bytes = layer.bytes
        let range = state.shownRange
        var node: Node?
        var ancestorMarks: [Range<Int>] = [], parentRange: Range<Int> = 0..<0
        if let row = state.outlineRow, row.node.layer == layer.id, let tree = layer.tree, row.node.index < tree.nodes.count {
            node = tree.nodes[row.node.index]
            var current = tree.nodes.parentIndex(row.node.index)
            if current >= 0 { parentRange = tree.nodes[current].byteRange }
            while current >= 0 {
                let a = tree.nodes[current]
                ancestorMarks.append(Int(a.offset)..<a.contentStart)
                if a.eocLength > 0 { ancestorMarks.append(a.eocRange) }
                current = tree.nodes.parentIndex(current)
            }
        }
        // The file tree's error bytes are known per byte (`TreeFacts`); other layers' are not marked.
        let errors = layer.id == .file && layer.tree != nil
        let showCursor = state.focus == .hex && state.mode == .tree
        func classify(_ offset: Int) -> StyleClass {
            if showCursor && offset == state.outlineView.cursor { return .cursor }
            let inSelection = range.contains(offset)
            if errors && state.facts.isError(offset) { return inSelection ? .errorSelected : .error }
            if let node, inSelection {
                if offset < Int(node.offset) + Int(node.identifierLength) { return .identifier }
                if offset < node.contentStart { return .length }
                if offset < node.contentEnd { return .content }
                return .endOfContents
            }
            if inSelection { return .content }
            for mark in ancestorMarks where mark.contains(offset) { return .ancestorHeader }
            if parentRange.contains(offset) { return .ancestor }
            return .plain
        }
        let asciiX = rect.x + HexGeometry.asciiColumn(bytesPerRow: rows.perRow, offsetDigits: rows.digits)
        for r in 0..<rect.height {
            let y = rect.y + r
            let start = (top + r) * rows.perRow
            guard start < bytes.count else { break }
            grid.put(NodeText.offsetText(start, digits: rows.digits, base: state.preferences.offsetBase), x: rect.x, y: y,
                     style: Theme.style(.dim, color: color), maxWidth: rect.width)
            var previous: StyleClass?
            for j in 0..<rows.perRow {
                let offset = start + j
                guard offset < bytes.count else { break }
                let cls = classify(offset)
                let style = Theme.style(cls, color: color)
                let x = rect.x + HexGeometry.byteColumn(j, offsetDigits: rows.digits)
                // A run of same-class bytes inside a group is one band, spaces included.
                if j % 8 != 0, let previous, previous == cls, cls != .plain, cls != .cursor {
                    grid.put(" ", x: x - 1, y: y, style: style, maxWidth: rect.x + rect.width - (x - 1))
                }
                grid.put(UIText.hex2(bytes[offset]).uppercased(), x: x, y: y, style: style, maxWidth: max(0, rect.x + rect.width - x))
                let b = bytes[offset]
                let ch: Unicode.Scalar = b >= 0x20 && b < 0x7F ? Unicode.Scalar(b) : "."
                if asciiX + j < rect.x + rect.width { grid[asciiX + j, y] = Cell(ch, style: style) }
                previous = cls
            }
        }
    }

    static func printable(_ byte: UInt8) -> Character {
        byte >= 0x20 && byte < 0x7F ? Character(Unicode.Scalar(byte)) : "."
    }

    static func hexByte(_ byte: UInt8) -> String { Hex.byte(byte, .lower) }

    /// "Bytes: payload (JSON text)" / "Bytes: token characters".
    static func title(_ state: AppState) -> String {
        let layered = state.layered
        guard let id = state.shownLayer else { return "Bytes" }
        let layer = layered.document.layer(id)
        let what = LayerByteGeometry.isText(layer) ? "text" : "hex"
        // A DER file's bytes are titled as the hex pane titles them.
        if id == .file, layer.tree != nil, let width = state.viewport.hex?.width,
           let rows = LayerByteGeometry.hexRows(layer, width: width, base: state.preferences.offsetBase) {
            return "Hex: \(rows.perRow) bytes/row, offsets in \(state.preferences.offsetBase == .hex ? "hex" : "decimal")"
                + (layered.document.layers.count > 1 ? (state.outlineView.showTokenText ? ", b: decoded" : ", b: token chars") : "")
        }
        // `b` (the characters that encode a node) means something only where a layer was decoded from another.
        guard layered.document.layers.count > 1 else { return "Bytes: \(UIText.escape(layer.name)) (\(what))" }
        return "Bytes: \(UIText.escape(layer.name)) (\(what))" + (state.outlineView.showTokenText ? ", b: decoded" : ", b: token chars")
    }
}

/// The detail pane for a layer outline: the node, its layer, its range, its value, and where its
/// bytes sit in the token text (base64url: 4 characters carry 3 bytes).
enum OutlineDetail {
    /// Base64 groups listed for one node before "… N more groups".
    static let groupLimit = 6

    static func style(_ tone: DetailLine.Tone) -> StyleClass {
        switch tone {
        case .plain: .plain
        case .ok: .ok
        case .fail: .fail
        case .dim: .dim
        case .title: .title
        }
    }

    static func lines(_ state: AppState, width: Int) -> [StyledLine] {
        unwrapped(state).flatMap { DetailContent.wrap($0.text, width: width, style: $0.style, indent: 17) }
    }

    static func unwrapped(_ state: AppState) -> [StyledLine] {
        let layered = state.layered
        guard let row = state.outlineRow else { return [StyledLine("(no nodes)")] }
        let layer = layered.document.layer(row.node.layer)
        var out = [StyledLine(row.label, .title)]
        if let name = row.name { out.append(StyledLine("name             " + name.text, .meaning)) }
        if let meaning = row.name?.meaning { out.append(StyledLine("meaning          " + meaning, .meaning)) }
        if !row.meaning.isEmpty { out.append(StyledLine("meaning          " + row.meaning, .meaning)) }
        if !row.raw.isEmpty { out.append(StyledLine("raw JSON         " + row.raw)) }
        if !row.value.isEmpty { out.append(StyledLine((row.meaning.isEmpty ? "value            " : "decoded          ") + row.value)) }
        out.append(StyledLine("layer            \(UIText.escape(layer.name)) (\(row.node.layer))"))
        out.append(StyledLine("node             \(row.node.index) · \(RangeText.text(row.range)) (\(row.range.count))"))
        // A DER node of any layer (a certificate, a receipt, an x5c entry): the byte-by-byte lines
        // `explain` prints (its name, meaning and diagnostics are listed above and below).
        if let tree = layer.tree, row.node.index < tree.nodes.count {
            let shown: Set<ExplanationLine.Section> = [.bytes, .identifier, .length, .content, .endOfContents]
            for line in Explainer.explain(tree, node: row.node.index, diagnostics: []) where shown.contains(line.section) {
                let label = line.section.rawValue
                out.append(StyledLine(label + String(repeating: " ", count: max(1, 17 - label.count)) + line.text))
            }
        }
        if let map = layer.map, let parent = layer.parent {
            let encoded = map.parentRange(row.range)
            out.append(StyledLine("encoded in       \(UIText.escape(layered.document.layer(parent).name)) \(RangeText.text(encoded, plural: "characters", singular: "character"))"))
            // The same group lines `explain --offset` prints, for the node's characters.
            if let groups = Base64Groups.groups(of: row.range, in: layer, parent: layered.document.layer(parent), limit: OutlineDetail.groupLimit) {
                let alphabet: String
                alphabet = layer.role.usesStandardBase64 ? "base64" : "base64url"
                out.append(StyledLine(alphabet + String(repeating: " ", count: 17 - alphabet.count) + "every 4 characters carry 3 bytes (6 bits each):", .dim))
                for line in groups { out.append(StyledLine("  " + UIText.display(line, ascii: state.preferences.ascii))) }
            }
        }
        if row.node.index == 0 {
            // What the kind says about this layer's row (a token: its parts, headline and verdict).
            for line in layered.outline.context.wording.details(of: row.node.layer, in: layered.document) {
                let text = UIText.display(UIText.escape(line.text), ascii: state.preferences.ascii)
                let left = line.label.map { $0 + String(repeating: " ", count: max(1, 17 - $0.count)) } ?? ""
                out.append(StyledLine(left + text, Self.style(line.tone)))
            }
        }
        let own = layer.content.diagnostics.filter { $0.range.overlaps(row.range) || (row.range.isEmpty && $0.range.contains(row.range.lowerBound)) }
        for d in own.prefix(8) {
            out.append(StyledLine("\(d.severity) \(d.code.rawValue): \(UIText.escape(d.message))", d.severity == .error ? .fail : .dim))
        }
        return out
    }
}
