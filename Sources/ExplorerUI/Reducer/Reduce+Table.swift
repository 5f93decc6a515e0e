import DocumentCore

/// The purchase table: row moves, paging, sorting, and the jump back to the tree.
extension AppState {
    mutating func performTable(_ action: Action) -> Bool {
        switch action {
        case .tableUp: moveTableRow(to: table.row - 1)
        case .tableDown: moveTableRow(to: table.row + 1)
        case .tablePageUp: moveTableRow(to: table.row - tablePage)
        case .tablePageDown: moveTableRow(to: table.row + tablePage)
        case .tableFirst: moveTableRow(to: 0)
        case .tableLast: moveTableRow(to: table.order.count - 1)
        case .tableOpen:
            guard let additions, table.order.indices.contains(table.row) else { break }
            let row = additions.purchases[table.order[table.row]]
            guard case .node(let node, _) = row.target else { break }
            mode = .tree
            focus = .tree
            if let target = outline.row(of: node) { selectOutlineRow(target) }
            status = StatusMessage("in-app purchase #\(row.number) in the tree (p goes back)")
        case .tableFilter:
            guard additions != nil else { break }
            prompt = Prompt(kind: .filterPurchases, text: table.filter)
        case .sortNext, .sortReverse:
            if action == .sortNext {
                let all = PurchaseRow.Column.allCases
                table.sort = all[(all.firstIndex(of: table.sort)! + 1) % all.count]
            } else {
                table.descending.toggle()
            }
            sortTable()
            ensureTableVisible()
            status = StatusMessage("sorted by \(table.sort.title)\(table.descending ? ", descending" : "")")
        default: return false
        }
        return true
    }

    var tablePage: Int { max(1, (layout.main?.height ?? 3) - 2) }

    mutating func moveTableRow(to row: Int) {
        guard !table.order.isEmpty else { return }
        table.row = max(0, min(table.order.count - 1, row))
        ensureTableVisible()
    }

    /// Keeps the selected table row inside the table (which has one header row).
    mutating func ensureTableVisible() {
        let rows = tableRows
        table.row = max(0, min(table.row, max(0, table.order.count - 1)))
        if table.row < table.top { table.top = table.row } else if table.row >= table.top + rows { table.top = table.row - rows + 1 }
        table.top = max(0, min(table.top, max(0, table.order.count - rows)))
        if table.row < table.top { table.top = table.row }
    }

    /// Keeps only the rows whose product id, transaction id or original transaction id hold
    /// `text` (ASCII case-insensitive), in the current sort; empty `text` shows every row. The
    /// selected purchase stays selected when the filter keeps it.
    mutating func applyTableFilter(_ text: String) {
        guard let additions else { return }
        table.filter = text
        sortTable()
        ensureTableVisible()
        let total = additions.purchases.count
        if text.isEmpty {
            status = StatusMessage("filter cleared: all \(total) rows")
        } else if table.order.isEmpty {
            status = StatusMessage("no row holds \"\(UIText.escape(text))\" (Esc clears the filter)", isError: true)
        } else {
            status = StatusMessage("\(table.order.count) of \(total) rows hold \"\(UIText.escape(text))\" (Esc clears the filter)")
        }
    }

    /// The table row of purchase `index`; a filter that hides it is cleared first (`p` always
    /// lands on the purchase it names).
    mutating func tableRow(showing index: Int) -> Int {
        if !table.order.contains(index), !table.filter.isEmpty {
            table.filter = ""
            sortTable()
        }
        return table.order.firstIndex(of: index) ?? 0
    }

    /// Whether purchase row `row` passes the table's filter.
    func passesTableFilter(_ row: PurchaseRow) -> Bool {
        let needle = Array(table.filter.lowercased().utf8)
        guard !needle.isEmpty else { return true }
        return [row.productID, row.transactionID, row.originalTransactionID].contains { Search.contains($0, needle) }
    }

    /// The purchase table row order after a sort or filter change (O(p log p), p = purchases; on
    /// `s` / `S` / `f` only). Each row is read once: a receipt's rows are made when read.
    mutating func sortTable() {
        guard let additions else { return }
        let rows = additions.purchases
        let column = table.sort
        let selected = table.order.indices.contains(table.row) ? table.order[table.row] : nil
        struct Key {
            var index: Int
            var number: Int
            var text: String
            var value: Int?
        }
        var keys: [Key] = []
        for i in rows.indices {
            let row = rows[i]
            guard passesTableFilter(row) else { continue }
            switch column {
            case .number: keys.append(Key(index: i, number: row.number, text: "", value: nil))
            case .quantity: keys.append(Key(index: i, number: row.number, text: "", value: Int(row.quantity) ?? Int.min))
            default: keys.append(Key(index: i, number: row.number, text: row.text(column), value: nil))
            }
        }
        func less(_ lhs: Key, _ rhs: Key) -> Bool {
            switch column {
            case .number: return lhs.number < rhs.number
            case .quantity: return lhs.value != rhs.value ? lhs.value! < rhs.value! : lhs.number < rhs.number
            default:
                let s = lhs.text, t = rhs.text
                // Numeric ids (transaction ids) sort by value when both are numbers.
                if let x = UInt64(s), let y = UInt64(t), x != y { return x < y }
                return s != t ? s < t : lhs.number < rhs.number
            }
        }
        let descending = table.descending
        let order = keys.sorted { descending ? less($1, $0) : less($0, $1) }.map(\.index)
        table.order = order
        if let selected, let row = order.firstIndex(of: selected) { table.row = row }
    }
}
