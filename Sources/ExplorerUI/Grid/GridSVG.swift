/// A Grid drawn as an SVG picture of the terminal: the cells' characters in a monospaced font, each
/// style's colours (a dark terminal's palette), bold, dim, reverse and underline, and the box-drawing
/// characters as lines through the cell, so borders join whatever font the viewer has. The pictures
/// in docs/images are made with it from `render(state, size)` (the screens the explorer draws), so
/// they cannot show a screen the tool does not.
public enum GridSVG {
    public static let cellWidth = 9
    public static let cellHeight = 18
    static let fontSize = 15
    static let background = "#1d1f21"
    static let foreground = "#d8dadc"

    /// The terminal palette for `UIColor` (xterm-like, tuned for a dark background).
    static func hex(_ color: UIColor, foreground isForeground: Bool) -> String {
        switch color {
        case .default: isForeground ? foreground : background
        case .black: "#1d1f21"
        case .red: "#cc3e3e"
        case .green: "#7fb449"
        case .yellow: "#e0b94a"
        case .blue: "#3b6fb6"
        case .magenta: "#b77ec8"
        case .cyan: "#5db9c3"
        case .white: "#eceef0"
        case .brightBlack: "#7a7f85"
        }
    }

    /// The colours a cell is drawn with, reverse video applied.
    static func colours(_ style: CellStyle) -> (foreground: String, background: String) {
        let fg = hex(style.foreground, foreground: true), bg = hex(style.background, foreground: false)
        return style.reverse ? (bg, fg) : (fg, bg)
    }

    /// The segments of a box-drawing character, from the cell's centre: up, down, left, right.
    static func box(_ scalar: Unicode.Scalar) -> (up: Bool, down: Bool, left: Bool, right: Bool)? {
        switch scalar {
        case "─": (false, false, true, true)
        case "│": (true, true, false, false)
        case "┌": (false, true, false, true)
        case "┐": (false, true, true, false)
        case "└": (true, false, false, true)
        case "┘": (true, false, true, false)
        case "├": (true, true, false, true)
        case "┤": (true, true, true, false)
        case "┬": (false, true, true, true)
        case "┴": (true, false, true, true)
        case "┼": (true, true, true, true)
        default: nil
        }
    }

    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        default: String(scalar)
        }
    }

    /// The SVG document: `title` is its accessible name (and tooltip).
    public static func svg(_ grid: Grid, title: String) -> String {
        let w = grid.size.width * cellWidth, h = grid.size.height * cellHeight
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" role="img" aria-label="\(title.unicodeScalars.map(escape).joined())">
        <title>\(title.unicodeScalars.map(escape).joined())</title>
        <style>text{font-family:'DejaVu Sans Mono','Menlo','Consolas','Liberation Mono',monospace;font-size:\(fontSize)px;white-space:pre}.b{font-weight:bold}.d{opacity:.6}.u{text-decoration:underline}</style>
        <rect width="\(w)" height="\(h)" fill="\(background)"/>

        """
        for y in 0..<grid.size.height {
            let row = (0..<grid.size.width).map { grid[$0, y] }
            out += backgrounds(row, y: y)
            out += lines(row, y: y)
            out += texts(row, y: y)
        }
        out += "</svg>\n"
        return out
    }

    /// One rectangle per run of cells with the same non-default background.
    static func backgrounds(_ row: [Cell], y: Int) -> String {
        var out = ""
        var x = 0
        while x < row.count {
            let bg = colours(row[x].style).background
            var end = x + 1
            while end < row.count, colours(row[end].style).background == bg { end += 1 }
            if bg != background {
                out += "<rect x=\"\(x * cellWidth)\" y=\(quoted(y * cellHeight)) width=\"\((end - x) * cellWidth)\" height=\"\(cellHeight)\" fill=\"\(bg)\"/>\n"
            }
            x = end
        }
        return out
    }

    /// Box-drawing characters as one path per colour in the row.
    static func lines(_ row: [Cell], y: Int) -> String {
        var byColour: [(String, String)] = []
        for (x, cell) in row.enumerated() {
            guard let b = box(cell.scalar) else { continue }
            let cx = x * cellWidth * 2 + cellWidth, cy = y * cellHeight * 2 + cellHeight   // half-pixel units
            var d = ""
            func half(_ v: Int) -> String { v % 2 == 0 ? "\(v / 2)" : "\(v / 2).5" }
            if b.up || b.down {
                let top = b.up ? y * cellHeight * 2 : cy, bottom = b.down ? (y + 1) * cellHeight * 2 : cy
                d += "M\(half(cx)) \(half(top))V\(half(bottom))"
            }
            if b.left || b.right {
                let left = b.left ? x * cellWidth * 2 : cx, right = b.right ? (x + 1) * cellWidth * 2 : cx
                d += "M\(half(left)) \(half(cy))H\(half(right))"
            }
            let colour = colours(cell.style).foreground
            if let i = byColour.firstIndex(where: { $0.0 == colour }) { byColour[i].1 += d } else { byColour.append((colour, d)) }
        }
        return byColour.map { "<path d=\"\($0.1)\" stroke=\"\($0.0)\" stroke-width=\"1\" fill=\"none\"/>\n" }.joined()
    }

    /// One text element per run of cells with the same look, stretched to exactly its cells
    /// (`textLength`) so columns line up in any monospaced font.
    static func texts(_ row: [Cell], y: Int) -> String {
        var out = ""
        var x = 0
        func key(_ cell: Cell) -> CellStyle { var s = cell.style; s.background = .default; return s }
        while x < row.count {
            if row[x].scalar == " " || box(row[x].scalar) != nil { x += 1; continue }
            var end = x + 1
            while end < row.count, box(row[end].scalar) == nil, key(row[end]) == key(row[x]) || row[end].scalar == " " && end + 1 < row.count
                    && key(row[end + 1]) == key(row[x]) && box(row[end + 1].scalar) == nil && row[end + 1].scalar != " " {
                end += 1
            }
            let style = row[x].style
            var classes: [String] = []
            if style.bold { classes.append("b") }
            if style.dim { classes.append("d") }
            if style.underline { classes.append("u") }
            let text = row[x..<end].map { escape($0.scalar) }.joined()
            let baseline = y * cellHeight + cellHeight * 3 / 4 + 1
            out += "<text x=\"\(x * cellWidth)\" y=\"\(baseline)\" textLength=\"\((end - x) * cellWidth)\" lengthAdjust=\"spacingAndGlyphs\" fill=\"\(colours(style).foreground)\""
                + (classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\"") + ">\(text)</text>\n"
            x = end
        }
        return out
    }

    static func quoted(_ v: Int) -> String { "\"\(v)\"" }
}
