import ASN1Lenient
import DocumentModel

/// Search and diagnostics over a layer outline: every row of every layer, tokens not built yet
/// included (each is built for the scan and dropped again unless it was built already).
extension LayerOutline {
    /// Rows whose label, value, meaning or raw JSON value holds `query` (case-insensitive), and
    /// JSON leaf rows whose text in the layer holds it (a key, or a string longer than the preview),
    /// ascending. O(rows) per query, run when Enter is pressed.
    public func search(_ query: String) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return [] }
        var hits: [Int] = []
        func matches(_ row: OutlineRow, _ index: Int) -> Bool {
            for text in [row.label, row.value, row.meaning, row.raw] where Search.contains(text, needle) { return true }
            // A JSON leaf's own text (key and whole value): containers' children match on their own.
            guard row.subtreeEnd == index + 1 else { return false }
            let layer = context.document.layer(row.node.layer)
            guard layer.json != nil, row.range.upperBound <= layer.bytes.count else { return false }
            return layer.bytes.withUnsafeBufferPointer { Search.containsFolded(UnsafeBufferPointer(rebasing: $0[row.range]), needle) }
        }
        var eagerRows = eager.keys.sorted()[...]
        for (b, block) in blocks.enumerated() {
            while let first = eagerRows.first, first < block.start {
                if matches(eager[first]!, first) { hits.append(first) }
                eagerRows = eagerRows.dropFirst()
            }
            let rows = rowsOfBlock(b).rows
            for (i, row) in rows.enumerated() where matches(row, block.start + i) { hits.append(block.start + i) }
            while let first = eagerRows.first, first < block.start + block.count { eagerRows = eagerRows.dropFirst() }
        }
        for first in eagerRows where matches(eager[first]!, first) { hits.append(first) }
        return hits
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
        // A layer without rows of its own (a token's text inside a body): its token's row.
        return token(of: layer).flatMap(tokenRow)
    }
}
