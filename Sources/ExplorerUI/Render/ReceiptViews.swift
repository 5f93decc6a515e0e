import ReceiptKit

/// The receipt summary: identity, dates, each validation step (✓ / ✗ / –), active subscriptions.
public enum SummaryView {
    public static func lines(_ state: AppState) -> [StyledLine] {
        guard let receipt = state.receipt else {
            return [StyledLine("This file is not a receipt: only the tree view is available (press 1).")]
        }
        let glyphs = Glyphs.forState(state)
        var out: [StyledLine] = [StyledLine("Receipt", .title)]
        let labelWidth = max(12, (receipt.summary.map { $0.label.unicodeScalars.count }.max() ?? 0) + 2)
        for line in receipt.summary {
            out.append(StyledLine(glyphs.pad(line.label, labelWidth) + UIText.guardDisplay(line.value)))
        }
        out.append(StyledLine(""))
        out.append(StyledLine("Validation", .title))
        if receipt.steps.isEmpty { out.append(StyledLine("  (not validated)", .dim)) }
        let titleWidth = max(10, (receipt.steps.map { $0.title.unicodeScalars.count }.max() ?? 0) + 2)
        for step in receipt.steps {
            let mark: String, style: StyleClass
            switch step.status {
            case .passed: mark = glyphs.passed; style = .ok
            case .failed: mark = glyphs.failed; style = .fail
            case .notChecked: mark = glyphs.notChecked; style = .dim
            }
            var text = glyphs.pad(mark, 4) + glyphs.pad(UIText.guardDisplay(step.title), titleWidth)
            text += step.status.isPassed ? "passed" : (step.status.isFailed ? "failed" : "not checked")
            if let reason = step.status.reason { text += glyphs.separator + UIText.guardDisplay(reason) }
            out.append(StyledLine("  " + text, style))
        }
        out.append(StyledLine(""))
        out.append(StyledLine("Active subscriptions", .title))
        if receipt.activeSubscriptions.isEmpty { out.append(StyledLine("  none", .dim)) }
        for s in receipt.activeSubscriptions { out.append(StyledLine("  " + UIText.guardDisplay(s))) }
        out.append(StyledLine(""))
        out.append(StyledLine("Verdict: " + UIText.guardDisplay(receipt.verdict), receipt.verdictFailed ? .fail : .ok))
        return out
    }

    static func draw(_ state: AppState, into grid: inout Grid, rect: Rect) {
        let all = lines(state)
        let scroll = min(state.summaryScroll, max(0, all.count - rect.height))
        for r in 0..<rect.height where scroll + r < all.count {
            let line = all[scroll + r]
            grid.put(line.text, x: rect.x + 1, y: rect.y + r, style: Theme.style(line.style, color: state.color), maxWidth: rect.width - 1)
        }
    }
}

/// The in-app purchase table: one row per purchase, sortable by column.
public enum PurchaseTable {
    /// Column widths for a table `width` wide: each column gets its minimum, then the rest goes to
    /// the columns in priority order up to what their widest value needs.
    static func widths(_ state: AppState, width: Int) -> [Int] {
        let columns = PurchaseRow.Column.allCases
        let desired = state.tableWidths
        let minimum = [3, 10, 8, 8, 10, 10, 3, 5]
        var widths = zip(columns.indices, columns).map { i, c in max(minimum[i], min(desired[i], c.title.count + 2)) }
        widths = widths.indices.map { min(widths[$0], max(minimum[$0], desired[$0])) }
        var room = width - (columns.count - 1) - widths.reduce(0, +)
        for i in [1, 4, 5, 2, 3, 7, 6, 0] where room > 0 {
            let grow = min(room, max(0, desired[i] - widths[i]))
            widths[i] += grow
            room -= grow
        }
        if room > 0 { widths[1] += room }
        return widths
    }

    static func draw(_ state: AppState, into grid: inout Grid, rect: Rect, glyphs: Glyphs) {
        let color = state.color
        guard let receipt = state.receipt else {
            grid.put("This file is not a receipt: there are no in-app purchases.", x: rect.x + 1, y: rect.y, maxWidth: rect.width - 1)
            return
        }
        let columns = PurchaseRow.Column.allCases
        let widths = widths(state, width: rect.width)
        var x = rect.x
        for (i, column) in columns.enumerated() {
            var title = column.title
            if column == state.tableSort { title += state.tableSortDescending ? glyphs.sortDown : glyphs.sortUp }
            grid.put(glyphs.pad(title, widths[i]), x: x, y: rect.y, style: Theme.style(.title, color: color), maxWidth: rect.x + rect.width - x)
            x += widths[i] + 1
        }
        if receipt.purchases.isEmpty {
            grid.put("no in-app purchases", x: rect.x, y: rect.y + 1, style: Theme.style(.dim, color: color), maxWidth: rect.width)
            return
        }
        for r in 0..<(rect.height - 1) {
            let position = state.tableTop + r
            guard position < state.tableOrder.count else { break }
            let row = receipt.purchases[state.tableOrder[position]]
            let y = rect.y + 1 + r
            let selected = position == state.tableRow
            let style = Theme.style(selected ? .selected : .plain, color: color)
            if selected { grid.fill(x: rect.x, y: y, width: rect.width, height: 1, style: style) }
            var x = rect.x
            for (i, column) in columns.enumerated() {
                let numeric = column == .number || column == .quantity
                let text = glyphs.pad(UIText.guardDisplay(row.text(column)), widths[i], right: numeric)
                grid.put(text, x: x, y: y, style: style, maxWidth: max(0, rect.x + rect.width - x))
                x += widths[i] + 1
            }
        }
    }
}

extension AppState {
    /// The widest value of each table column (computed once, on first use per state, O(purchases)).
    var tableWidths: [Int] {
        guard let receipt else { return PurchaseRow.Column.allCases.map { $0.title.count } }
        return receipt.columnWidths
    }
}
