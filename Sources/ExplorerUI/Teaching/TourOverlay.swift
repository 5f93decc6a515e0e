/// What the tour and the lab add to the panes: the lesson at the top of the detail pane, the
/// step's bytes and the lab's changed bytes in the hex pane.
enum TourOverlay {
    /// The current step's lesson while the tour has the keys; nothing otherwise.
    static func lines(_ state: AppState, width: Int) -> [StyledLine] {
        guard let tour = state.teaching.tour, tour.active, let step = tour.step else { return [] }
        let ascii = state.preferences.ascii
        var out: [StyledLine] = []
        func add(_ text: String, _ style: StyleClass, indent: Int = 2) {
            out += DetailContent.wrap(UIText.display(text, ascii: ascii), width: width, style: style, indent: indent)
        }
        add("Tour \(tour.index + 1)/\(tour.tour.steps.count): \(step.title)", .title)
        for line in step.lesson { add(line, .meaning) }
        if let check = step.check {
            add("check: \(check.question) " + check.choices.map { "[\($0.key)] \($0.text)" }.joined(separator: "  "), .prompt)
        }
        if let reply = tour.reply { add(reply, .plain) }
        add("n next, p previous, q leaves the tour (t resumes)", .dim)
        out.append(StyledLine(""))
        return out
    }

    /// The hex class for a byte the lab changed (error style) or the tour step's bytes (selected).
    static func hexClass(_ state: AppState, _ offset: Int) -> StyleClass? {
        if state.labMarked(offset) { return .fail }
        if let range = state.teaching.tourRange, range.contains(offset) { return .selected }
        return nil
    }
}
