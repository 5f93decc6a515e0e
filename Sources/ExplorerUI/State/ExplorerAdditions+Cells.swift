import DocumentModel

extension ExplorerAdditions {
    /// The additions with every text from the input made fit for one-column cells: a format escapes
    /// with `TerminalSafe.escape` (controls, bidi, backslashes), the explorer then writes what is not
    /// one column wide (CJK, emoji, combining marks) as `\u{XXXX}` (`UIText.guardDisplay`), so the
    /// table's column widths, its filter and the summary see the text as drawn. O(purchases) once.
    func guardedForCells() -> ExplorerAdditions {
        func cell(_ text: String) -> String {
            // Printable ASCII (nearly every id and date) is one column a scalar already.
            let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 >= 0x20 && $0 <= 0x7E } }
                ?? text.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
            return plain ? text : UIText.guardDisplay(text)
        }
        let rows = purchases.map { row in
            PurchaseRow(number: row.number, target: row.target, productID: cell(row.productID), transactionID: cell(row.transactionID),
                        originalTransactionID: cell(row.originalTransactionID), purchaseDate: cell(row.purchaseDate),
                        expiresDate: cell(row.expiresDate), quantity: cell(row.quantity), flags: cell(row.flags))
        }
        var guarded = ExplorerAdditions(
            meanings: meanings.mapValues(Self.guardedForCells), purchases: rows,
            summary: summary.map { SummaryLine(label: $0.label, value: cell($0.value), node: $0.node) },
            steps: steps, activeSubscriptions: activeSubscriptions.map(cell), verdict: cell(verdict),
            verdictFailed: verdictFailed, defaultExpanded: defaultExpanded, initialSelection: initialSelection)
        guarded.verdictDetail = cell(verdictDetail)
        guarded.rowsTitle = rowsTitle
        guarded.searchableNodes = searchableNodes
        guarded.fieldSearch = fieldSearch
        if let provider = meaningProvider {
            guarded.meaningProvider = { node in provider(node).map(Self.guardedForCells) }
        }
        return guarded
    }

    /// A node's meaning with its input texts guarded (its purpose is our own sentence).
    static func guardedForCells(_ meaning: NodeMeaning) -> NodeMeaning {
        var m = meaning
        m.label = UIText.guardDisplay(m.label)
        m.fieldName = m.fieldName.map(UIText.guardDisplay)
        m.decodedValue = m.decodedValue.map(UIText.guardDisplay)
        m.rawDate = m.rawDate.map(UIText.guardDisplay)
        m.parsedDate = m.parsedDate.map(UIText.guardDisplay)
        m.notes = m.notes.map(UIText.guardDisplay)
        return m
    }
}
