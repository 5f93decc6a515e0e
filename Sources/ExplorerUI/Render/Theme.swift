/// The meaning of a cell's look. Each class has one style per palette (colour / monochrome), so a
/// grid's style mask (one character per cell, see `maskCharacter`) can be snapshot-tested.
public enum StyleClass: Character, CaseIterable, Sendable {
    case plain = "."
    case chrome = "#"
    case title = "T"
    case tabActive = "t"
    case selected = "S"
    case selectedUnfocused = "s"
    case identifier = "I"
    case length = "L"
    case content = "C"
    case endOfContents = "O"
    case ancestor = "A"
    case ancestorHeader = "a"
    case error = "E"
    case errorSelected = "X"
    case cursor = "K"
    case markerError = "!"
    case markerNotDER = "~"
    case dim = "D"
    case statusBar = "B"
    case statusError = "R"
    case ok = "G"
    case fail = "F"
    case meaning = "M"
    case prompt = "P"
}

public enum Theme {
    /// The style for a class. Without colour, classes that matter are still told apart by
    /// bold / dim / reverse / underline (and every marker is also a character).
    public static func style(_ c: StyleClass, color: Bool) -> CellStyle {
        color ? colorStyles[Int(index(c))] : monoStyles[Int(index(c))]
    }

    static func index(_ c: StyleClass) -> Int { StyleClass.allCases.firstIndex(of: c)! }

    static let colorStyles: [CellStyle] = StyleClass.allCases.map { c in
        switch c {
        case .plain: CellStyle()
        case .chrome: CellStyle(foreground: .brightBlack)
        case .title: CellStyle(bold: true)
        case .tabActive: CellStyle(bold: true, reverse: true)
        case .selected: CellStyle(reverse: true)
        case .selectedUnfocused: CellStyle(bold: true, underline: true)
        case .identifier: CellStyle(foreground: .black, background: .yellow)
        case .length: CellStyle(foreground: .black, background: .cyan)
        case .content: CellStyle(foreground: .black, background: .green)
        case .endOfContents: CellStyle(foreground: .black, background: .magenta)
        case .ancestor: CellStyle(foreground: .blue)
        case .ancestorHeader: CellStyle(foreground: .yellow)
        case .error: CellStyle(foreground: .white, background: .red, bold: true)
        case .errorSelected: CellStyle(foreground: .yellow, background: .red, bold: true, underline: true)
        case .cursor: CellStyle(bold: true, reverse: true, underline: true)
        case .markerError: CellStyle(foreground: .red, bold: true)
        case .markerNotDER: CellStyle(foreground: .yellow, bold: true)
        case .dim: CellStyle(dim: true)
        case .statusBar: CellStyle(foreground: .white, background: .blue)
        case .statusError: CellStyle(foreground: .white, background: .red)
        case .ok: CellStyle(foreground: .green)
        case .fail: CellStyle(foreground: .red)
        case .meaning: CellStyle(foreground: .cyan)
        case .prompt: CellStyle(foreground: .white, background: .blue, bold: true)
        }
    }

    static let monoStyles: [CellStyle] = StyleClass.allCases.map { c in
        switch c {
        case .plain, .chrome, .ok, .meaning: CellStyle()
        case .title, .markerError, .markerNotDER, .fail: CellStyle(bold: true)
        case .tabActive, .identifier: CellStyle(bold: true, reverse: true)
        case .selected, .content, .statusBar: CellStyle(reverse: true)
        case .selectedUnfocused, .ancestorHeader: CellStyle(bold: true, underline: true)
        case .length: CellStyle(reverse: true, underline: true)
        case .endOfContents: CellStyle(dim: true, reverse: true)
        case .ancestor: CellStyle(underline: true)
        case .error, .errorSelected, .statusError, .prompt: CellStyle(bold: true, reverse: true, underline: true)
        case .cursor: CellStyle(bold: true, dim: true, reverse: true, underline: true)
        case .dim: CellStyle(dim: true)
        }
    }

    /// The class whose colour style is `style` (the first one, if two share a style).
    public static func styleClass(of style: CellStyle, color: Bool = true) -> StyleClass {
        let table = color ? colorStyles : monoStyles
        if let i = table.firstIndex(of: style) { return StyleClass.allCases[i] }
        return .plain
    }

    /// One character per cell, rows joined by newlines: the snapshot tests' style mask.
    public static func mask(_ grid: Grid, color: Bool = true) -> String {
        var lines: [String] = []
        for y in 0..<grid.size.height {
            var line = ""
            for x in 0..<grid.size.width { line.append(styleClass(of: grid[x, y].style, color: color).rawValue) }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// The renderer's own drawing characters, Unicode or ASCII (`--ascii`).
public struct Glyphs: Sendable {
    public var horizontal, vertical, topLeft, topRight, bottomLeft, bottomRight: Unicode.Scalar
    public var teeDown, teeUp, teeRight, teeLeft: Unicode.Scalar
    public var expanded, collapsed: String
    public var ellipsis: String
    public var pathSeparator: String
    public var separator: String
    public var passed, failed, notChecked: String
    public var sortUp, sortDown: String

    public static let unicode = Glyphs(horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└",
                                       bottomRight: "┘", teeDown: "┬", teeUp: "┴", teeRight: "├", teeLeft: "┤",
                                       expanded: "▾", collapsed: "▸", ellipsis: "…", pathSeparator: " › ",
                                       separator: " · ", passed: "✓", failed: "✗", notChecked: "–",
                                       sortUp: "▲", sortDown: "▼")
    public static let ascii = Glyphs(horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+",
                                     bottomRight: "+", teeDown: "+", teeUp: "+", teeRight: "+", teeLeft: "+",
                                     expanded: "-", collapsed: "+", ellipsis: "~", pathSeparator: " > ",
                                     separator: " | ", passed: "ok", failed: "FAIL", notChecked: "-",
                                     sortUp: "^", sortDown: "v")

    public static func forState(_ state: AppState) -> Glyphs { state.preferences.ascii ? .ascii : .unicode }

    /// Truncates to `width` columns, ending in the ellipsis glyph.
    public func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        let scalars = text.unicodeScalars
        if scalars.count <= width { return text }
        var out = String.UnicodeScalarView()
        let mark = ellipsis.unicodeScalars
        out.append(contentsOf: scalars.prefix(max(0, width - mark.count)))
        out.append(contentsOf: mark.prefix(width))
        return String(out)
    }

    /// Truncates to `width` columns at a word or name boundary, ending in the ellipsis glyph (see
    /// `UIText.boundaryCut`): a cut label never reads as another name ("ecdsa-with-SHA384" is never
    /// shown as "ecdsa-with-SHA3…", which looks like SHA-3).
    public func fitAtBoundary(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        let scalars = Array(text.unicodeScalars)
        if scalars.count <= width { return text }
        let mark = Array(ellipsis.unicodeScalars)
        guard width > mark.count else { return String(String.UnicodeScalarView(mark.prefix(width))) }
        if let middle = Self.middleCut(scalars, width: width, mark: mark) { return middle }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[0..<UIText.boundaryCut(scalars, within: width - mark.count)])
        out.append(contentsOf: mark)
        return String(out)
    }

    /// A quoted value at the end of a label, or a dotted identifier on its own (a JSON field's
    /// `com.example.app.pro_monthly`), that the cut would fall inside keeps its head and its tail,
    /// the ellipsis in the middle: ids share their start and differ at the end
    /// (`"com.example…pro_monthly"`, never `"com.…"` on every purchase's row). Nil when there is
    /// no such value or too little room for both ends.
    static func middleCut(_ s: [Unicode.Scalar], width: Int, mark: [Unicode.Scalar]) -> String? {
        guard s.count > width else { return nil }
        if !s.contains(" "), s.filter({ $0 == "." }).count >= 2, !s.contains("\"") {
            return middle(s, prefix: [], suffix: [], width: width, mark: mark)
        }
        guard s.last == "\"", let open = s.dropLast().lastIndex(of: "\""), open + 1 < width else { return nil }
        return middle(Array(s[(open + 1)..<(s.count - 1)]), prefix: Array(s[0...open]), suffix: ["\""], width: width, mark: mark)
    }

    /// `prefix` + the head and tail of `content` around `mark` + `suffix`, in `width` columns.
    static func middle(_ content: [Unicode.Scalar], prefix: [Unicode.Scalar], suffix: [Unicode.Scalar], width: Int,
                       mark: [Unicode.Scalar]) -> String? {
        let room = width - prefix.count - suffix.count - mark.count
        guard room >= 8, content.count > room else { return nil }
        // The head ends at a name boundary when one keeps at least a quarter of the room.
        var head = room / 2
        let boundary = UIText.boundaryCut(content, within: head)
        if boundary >= room / 4 && boundary < head { head = boundary }
        let tail = room - head
        var out = String.UnicodeScalarView(prefix)
        out.append(contentsOf: content[0..<head])
        out.append(contentsOf: mark)
        out.append(contentsOf: content[(content.count - tail)...])
        out.append(contentsOf: suffix)
        return String(out)
    }

    public func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let n = text.unicodeScalars.count
        if n >= width { return fit(text, width) }
        let spaces = String(repeating: " ", count: width - n)
        return right ? spaces + text : text + spaces
    }
}

extension Grid {
    /// Writes `text` clipped to `width` columns and pads the rest of the width with `fill` style.
    mutating func line(_ text: String, x: Int, y: Int, width: Int, style: CellStyle, padStyle: CellStyle? = nil) {
        guard width > 0 else { return }
        let end = put(text, x: x, y: y, style: style, maxWidth: width)
        if end < x + width { fill(x: end, y: y, width: x + width - end, height: 1, style: padStyle ?? style) }
    }
}
