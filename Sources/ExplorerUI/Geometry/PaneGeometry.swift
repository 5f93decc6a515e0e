import ASN1Lenient

/// Where things sit inside the tree pane's rows: the renderer draws there and the reducer maps a
/// click back (a click on ▸ / ▾ toggles).
public enum TreeGeometry {
    /// Column (relative to the pane) of a row's expand glyph: after the marker and the indentation.
    public static func glyphColumn(depth: Int, unit: Int, width: Int) -> Int { 2 + indent(depth: depth, unit: unit, width: width) }

    /// Columns per nesting level for the rows on screen: two, or one when the deepest row would
    /// otherwise use more than a quarter of the pane (the same for every row, so levels stay aligned).
    public static func indentUnit(rows: [Int], tree: Tree, width: Int) -> Int {
        var deepest = 0
        for node in rows { deepest = max(deepest, Int(tree.nodes[node].depth)) }
        return indentUnit(deepest: deepest, width: width)
    }

    /// The unit for rows on screen whose deepest is at `deepest`.
    static func indentUnit(deepest: Int, width: Int) -> Int { deepest * 2 <= width / 4 ? 2 : 1 }

    static func indent(depth: Int, unit: Int, width: Int) -> Int { min(depth * unit, max(0, width / 2)) }
}

/// Where each byte sits in a hex pane row (offset column, groups of 8, the ASCII column): the
/// renderer draws there and the reducer maps a click back to a byte.
public enum HexGeometry {
    /// Column of byte `j` of a row, relative to the pane.
    static func byteColumn(_ j: Int, offsetDigits: Int) -> Int { offsetDigits + 2 + (j / 8) * 25 + (j % 8) * 3 }

    static func asciiColumn(bytesPerRow: Int, offsetDigits: Int) -> Int { offsetDigits + 2 + (bytesPerRow / 8) * 25 }

    /// The byte offset under a pane-relative position, if any (for mouse clicks).
    public static func offset(atColumn x: Int, row: Int, topRow: Int, byteCount: Int, layout: Layout) -> Int? {
        offset(atColumn: x, row: row, topRow: topRow, byteCount: byteCount, perRow: layout.bytesPerRow, digits: layout.offsetDigits)
    }

    /// The same for rows of `perRow` bytes with `digits` offset digits (the outline's DER layers).
    static func offset(atColumn x: Int, row: Int, topRow: Int, byteCount: Int, perRow: Int, digits: Int) -> Int? {
        let base = (topRow + row) * perRow
        var j: Int?
        let ascii = asciiColumn(bytesPerRow: perRow, offsetDigits: digits)
        if x >= ascii && x < ascii + perRow {
            j = x - ascii
        } else {
            for k in 0..<perRow {
                let c = byteColumn(k, offsetDigits: digits)
                if x >= c && x <= c + 2 { j = k; break }
            }
        }
        guard let j, base + j < byteCount else { return nil }
        return base + j
    }
}
