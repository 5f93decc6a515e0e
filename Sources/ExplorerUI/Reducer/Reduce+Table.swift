/// The purchase table: row moves, paging, sorting, and the jump back to the tree.
extension AppState {
    mutating func performTable(_ action: Action) -> Bool {
        switch action {
        case .tableUp: moveTableRow(to: tableRow - 1)
        case .tableDown: moveTableRow(to: tableRow + 1)
        case .tablePageUp: moveTableRow(to: tableRow - tablePage)
        case .tablePageDown: moveTableRow(to: tableRow + tablePage)
        case .tableFirst: moveTableRow(to: 0)
        case .tableLast: moveTableRow(to: tableOrder.count - 1)
        case .tableOpen:
            guard let receipt, tableOrder.indices.contains(tableRow) else { break }
            let row = receipt.purchases[tableOrder[tableRow]]
            mode = .tree
            focus = .tree
            select(row.node, expand: true)
            status = StatusMessage("in-app purchase #\(row.number) in the tree (p goes back)")
        case .sortNext, .sortReverse:
            if action == .sortNext {
                let all = PurchaseRow.Column.allCases
                tableSort = all[(all.firstIndex(of: tableSort)! + 1) % all.count]
            } else {
                tableSortDescending.toggle()
            }
            sortTable()
            ensureTableVisible()
            status = StatusMessage("sorted by \(tableSort.title)\(tableSortDescending ? ", descending" : "")")
        default: return false
        }
        return true
    }

    var tablePage: Int { max(1, (layout.main?.height ?? 3) - 2) }

    mutating func moveTableRow(to row: Int) {
        guard !tableOrder.isEmpty else { return }
        tableRow = max(0, min(tableOrder.count - 1, row))
        ensureTableVisible()
    }

    /// Keeps the selected table row inside the table (which has one header row).
    mutating func ensureTableVisible() {
        let main = Layout(size: screen, mode: .purchases, hexVisible: hexVisible, byteCount: tree.bytes.count,
                          base: offsetBase).main
        let rows = max(1, (main?.height ?? 2) - 1)
        tableRow = max(0, min(tableRow, max(0, tableOrder.count - 1)))
        if tableRow < tableTop { tableTop = tableRow } else if tableRow >= tableTop + rows { tableTop = tableRow - rows + 1 }
        tableTop = max(0, min(tableTop, max(0, tableOrder.count - rows)))
        if tableRow < tableTop { tableTop = tableRow }
    }

    /// The purchase table row order after a sort change (O(p log p), p = purchases; on `s` / `S` only).
    mutating func sortTable() {
        guard let receipt else { return }
        let rows = receipt.purchases
        let column = tableSort
        let selected = tableOrder.indices.contains(tableRow) ? tableOrder[tableRow] : nil
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
        let descending = tableSortDescending
        let order = rows.indices.sorted { descending ? less($1, $0) : less($0, $1) }
        tableOrder = order
        if let selected, let row = order.firstIndex(of: selected) { tableRow = row }
    }
}
