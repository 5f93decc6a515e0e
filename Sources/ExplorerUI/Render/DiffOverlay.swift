import DocumentCore
import TextOutput

/// The diff overlay: the list of differences (document 1 against document 2), each with its
/// decoded `old → new` as `diff` prints it, then the selected entry's two sides side by side: each
/// side's node and its decoded value (its first bytes in hex where there is no value).
enum DiffOverlay {
    /// Every line: the title, each entry's, then the selected entry's two sides and the keys.
    static func lines(_ state: AppState, width: Int) -> [StyledLine] {
        guard let diff = state.diffView else { return [] }
        return lines(state, width: width, list: 0..<(1 + max(diff.entries.count, 1)))
    }

    /// The lines with only `list` of the list's lines (the title is line 0, entry n line n + 1):
    /// an entry's line is made when it is shown, never all of a long list's.
    static func lines(_ state: AppState, width: Int, list: Range<Int>) -> [StyledLine] {
        guard let diff = state.diffView else { return [] }
        var out: [StyledLine] = []
        for line in list {
            if line == 0 {
                out.append(StyledLine("1 \(diff.names.left)  ⇄  2 \(diff.names.right)", .title))
            } else if diff.entries.isEmpty {
                out.append(StyledLine("no differences: the two documents are equivalent", .ok))
            } else if line - 1 < diff.entries.count {
                let i = line - 1
                out.append(StyledLine((i == diff.row ? "› " : "  ") + UIText.escape(diff.entries[i].line), i == diff.row ? .selected : .plain))
            }
        }
        guard diff.row < diff.entries.count else { return out }
        let entry = diff.entries[diff.row]
        let perSide = max(4, (width - 30) / 3)
        out.append(StyledLine(""))
        let sides = [("1", diff.left, entry.left, entry.leftLayer, entry.leftRange, entry.leftValue),
                     ("2", diff.right, entry.right, entry.rightLayer, entry.rightRange, entry.rightValue)]
        for (label, document, node, layerOnly, range, value) in sides {
            guard let layer = node?.layer ?? layerOnly, let range else {
                out.append(StyledLine("\(label) absent", .dim))
                continue
            }
            // The decoded value, as `diff` prints it; the bytes only where the engine has none.
            let shown = value.map { UIText.escape($0) } ?? {
                let bytes = DiffViewState.bytes(document, layer, range, limit: perSide)
                return bytes.map { TextBytePane.hexByte($0) }.joined(separator: " ") + (range.count > bytes.count ? " …" : "")
            }()
            let place = node.map { "\($0)" } ?? "\(layer)"
            out.append(StyledLine("\(label) \(place) @\(RangeText.span(range))  \(shown)", .content))
        }
        out.append(StyledLine("Enter / 1: go to it in 1 · 2: in 2", .dim))
        return out
    }

    static func draw(_ state: AppState, into grid: inout Grid, size: GridSize, glyphs g: Glyphs) {
        let r = Layout.helpFrame(for: size, lineCount: max(7, (state.diffView?.entries.count ?? 0) + 6))
        guard r.width > 4, r.height > 2 else { return }
        let color = state.preferences.color
        drawBox(r, into: &grid, glyphs: g, style: Theme.style(.chrome, color: color))
        grid.put(" Diff (d or Esc closes) ", x: r.x + 2, y: r.y, style: Theme.style(.tabActive, color: color), maxWidth: r.width - 4)
        let visible = r.height - 2
        // The selected entry stays in view; the two sides and the keys (the last 4 lines) always show.
        let row = (state.diffView?.row ?? 0) + 1
        let sides = state.diffView?.entries.isEmpty == false ? 4 : 0
        let listRoom = max(1, visible - sides)
        let listCount = 1 + max(state.diffView?.entries.count ?? 0, 1)
        let start = max(0, min(row - listRoom + 1, listCount - listRoom))
        let shown = lines(state, width: r.width - 4, list: start..<min(listCount, start + listRoom))
        for (i, line) in shown.prefix(visible).enumerated() {
            grid.put(g.fit(UIText.display(line.text, ascii: state.preferences.ascii), r.width - 4), x: r.x + 2, y: r.y + 1 + i,
                     style: Theme.style(line.style, color: color), maxWidth: r.width - 4)
        }
    }
}
