import DocumentCore

/// What the tour and the lab add to the panes: the lesson at the top of the detail pane (for
/// every kind of document), the step's bytes and the lab's changed bytes in the hex pane.
enum TourOverlay {
    /// The hint under a stop's lesson.
    static let hint = "n next, p previous, ↑ ↓ scroll, q leaves the tour (t resumes)"

    /// The current step's page (`Tour.page`, the words `tour --print` writes), the reply to the
    /// last answer and the key hint, while the tour has the keys; nothing otherwise.
    static func lines(_ state: AppState, width: Int) -> [StyledLine] {
        guard let tour = state.teaching.tour, tour.active, let step = tour.step else { return [] }
        let document = state.document
        let ascii = state.preferences.ascii
        var out: [StyledLine] = []
        func add(_ text: String, _ style: StyleClass, indent: Int = 2) {
            out += DetailContent.wrap(UIText.display(text, ascii: ascii), width: width, style: style, indent: indent)
        }
        let page = tour.tour.page(tour.index, fileRange: document.fileRange(of: step))
        for (i, line) in page.enumerated() {
            add(line, i == 0 ? .title : (step.check != nil && i == page.count - 1 ? .prompt : .meaning))
        }
        if let reply = tour.reply { add(reply, .plain) }
        add(hint, .dim)
        out.append(StyledLine(""))
        return out
    }

    /// The rows of the detail pane the current question occupies (nil: no question at this stop).
    static func questionRows(_ state: AppState, width: Int) -> Range<Int>? {
        guard let tour = state.teaching.tour, tour.active, let step = tour.step, let check = step.check else { return nil }
        let document = state.document
        let page = tour.tour.page(tour.index, fileRange: document.fileRange(of: step))
        let before = page.dropLast().reduce(0) { $0 + DetailContent.wrap(UIText.display($1, ascii: state.preferences.ascii), width: width, style: .plain, indent: 2).count }
        let rows = DetailContent.wrap(UIText.display(check.line, ascii: state.preferences.ascii), width: width, style: .plain, indent: 2).count
        return before..<(before + rows)
    }

    /// The hex class for a byte the lab changed (error style) or the tour step's bytes (selected).
    static func hexClass(_ state: AppState, _ offset: Int) -> StyleClass? {
        if state.labMarked(offset) { return .fail }
        if let range = state.teaching.tourRange(in: state.document), range.contains(offset) { return .selected }
        return nil
    }
}
