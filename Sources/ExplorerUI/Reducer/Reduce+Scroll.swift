/// Scrolling text: the detail pane, the receipt summary and the help overlay.
extension AppState {
    mutating func performScroll(_ action: Action) -> Bool {
        let page = max(1, textHeight - 1)
        switch action {
        case .scrollUp: scroll(by: -1)
        case .scrollDown: scroll(by: 1)
        case .scrollPageUp: scroll(by: -page)
        case .scrollPageDown: scroll(by: page)
        default: return false
        }
        return true
    }

    /// Rows of the scrolling text pane in use (summary or detail).
    var textHeight: Int { mode == .summary ? (layout.main?.height ?? 2) : (layout.detail?.height ?? 2) }

    mutating func scroll(by delta: Int) {
        let l = layout
        switch mode {
        case .summary:
            let lines = SummaryContent.wrapped(self, width: (l.main?.width ?? 2) - 1).count
            let height = l.main?.height ?? 1
            summaryView.scroll = max(0, min(summaryView.scroll + delta, max(0, lines - height)))
        default:
            guard let detail = l.detail else { return }
            let lines = DetailContent.lines(self, width: detail.width).count
            detailView.scroll = max(0, min(detailView.scroll + delta, max(0, lines - detail.height)))
        }
    }

    /// The help overlay's lines, wrapped to its frame (whose width depends on the screen alone).
    var helpLines: [String] {
        Keymap.helpLines(ascii: preferences.ascii, width: max(1, Layout.helpFrame(for: screen, lineCount: 0).width - 4))
    }

    mutating func clampHelpScroll() {
        let total = helpLines.count
        let visible = max(1, Layout.helpFrame(for: screen, lineCount: total).height - 2)
        help.scroll = max(0, min(help.scroll, max(0, total - visible)))
    }

    /// Rows of help text on screen.
    var helpHeight: Int {
        max(1, Layout.helpFrame(for: screen, lineCount: helpLines.count).height - 2)
    }

    /// Keys while the help overlay is shown: scrolling keys scroll it, any other bound key closes it.
    mutating func reduceHelp(_ event: InputEvent) {
        guard let binding = Keymap.binding(for: event, in: .help) else {
            if case .wheelUp = event { help.scroll = max(0, help.scroll - 3) }
            if case .wheelDown = event { help.scroll += 3; clampHelpScroll() }
            return
        }
        let page = helpHeight
        switch binding.action {
        case .scrollUp: help.scroll -= 1
        case .scrollDown: help.scroll += 1
        case .scrollPageUp: help.scroll -= max(1, page - 1)
        case .scrollPageDown: help.scroll += max(1, page - 1)
        case .halfPageUp: help.scroll -= max(1, page / 2)
        case .halfPageDown: help.scroll += max(1, page / 2)
        default: help.visible = false; return
        }
        clampHelpScroll()
    }
}
