import ASN1Lenient
import DocumentCore

/// Search and diagnostics over a layer outline: every row of every layer, tokens not built yet
/// included (their rows' text is made once, on the first search, without keeping the rows).
extension LayerOutline {
    /// Rows whose label, value, meaning or raw JSON value holds `query` (case-insensitive), and
    /// JSON leaf rows whose text in the layer holds it (a key, or a string longer than the preview),
    /// ascending. The first query makes every row's search text (`OutlineSearchIndex`); each
    /// query then scans that text, O(text), when Enter is pressed.
    public func search(_ query: String) -> [Int] { search(query, fileEntries: { SearchEntries() }) }

    /// `fileEntries`: what the file layer's meaning adds (a receipt's fields, one hit per field),
    /// asked for on the first search only.
    func search(_ query: String, fileEntries: () -> SearchEntries) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return [] }
        return store.searchIndex { OutlineSearchIndex(self, fileEntries: fileEntries()) }.rows(matching: needle)
    }

    /// The rows holding a diagnostic of any layer (the row its range starts in), in outline order,
    /// each with its first diagnostic (layers in document order, then each layer's order): the
    /// stops of `]` / `[`. Found on the first jump and kept.
    public var diagnosticStops: [OutlineDiagnostic] {
        store.diagnostics {
            var list: [OutlineDiagnostic] = []
            for layer in context.document.layers {
                for d in layer.content.diagnostics {
                    let start = min(d.range.lowerBound, max(0, layer.bytes.count - 1))
                    guard let row = deepestRow(in: layer.id, containing: start) ?? firstRow(of: layer.id) else { continue }
                    list.append(OutlineDiagnostic(row: row, layer: layer.id, diagnostic: d))
                }
            }
            // A stable sort: diagnostics of one row keep their layer's order.
            let sorted = list.enumerated().sorted { ($0.element.row, $0.offset) < ($1.element.row, $1.offset) }.map(\.element)
            var stops: [OutlineDiagnostic] = []
            for d in sorted where stops.last?.row != d.row { stops.append(d) }
            return stops
        }
    }

    /// The first row of `layer` (its root), for a diagnostic whose range is empty or past its bytes.
    func firstRow(of layer: LayerID) -> Int? {
        if let row = row(of: NodeID(layer, 0)) { return row }
        // A layer without a row of its own (a paste's outer text): its first child layer's row, or
        // the row of its bytes in the layer it was decoded from.
        let document = context.document
        if let child = context.childLayers[layer.index].first, let row = firstRow(of: child.layer) { return row }
        guard let parent = document.layer(layer).parent, let map = document.layer(layer).map else { return nil }
        return deepestRow(in: parent, containing: map.parentRange(0..<document.layer(layer).bytes.count).lowerBound)
    }
}
