import DocumentCore

extension ExplorerAdditions {
    /// The additions with every text from the input made fit for one-column cells: a format escapes
    /// with `TerminalSafe.escape` (controls, bidi, backslashes), the explorer then writes what is not
    /// one column wide (CJK, emoji, combining marks) as `\u{XXXX}` (`UIText.guardDisplay`), so the
    /// table's column widths, its filter and the summary see the text as drawn. The rows are
    /// rewritten only when one holds more than printable ASCII (measured with their widths).
    func guardedForCells() -> ExplorerAdditions {
        var guarded = self
        if !purchaseTextsArePrintableASCII { guarded.mapPurchaseTexts { Self.cell($0) } }
        guarded.summary = summary.map { SummaryLine(label: $0.label, value: Self.cell($0.value), node: $0.node) }
        guarded.activeSubscriptions = activeSubscriptions.map(Self.cell)
        guarded.verdict = Self.cell(verdict)
        guarded.verdictDetail = Self.cell(verdictDetail)
        guarded.meanings = meanings.mapValues(Self.guardedForCells)
        if let provider = meaningProvider {
            guarded.meaningProvider = { node in provider(node).map(Self.guardedForCells) }
        }
        return guarded
    }

    /// Printable ASCII (nearly every id and date): one column a scalar already.
    static func isPlain(_ text: String) -> Bool {
        for byte in text.utf8 where byte < 0x20 || byte > 0x7E { return false }
        return true
    }

    static func cell(_ text: String) -> String { isPlain(text) ? text : UIText.guardDisplay(text) }

    /// A node's meaning with its input texts guarded (its purpose is our own sentence).
    static func guardedForCells(_ meaning: NodeMeaning) -> NodeMeaning {
        var m = meaning
        m.label = cell(m.label)
        m.fieldName = m.fieldName.map(cell)
        m.decodedValue = m.decodedValue.map(cell)
        m.rawDate = m.rawDate.map(cell)
        m.parsedDate = m.parsedDate.map(cell)
        m.notes = m.notes.map(cell)
        return m
    }
}
