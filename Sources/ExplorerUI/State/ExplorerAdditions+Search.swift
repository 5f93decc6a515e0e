import DocumentCore

/// A kind's fields go straight into the explorer's search buffers.
extension SearchEntries: FieldSearchSink {
    mutating func addText(_ text: String, node: Int) { texts.add(text, node: node) }
    mutating func addDecimal(_ value: Int64, node: Int) { decimals.add(decimal: value, node: node) }
}

extension ExplorerAdditions {
    /// What `/` finds through the kind beyond the tree's own nodes, for `TreeSearchIndex`: the
    /// format's fields (`fieldSearch`), or, for additions built by hand, each meaning's label, field
    /// name, decoded value and raw date at its node. Made once, on the first search.
    func searchEntries() -> SearchEntries {
        var entries = SearchEntries()
        if let fieldSearch {
            fieldSearch.write(into: &entries)
            return entries
        }
        for node in Set(meanings.keys).union(searchableNodes).sorted() {
            guard let meaning = meaning(of: node) else { continue }
            for text in [meaning.label, meaning.fieldName ?? "", meaning.decodedValue ?? "", meaning.rawDate ?? ""] where !text.isEmpty {
                entries.texts.add(text, node: node)
            }
        }
        return entries
    }
}
