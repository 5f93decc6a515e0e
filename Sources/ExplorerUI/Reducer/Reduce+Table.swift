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
            guard let receipt, table.order.indices.contains(table.row) else { break }
            let row = receipt.purchases[table.order[table.row]]
            mode = .tree
            focus = .tree
            select(row.node, expand: true)
            status = StatusMessage("in-app purchase #\(row.number) in the tree (p goes back)")
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

    /// The purchase table row order after a sort change (O(p log p), p = purchases; on `s` / `S` only).
    mutating func sortTable() {
        guard let receipt else { return }
        let rows = receipt.purchases
        let column = table.sort
        let selected = table.order.indices.contains(table.row) ? table.order[table.row] : nil
        func less(_ a: Int, _ b: Int) -> Bool {
            let lhs = rows[a], rhs = rows[b]
            switch column {
            case .number: return lhs.number < rhs.number
            case .quantity:
                let x = Int(lhs.quantity) ?? Int.min, y = Int(rhs.quantity) ?? Int.min
                return x != y ? x < y : lhs.number < rhs.number
            default:
                let s = lhs.text(column), t = rhs.text(column)
                // Numeric ids (transaction ids) sort by value when both are numbers.
                if let x = UInt64(s), let y = UInt64(t), x != y { return x < y }
                return s != t ? s < t : lhs.number < rhs.number
            }
        }
        let descending = table.descending
        let order = rows.indices.sorted { descending ? less($1, $0) : less($0, $1) }
        table.order = order
        if let selected, let row = order.firstIndex(of: selected) { table.row = row }
    }
}
