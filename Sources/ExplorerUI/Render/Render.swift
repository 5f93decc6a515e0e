import ASN1Lenient
import DocumentCore
import ByteText

/// The view function: draws the whole screen for `state` into a fresh grid. Pure, and it only
/// touches the rows on screen: the tree pane walks from `treeTop`, the hex pane reads the bytes of
/// its rows, the detail pane explains one node.
public func render(_ state: AppState, size: GridSize) -> Grid {
    var grid = Grid(size: size)
    let layout = Layout(size: size, state: state)
    let glyphs = Glyphs.forState(state)
    guard layout.kind != .tooSmall else {
        TooSmall.draw(into: &grid, size: size, color: state.preferences.color)
        return grid
    }
    HeaderBar.draw(state, into: &grid, width: size.width, glyphs: glyphs)
    PaneBorders.draw(state, layout: layout, into: &grid, glyphs: glyphs)
    switch layout.kind {
    case .single:
        if let main = layout.main {
            if state.mode == .summary {
                SummaryView.draw(state, into: &grid, rect: main)
            } else {
                PurchaseTable.draw(state, into: &grid, rect: main, glyphs: glyphs)
            }
        }
    default:
        if let r = layout.tree { OutlinePane.draw(state, into: &grid, rect: r, glyphs: glyphs) }
        if let r = layout.hex { TextBytePane.draw(state, into: &grid, rect: r) }
        if let r = layout.detail { DetailPane.draw(state, into: &grid, rect: r) }
    }
    StatusBar.draw(state, into: &grid, size: size, glyphs: glyphs)
    if state.diffView != nil { DiffOverlay.draw(state, into: &grid, size: size, glyphs: glyphs) }
    if state.timelineView != nil { TimelineOverlay.draw(state, into: &grid, size: size, glyphs: glyphs) }
    if state.help.visible { HelpOverlay.draw(state, into: &grid, size: size, glyphs: glyphs) }
    if state.preferences.ascii {
        // Safety net: in ASCII mode every cell is ASCII, whatever a pane wrote.
        for y in 0..<size.height {
            for x in 0..<size.width where grid[x, y].scalar.value > 0x7E {
                grid[x, y] = Cell(UIText.asciiCell(grid[x, y].scalar), style: grid[x, y].style)
            }
        }
    }
    return grid
}

/// "terminal too small (need 60×16, have W×H)", centred; never a crash, whatever the size.
enum TooSmall {
    static func message(_ size: GridSize) -> [String] {
        ["terminal too small", "(need \(Layout.minimum.width)x\(Layout.minimum.height), have \(size.width)x\(size.height))",
         "enlarge the window or press q"]
    }

    static func draw(into grid: inout Grid, size: GridSize, color: Bool) {
        guard size.width > 0, size.height > 0 else { return }
        let lines = message(size)
        let top = max(0, (size.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < size.height {
            let n = line.unicodeScalars.count
            let x = max(0, (size.width - n) / 2)
            grid.put(line, x: x, y: top + i, style: Theme.style(i == 0 ? .title : .plain, color: color), maxWidth: size.width - x)
        }
    }
}

/// The pane borders and their titles.
enum PaneBorders {
    static func draw(_ state: AppState, layout: Layout, into grid: inout Grid, glyphs g: Glyphs) {
        let w = layout.size.width, h = layout.size.height
        let chrome = Theme.style(.chrome, color: state.preferences.color)
        let top = 1, bottom = h - 2
        func hline(_ y: Int, from x0: Int, to x1: Int) {
            guard x1 > x0 else { return }
            for x in x0..<x1 { grid[x, y] = Cell(g.horizontal, style: chrome) }
        }
        func vline(_ x: Int, from y0: Int, to y1: Int) {
            guard y1 > y0 else { return }
            for y in y0..<y1 { grid[x, y] = Cell(g.vertical, style: chrome) }
        }
        func title(_ text: String, x: Int, y: Int, focused: Bool, limit: Int) {
            guard limit - x > 4 else { return }
            grid.put(" " + g.fit(text, limit - x - 3) + " ", x: x + 1, y: y,
                     style: Theme.style(focused ? .tabActive : .title, color: state.preferences.color), maxWidth: limit - x - 1)
        }
        hline(top, from: 1, to: w - 1)
        hline(bottom, from: 1, to: w - 1)
        vline(0, from: top + 1, to: bottom)
        vline(w - 1, from: top + 1, to: bottom)
        grid[0, top] = Cell(g.topLeft, style: chrome)
        grid[w - 1, top] = Cell(g.topRight, style: chrome)
        grid[0, bottom] = Cell(g.bottomLeft, style: chrome)
        grid[w - 1, bottom] = Cell(g.bottomRight, style: chrome)
        let treeFocused = state.focus == .tree
        switch layout.kind {
        case .single:
            let name = state.mode == .summary ? summaryTitle(state) : purchasesTitle(state)
            title(name, x: 0, y: top, focused: true, limit: w - 1)
        case .wide:
            let split = layout.splitX
            vline(split, from: top + 1, to: bottom)
            grid[split, top] = Cell(g.teeDown, style: chrome)
            grid[split, bottom] = Cell(g.teeUp, style: chrome)
            title(treeTitle(state), x: 0, y: top, focused: treeFocused, limit: split)
            if layout.hex != nil {
                title(hexTitle(state, layout), x: split, y: top, focused: state.focus == .hex, limit: w - 1)
                let y = layout.detailTitleY
                hline(y, from: split + 1, to: w - 1)
                grid[split, y] = Cell(g.teeRight, style: chrome)
                grid[w - 1, y] = Cell(g.teeLeft, style: chrome)
                title("Detail", x: split, y: y, focused: state.focus == .detail, limit: w - 1)
            } else {
                title("Detail", x: split, y: top, focused: state.focus == .detail, limit: w - 1)
            }
        case .stacked:
            title(treeTitle(state), x: 0, y: top, focused: treeFocused, limit: w - 1)
            for (y, name, focused) in [(layout.hex != nil ? layout.hexTitleY : -1, hexTitle(state, layout), state.focus == .hex),
                                       (layout.detailTitleY, "Detail", state.focus == .detail)] where y > 0 {
                hline(y, from: 1, to: w - 1)
                grid[0, y] = Cell(g.teeRight, style: chrome)
                grid[w - 1, y] = Cell(g.teeLeft, style: chrome)
                title(name, x: 0, y: y, focused: focused, limit: w - 1)
            }
        case .tooSmall:
            break
        }
    }

    /// "Receipt summary", "StoreKit 2 transaction summary", "Transaction history summary", …
    static func summaryTitle(_ state: AppState) -> String {
        state.layered.document.kind.title + " summary"
    }

    static func purchasesTitle(_ state: AppState) -> String {
        let count = state.additions?.purchases.count ?? 0
        let name = state.additions?.rowsTitle ?? "In-app purchases"
        guard !state.table.filter.isEmpty else { return name + " (\(count))" }
        return name + " (\(state.table.order.count) of \(count)) · filter \"\(UIText.escape(state.table.filter))\" (Esc clears)"
    }

    static func treeTitle(_ state: AppState) -> String {
        // One layer (a certificate, other DER): its rows are its nodes.
        let layered = state.layered
        return layered.document.layers.count > 1 ? "Tree \(layered.outline.count) rows, all layers" : "Tree \(layered.outline.count) nodes"
    }

    static func hexTitle(_ state: AppState, _ layout: Layout) -> String {
        TextBytePane.title(state)
    }
}

/// Row 0: the program name, the view tabs, and a message or the two keys a new user needs.
public enum HeaderBar {
    static let name = Layout.programName

    static func draw(_ state: AppState, into grid: inout Grid, width: Int, glyphs: Glyphs) {
        let color = state.preferences.color
        grid.put(name, x: 0, y: 0, style: Theme.style(.title, color: color))
        var end = name.count
        for (mode, range, label) in Layout.tabs(purchaseCount: state.additions?.purchases.count) {
            let cls: StyleClass = mode == state.mode ? .tabActive : (state.additions == nil && mode != .tree ? .dim : .plain)
            grid.put(label, x: range.lowerBound, y: 0, style: Theme.style(cls, color: color))
            end = range.upperBound
        }
        if let label = state.documentTabLabel {
            grid.put(label, x: end + 1, y: 0, style: Theme.style(.tabActive, color: color))
            end += 1 + label.count
        }
        let right: String
        let cls: StyleClass
        if let status = state.status {
            right = status.text
            cls = status.isError ? .fail : .ok
        } else {
            right = "? help" + glyphs.separator + "q quit"
            cls = .dim
        }
        let room = width - end - 2
        guard room > 3 else { return }
        let text = glyphs.fit(UIText.display(right, ascii: state.preferences.ascii), room)
        grid.put(text, x: width - text.unicodeScalars.count - 1, y: 0, style: Theme.style(cls, color: color))
    }
}

/// The last row: file, size, encoding, the selected node's offset and path, the diagnostic counts
/// and the validation verdict; or the active prompt.
public enum StatusBar {
    static func draw(_ state: AppState, into grid: inout Grid, size: GridSize, glyphs g: Glyphs) {
        let color = state.preferences.color
        let y = size.height - 1
        let bar = Theme.style(.statusBar, color: color)
        grid.fill(x: 0, y: y, width: size.width, height: 1, style: bar)
        if let prompt = state.prompt {
            let promptStyle = Theme.style(.prompt, color: color)
            var x = grid.put(" " + prompt.label, x: 0, y: y, style: promptStyle)
            let room = max(1, size.width - x - 1)
            let text = prompt.text
            let scalars = text.unicodeScalars
            let shown = scalars.count >= room ? String(String.UnicodeScalarView(scalars.suffix(room - 1))) : text
            x = grid.put(shown, x: x, y: y, style: bar)
            grid.put(" ", x: x, y: y, style: Theme.style(.cursor, color: color))
            return
        }
        let (errors, notDER, warnings) = state.layered.counts
        // Right: the counts (compact when narrow) and the verdict. Left: file, size, encoding, the
        // selection's offset and path; the least important segments go first when space is short.
        // Spelled out at every width ("14 der" read like "14 DER elements"); when narrow, a zero
        // not-DER or warning count is left out (errors always show).
        let wide = size.width >= Layout.wideThreshold
        var counts = ["\(errors) error\(errors == 1 ? "" : "s")"]
        if wide || notDER > 0 { counts.append("\(notDER) not DER") }
        if wide || warnings > 0 { counts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        var right = counts.joined(separator: g.separator)
        if let additions = state.additions { right += g.separator + UIText.display(additions.verdict, ascii: state.preferences.ascii) }
        right += " "
        var segments = [UIText.display(UIText.escape(state.file.name), ascii: state.preferences.ascii), NumberText.grouped(state.file.size) + " B",
                        UIText.display(UIText.escape(state.file.encoding), ascii: state.preferences.ascii)]
        // A row of a DER file names its node as the tree did: its offset and path.
        let fileNode = state.outlineRow.flatMap { $0.node.layer == .file && state.layered.document.fileLayer.tree != nil ? $0.node.index : nil }
        if let index = fileNode {
            let node = state.tree.nodes[index]
            let offset = state.preferences.offsetBase == .hex ? "0x" + String(node.offset, radix: 16, uppercase: true) : "\(node.offset)"
            segments.append("@" + offset)
            segments.append(state.pathText(index, ascii: state.preferences.ascii))
        } else if let row = state.outlineRow {
            let document = state.layered.document
            // The row's first byte as a FILE offset (what `:` takes), and the layer it lives in.
            let start = document.fileRange(row.range, in: row.node.layer).lowerBound
            segments.append("@" + (state.preferences.offsetBase == .hex ? "0x" + String(start, radix: 16, uppercase: true) : "\(start)"))
            segments.append(UIText.display(UIText.escape(document.layer(row.node.layer).name), ascii: state.preferences.ascii))
        }
        let rightWidth = right.unicodeScalars.count
        let bad = errors > 0 || (state.additions?.verdictFailed ?? false)
        let room = rightWidth + 20 <= size.width ? size.width - rightWidth - 1 : size.width
        var left = " " + segments.joined(separator: g.separator)
        // Drop the path, then the encoding, before truncating the file name.
        for drop in [4, 2] where left.unicodeScalars.count > room && segments.count > drop {
            segments.remove(at: drop)
            left = " " + segments.joined(separator: g.separator)
        }
        if rightWidth + 20 <= size.width {
            grid.put(right, x: size.width - rightWidth, y: y, style: Theme.style(bad ? .statusError : .statusBar, color: color))
        }
        grid.put(g.fit(left, room), x: 0, y: y, style: bar)
    }
}

/// An overlay's frame: the rectangle cleared and boxed, corners included (help and diff overlays).
func drawBox(_ r: GridRect, into grid: inout Grid, glyphs g: Glyphs, style: CellStyle) {
    grid.fill(x: r.x, y: r.y, width: r.width, height: r.height)
    for x in r.x..<(r.x + r.width) {
        grid[x, r.y] = Cell(g.horizontal, style: style)
        grid[x, r.y + r.height - 1] = Cell(g.horizontal, style: style)
    }
    for y in r.y..<(r.y + r.height) {
        grid[r.x, y] = Cell(g.vertical, style: style)
        grid[r.x + r.width - 1, y] = Cell(g.vertical, style: style)
    }
    grid[r.x, r.y] = Cell(g.topLeft, style: style)
    grid[r.x + r.width - 1, r.y] = Cell(g.topRight, style: style)
    grid[r.x, r.y + r.height - 1] = Cell(g.bottomLeft, style: style)
    grid[r.x + r.width - 1, r.y + r.height - 1] = Cell(g.bottomRight, style: style)
}

/// The `?` overlay: the keymap, drawn from the same table the reducer dispatches on.
public enum HelpOverlay {
    static func draw(_ state: AppState, into grid: inout Grid, size: GridSize, glyphs g: Glyphs) {
        // Wrapped to the frame drawn here (its width depends on the size alone), as the reducer's
        // scrolling counts them for the screen.
        let lines = Keymap.helpLines(ascii: state.preferences.ascii, width: max(1, Layout.helpFrame(for: size, lineCount: 0).width - 4))
        let r = Layout.helpFrame(for: size, lineCount: lines.count)
        guard r.width > 4, r.height > 2 else { return }
        drawBox(r, into: &grid, glyphs: g, style: Theme.style(.chrome, color: state.preferences.color))
        grid.put(" Keys (? or Esc closes, arrows scroll) ", x: r.x + 2, y: r.y, style: Theme.style(.tabActive, color: state.preferences.color),
                 maxWidth: r.width - 4)
        let visible = r.height - 2
        let scroll = min(state.help.scroll, max(0, lines.count - visible))
        for i in 0..<visible where scroll + i < lines.count {
            let line = lines[scroll + i]
            let isTitle = !line.hasPrefix(" ") && !line.isEmpty && !line.hasPrefix("Markers")
            grid.put(line, x: r.x + 2, y: r.y + 1 + i,
                     style: Theme.style(isTitle ? .title : .plain, color: state.preferences.color), maxWidth: r.width - 4)
        }
    }
}
