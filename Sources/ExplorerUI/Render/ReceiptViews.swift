import DocumentCore

/// The receipt summary view: `SummaryContent`'s wrapped lines from the scroll offset.
enum SummaryView {
    static func draw(_ state: AppState, into grid: inout Grid, rect: GridRect) {
        let all = SummaryContent.wrapped(state, width: rect.width - 1)
        let scroll = min(state.summaryView.scroll, max(0, all.count - rect.height))
        for r in 0..<rect.height where scroll + r < all.count {
            let line = all[scroll + r]
            grid.put(line.text, x: rect.x + 1, y: rect.y + r, style: Theme.style(line.style, color: state.preferences.color), maxWidth: rect.width - 1)
        }
    }
}

/// The in-app purchase table: one row per purchase, sortable by column.
public enum PurchaseTable {
    /// Column widths for a table `width` wide: each column gets its minimum, then the rest goes to
    /// the columns in priority order up to what their widest value needs.
    static func widths(_ state: AppState, width: Int) -> [Int] {
        let columns = PurchaseRow.Column.allCases
        let minimum = [3, 10, 8, 8, 10, 10, 3, 5]
        // Start from what each column's widest value needs (at least its title), then shrink the
        // least important columns first, down to their minimums; spare room goes to the product id.
        var widths = columns.indices.map { max(state.tableWidths[$0], columns[$0].title.count + 1, minimum[$0]) }
        var excess = widths.reduce(0, +) + (columns.count - 1) - width
        // Product ids give way first down to 24 columns, then ids, flags and dates, then the rest.
        let stages: [(Int, Int)] = [(1, 24), (3, minimum[3]), (2, minimum[2]), (7, minimum[7]), (5, 16), (4, 16),
                                    (5, minimum[5]), (4, minimum[4]), (1, minimum[1]), (6, minimum[6]), (0, minimum[0])]
        for (i, floor) in stages where excess > 0 && widths[i] > floor {
            let cut = min(excess, widths[i] - floor)
            widths[i] -= cut
            excess -= cut
        }
        if excess < 0 { widths[1] -= excess }
        return widths
    }

    static func draw(_ state: AppState, into grid: inout Grid, rect: GridRect, glyphs: Glyphs) {
        let color = state.preferences.color
        guard let additions = state.additions else {
            grid.put("This file is not a receipt: there are no in-app purchases.", x: rect.x + 1, y: rect.y, maxWidth: rect.width - 1)
            return
        }
        let columns = PurchaseRow.Column.allCases
        let widths = widths(state, width: rect.width)
        var x = rect.x
        for (i, column) in columns.enumerated() {
            var title = column.title
            if column == state.table.sort { title += state.table.descending ? glyphs.sortDown : glyphs.sortUp }
            grid.put(glyphs.pad(title, widths[i]), x: x, y: rect.y, style: Theme.style(.title, color: color), maxWidth: rect.x + rect.width - x)
            x += widths[i] + 1
        }
        if additions.purchases.isEmpty {
            grid.put("no in-app purchases", x: rect.x, y: rect.y + 1, style: Theme.style(.dim, color: color), maxWidth: rect.width)
            return
        }
        for r in 0..<(rect.height - 1) {
            let position = state.table.top + r
            guard position < state.table.order.count else { break }
            let row = additions.purchases[state.table.order[position]]
            let y = rect.y + 1 + r
            let selected = position == state.table.row
            let style = Theme.style(selected ? .selected : .plain, color: color)
            if selected { grid.fill(x: rect.x, y: y, width: rect.width, height: 1, style: style) }
            var x = rect.x
            for (i, column) in columns.enumerated() {
                let numeric = column == .number || column == .quantity
                let text = glyphs.pad(PurchaseTable.cellText(UIText.display(row.text(column), ascii: state.preferences.ascii), column, widths[i], glyphs),
                                      widths[i], right: numeric)
                grid.put(text, x: x, y: y, style: style, maxWidth: max(0, rect.x + rect.width - x))
                x += widths[i] + 1
            }
        }
    }
}

extension PurchaseTable {
    /// A cell's text for a column narrower than it: dates keep their leading part (`2024-03-01`,
    /// `2024-03-01 12:00`), product and transaction ids their distinguishing tail (`…00000012`).
    static func cellText(_ text: String, _ column: PurchaseRow.Column, _ width: Int, _ glyphs: Glyphs) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > width else { return text }
        switch column {
        case .purchaseDate, .expiresDate:
            if width >= 16, scalars.count >= 16, scalars[10] == "T" {
                return String(String.UnicodeScalarView(scalars[0..<10])) + " " + String(String.UnicodeScalarView(scalars[11..<16]))
            }
            if width >= 10 { return String(String.UnicodeScalarView(scalars[0..<10])) }
            return glyphs.fit(text, width)
        case .transactionID, .originalTransactionID, .productID:
            let mark = glyphs.ellipsis.unicodeScalars.count
            guard width > mark else { return glyphs.fit(text, width) }
            return glyphs.ellipsis + String(String.UnicodeScalarView(scalars.suffix(width - mark)))
        default:
            return glyphs.fit(text, width)
        }
    }
}

extension AppState {
    /// The widest value of each table column (computed once, on first use per state, O(purchases)).
    var tableWidths: [Int] {
        guard let additions else { return PurchaseRow.Column.allCases.map { $0.title.count } }
        return additions.columnWidths
    }
}
