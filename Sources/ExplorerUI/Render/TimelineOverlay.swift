import DocumentCore
import DocumentTimeline

/// The timeline view: every event of every open document (or where one transaction is), the
/// cursor's sources and the entitlement at its moment below, over the whole screen but the bars.
enum TimelineOverlay {
    /// The footer under the list, wrapped to `width`: the selected row whole, its sources, the
    /// cursor's entitlement, the keys.
    static func footer(_ view: TimelineViewState, width: Int) -> [StyledLine] {
        var out: [StyledLine] = []
        func add(_ text: String, _ style: StyleClass) { out += DetailContent.wrap(text, width: width, style: style, indent: 2) }
        let selected = view.rows.indices.contains(view.row) ? view.rows[view.row] : nil
        add(selected?.text ?? "", .plain)
        let sources = selected?.sources ?? []
        add(sources.isEmpty ? "no source document" : "from " + sources.enumerated().map { i, s in
            "\(i + 1): [\(s.document + 1)] \(UIText.escape(view.timeline.names[s.document])) \(UIText.escape(s.place))"
        }.joined(separator: " · "), .content)
        if let cursor = view.cursorState { add(cursor, .content) }
        add(view.lookup == nil ? "Enter / 1…9: go to the node in that source · f: find a transaction · T / Esc: close"
            : "Enter: go to the node · f: another id · T / Esc: back to the events", .dim)
        return out
    }

    static func draw(_ state: AppState, into grid: inout Grid, size: GridSize, glyphs g: Glyphs) {
        guard let view = state.timelineView else { return }
        let r = GridRect(x: 0, y: 1, width: size.width, height: size.height - 2)
        guard r.width > 4, r.height > 6 else { return }
        let color = state.preferences.color
        drawBox(r, into: &grid, glyphs: g, style: Theme.style(.chrome, color: color))
        let t = view.timeline
        let title = view.lookup == nil
            ? " Timeline: \(TimelineText.count(t.names.count, "document")) · \(TimelineText.count(t.eventCount, "event")) · \(TimelineText.count(t.gapCount, "gap")) · \(TimelineText.count(t.findings.count, "conflict")) (T or Esc closes) "
            : " Where is \(UIText.escape(view.lookup?.id ?? "")) (Esc: back to the events) "
        grid.put(title, x: r.x + 2, y: r.y, style: Theme.style(.tabActive, color: color), maxWidth: r.width - 4)
        let foot = footer(view, width: r.width - 4)
        let listRoom = max(1, r.height - 2 - foot.count)
        let start = max(0, min(view.row - listRoom / 2, view.rows.count - listRoom))
        var y = r.y + 1
        for i in start..<min(view.rows.count, start + listRoom) {
            let row = view.rows[i]
            let text = (i == view.row ? "› " : "  ") + row.text
            grid.put(g.fit(UIText.display(text, ascii: state.preferences.ascii), r.width - 4), x: r.x + 2, y: y,
                     style: Theme.style(i == view.row ? .selected : row.style, color: color), maxWidth: r.width - 4)
            y += 1
        }
        for (k, line) in foot.enumerated() {
            grid.put(g.fit(UIText.display(line.text, ascii: state.preferences.ascii), r.width - 4), x: r.x + 2,
                     y: r.y + r.height - 1 - foot.count + k, style: Theme.style(line.style, color: color), maxWidth: r.width - 4)
        }
    }
}
