import DocumentCore

/// Whether a teaching action was handled, and the effect it asks for.
enum TeachingResult: Equatable {
    case notMine
    case done(Effect?)
}

/// The tour's keys: `t` starts or resumes, n / → next, p / ← previous, q / Esc leaves the tour at
/// the current node, a / b / c answer a self-check.
extension AppState {
    var tourHasKeys: Bool { teaching.tour?.active == true && prompt == nil && !help.visible }

    /// Starts the tour at its first step, or resumes it where the learner left it.
    public mutating func startTour() {
        if teaching.tour == nil {
            teaching.tour = TourState(tour: document.tour)
        }
        guard let count = teaching.tour?.tour.steps.count, count > 0 else {
            teaching.tour = nil
            status = StatusMessage("nothing to tour: the input holds no ASN.1 element", isError: true)
            return
        }
        teaching.tour?.active = true
        if mode != .tree { setMode(.tree) }
        showTourStep()
    }

    mutating func performTeaching(_ action: Action, event: InputEvent) -> TeachingResult {
        switch action {
        case .tourStart: startTour()
        case .tourNext, .tourPrevious:
            guard var tour = teaching.tour else { return .done(nil) }
            let next = tour.index + (action == .tourNext ? 1 : -1)
            guard tour.tour.steps.indices.contains(next) else {
                status = StatusMessage(action == .tourNext ? "the last step: p goes back, q leaves the tour" : "the first step")
                return .done(nil)
            }
            tour.index = next
            tour.reply = nil
            teaching.tour = tour
            showTourStep()
        case .tourLeave:
            teaching.tour?.active = false
            status = StatusMessage("left the tour at step \((teaching.tour?.index ?? 0) + 1): browse freely, t resumes")
        case .tourAnswer:
            guard case .character(let key) = event else { return .done(nil) }
            // An answer counts only for a question the learner can see.
            guard let check = teaching.tour?.step?.check, let detail = layout.detail,
                  let rows = TourOverlay.questionRows(self, width: detail.width) else {
                status = StatusMessage("no question at this step: n goes on")
                return .done(nil)
            }
            let shown = detailView.scroll..<(detailView.scroll + detail.height)
            guard shown.contains(rows.lowerBound) && shown.contains(rows.upperBound - 1) else {
                status = StatusMessage("the question is \(rows.lowerBound < shown.lowerBound ? "above" : "below"): \(rows.lowerBound < shown.lowerBound ? "↑" : "↓") scrolls the lesson to it")
                return .done(nil)
            }
            guard let reply = check.reply(to: key) else { return .done(nil) }
            teaching.tour?.reply = reply.text
            status = StatusMessage(reply.text, isError: !reply.correct)
        default:
            return performLab(action)
        }
        return .done(nil)
    }

    /// Selects the step's node, scrolls the hex pane to its bytes and puts the cursor on them; the
    /// lesson starts at the top of the detail pane.
    mutating func showTourStep() {
        defer { detailView.scroll = 0 }
        guard let tour = teaching.tour, let step = tour.step else { return }
        let range = document.fileRange(of: step)
        let outline = layered.outline
        if let row = outline.row(of: step.node) ?? outline.innermost(from: .file, offset: range.lowerBound)?.row { selectOutlineRow(row) }
        // On the file's own bytes the cursor goes to the step's bytes (a length's octets), not its node's first.
        let size = document.fileLayer.bytes.count
        if shownLayer == .file, size > 0 {
            outlineView.cursor = min(max(0, range.lowerBound), size - 1)
        }
        status = StatusMessage("tour \(tour.index + 1)/\(tour.tour.steps.count): \(step.title)")
    }
}
