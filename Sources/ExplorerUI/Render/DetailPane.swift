/// The detail pane: `DetailContent`'s lines from the scroll offset, clamped so the last line is at
/// the bottom at most.
enum DetailPane {
    static func draw(_ state: AppState, into grid: inout Grid, rect: GridRect) {
        let all = DetailContent.lines(state, width: rect.width)
        let maxScroll = max(0, all.count - rect.height)
        let scroll = min(state.detailView.scroll, maxScroll)
        for r in 0..<rect.height {
            let i = scroll + r
            guard i < all.count else { break }
            grid.put(all[i].text, x: rect.x, y: rect.y + r, style: Theme.style(all[i].style, color: state.preferences.color), maxWidth: rect.width)
        }
    }
}
