import DocumentModel

/// Where a layer's bytes sit in the outline's byte pane: JSON and token text one byte a cell, DER
/// and signature bytes three cells each. The renderer draws with it and the reducer hit-tests and
/// pages with it, so neither asks the other.
enum LayerByteGeometry {
    /// Whether the layer's bytes read as text (JSON, token characters).
    static func isText(_ layer: ByteLayer) -> Bool {
        switch layer.content {
        case .json, .token: true
        case .asn1, .raw: false
        }
    }

    /// Bytes a row of the pane shows for `layer`: one a cell as text, three cells each as hex.
    static func bytesPerRow(_ layer: ByteLayer, width: Int) -> Int {
        isText(layer) ? max(1, width - 1) : max(1, (width - 1) / 3)
    }

    /// The first byte row on screen: the selected range's first row (one row of context above
    /// it) unless the cursor would fall below the pane. The click hit test uses the same.
    static func topRow(_ state: AppState, rect: Rect, perRow: Int) -> Int {
        let cursorRow = state.outlineView.cursor / perRow
        let firstRow = max(0, min(state.shownRange.lowerBound / perRow, cursorRow) - 1)
        return cursorRow >= firstRow + rect.height ? cursorRow - rect.height + 1 : firstRow
    }

    /// The byte offset (in the shown layer) under a click at column `x`, row `y` of the pane.
    static func offset(_ state: AppState, rect: Rect, x: Int, y: Int) -> Int? {
        guard let layered = state.layered, let id = state.shownLayer else { return nil }
        let layer = layered.document.layer(id)
        let perRow = bytesPerRow(layer, width: rect.width)
        let column = (x - rect.x) / (isText(layer) ? 1 : 3)
        guard column < perRow else { return nil }
        let offset = (topRow(state, rect: rect, perRow: perRow) + (y - rect.y)) * perRow + column
        return offset < layer.bytes.count ? offset : nil
    }
}
