import DocumentCore

/// The summary view's text: a kind that words its own summary (StoreKit tokens), or the kind's
/// additions: identity, dates, each verification step (✓ / ✗ / –), active subscriptions, the verdict.
public enum SummaryContent {
    public static func lines(_ state: AppState) -> [StyledLine] {
        // A kind that words its own summary (a StoreKit document's tokens): each line escaped here.
        let layered = state.layered
        if let lines = layered.outline.context.wording.summary(of: layered.document) {
            return lines.map {
                StyledLine(UIText.display($0.isTerminalSafe ? $0.text : UIText.escape($0.text), ascii: state.preferences.ascii), OutlineDetail.style($0.tone))
            }
        }
        guard let additions = state.additions else {
            return [StyledLine("This file is not a receipt: only the tree view is available (press 1).")]
        }
        let glyphs = Glyphs.forState(state)
        var out: [StyledLine] = [StyledLine(additions.summaryTitle, .title)]
        let labelWidth = max(12, (additions.summary.map { $0.label.unicodeScalars.count }.max() ?? 0) + 2)
        for line in additions.summary {
            out.append(StyledLine(glyphs.pad(line.label, labelWidth) + UIText.display(line.value, ascii: state.preferences.ascii)))
        }
        out.append(StyledLine(""))
        out.append(StyledLine("Validation", .title))
        if additions.steps.isEmpty { out.append(StyledLine("  (not validated)", .dim)) }
        let titleWidth = max(10, (additions.steps.map { $0.title.unicodeScalars.count }.max() ?? 0) + 2)
        for step in additions.steps {
            let mark: String, style: StyleClass
            switch step.status {
            case .passed: mark = glyphs.passed; style = .ok
            case .failed: mark = glyphs.failed; style = .fail
            case .notChecked: mark = glyphs.notChecked; style = .dim
            case .info: mark = "i"; style = .dim
            }
            var text = glyphs.pad(mark, 4) + glyphs.pad(UIText.display(step.title, ascii: state.preferences.ascii), titleWidth)
            let word = switch step.status {
            case .passed: "passed"
            case .failed: "failed"
            case .notChecked: "not checked"
            case .info: "for information"
            }
            text += word
            if let reason = step.reason { text += glyphs.separator + UIText.display(reason, ascii: state.preferences.ascii) }
            out.append(StyledLine("  " + text, style))
        }
        out.append(StyledLine(""))
        out.append(StyledLine("Active subscriptions", .title))
        if additions.activeSubscriptions.isEmpty { out.append(StyledLine("  none", .dim)) }
        for s in additions.activeSubscriptions { out.append(StyledLine("  " + UIText.display(s, ascii: state.preferences.ascii))) }
        out.append(StyledLine(""))
        let detail = additions.verdictDetail.isEmpty ? additions.verdict : additions.verdictDetail
        out.append(StyledLine("Verdict: " + UIText.display(detail, ascii: state.preferences.ascii), additions.verdictFailed ? .fail : .ok))
        return out
    }

    /// The lines wrapped to the pane (continuations indented under the value column).
    public static func wrapped(_ state: AppState, width: Int) -> [StyledLine] {
        lines(state).flatMap { DetailContent.wrap($0.text, width: width, style: $0.style, indent: 8) }
    }
}
