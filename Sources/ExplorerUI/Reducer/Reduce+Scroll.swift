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
            let lines = SummaryView.wrapped(self, width: (l.main?.width ?? 2) - 1).count
            let height = l.main?.height ?? 1
            summaryScroll = max(0, min(summaryScroll + delta, max(0, lines - height)))
        default:
            guard let detail = l.detail else { return }
            let lines = DetailPane.lines(self, width: detail.width).count
            detailScroll = max(0, min(detailScroll + delta, max(0, lines - detail.height)))
        }
    }

    mutating func clampHelpScroll() {
        let total = Keymap.helpLines(ascii: ascii).count
        let visible = max(1, HelpOverlay.frame(for: screen, lineCount: total).height - 2)
        helpScroll = max(0, min(helpScroll, max(0, total - visible)))
    }

    /// Rows of help text on screen.
    var helpHeight: Int {
        max(1, HelpOverlay.frame(for: screen, lineCount: Keymap.helpLines(ascii: ascii).count).height - 2)
    }

    /// Keys while the help overlay is shown: scrolling keys scroll it, any other bound key closes it.
    mutating func reduceHelp(_ event: InputEvent) {
        guard let binding = Keymap.binding(for: event, in: .help) else {
            if case .wheelUp = event { helpScroll = max(0, helpScroll - 3) }
            if case .wheelDown = event { helpScroll += 3; clampHelpScroll() }
            return
        }
        let page = helpHeight
        switch binding.action {
        case .scrollUp: helpScroll -= 1
        case .scrollDown: helpScroll += 1
        case .scrollPageUp: helpScroll -= max(1, page - 1)
        case .scrollPageDown: helpScroll += max(1, page - 1)
        case .halfPageUp: helpScroll -= max(1, page / 2)
        case .halfPageDown: helpScroll += max(1, page / 2)
        default: helpVisible = false; return
        }
        clampHelpScroll()
    }
}
