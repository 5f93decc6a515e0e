import DocumentCore

/// Where a layer's bytes sit in the outline's byte pane: JSON and token text one byte a cell; DER
/// and signature bytes as the hex pane shows a file (offset column, 16 or 8 bytes in groups of 8,
/// an ASCII column), or three cells a byte when the pane is too narrow for that. The renderer draws
/// with it and the reducer hit-tests and pages with it, so neither asks the other.
enum LayerByteGeometry {
    /// Whether the layer's bytes read as text (JSON, token characters).
    static func isText(_ layer: ByteLayer) -> Bool {
        switch layer.content {
        case .json, .token: true
        case .asn1, .raw: false
        }
    }

    /// The hex rows of a binary layer in a pane `width` wide: bytes per row and offset digits; nil
    /// for text, and when not even 8 bytes with their offset fit.
    static func hexRows(_ layer: ByteLayer, width: Int, base: OffsetBase) -> (perRow: Int, digits: Int)? {
        guard !isText(layer) else { return nil }
        let last = max(0, layer.bytes.count - 1)
        let digits = base == .hex ? max(4, String(last, radix: 16).count) : max(4, String(last).count)
        if width >= Layout.hexWidth(bytesPerRow: 16, offsetDigits: digits) { return (16, digits) }
        if width >= Layout.hexWidth(bytesPerRow: 8, offsetDigits: digits) { return (8, digits) }
        return nil
    }

    /// Bytes a row of the pane shows for `layer`.
    static func bytesPerRow(_ layer: ByteLayer, width: Int, base: OffsetBase) -> Int {
        if let rows = hexRows(layer, width: width, base: base) { return rows.perRow }
        return isText(layer) ? max(1, width - 1) : max(1, (width - 1) / 3)
    }

    /// The first byte row on screen: the selected range's first row (one row of context above
    /// it) unless the cursor would fall below the pane. The click hit test uses the same.
    static func topRow(_ state: AppState, rect: GridRect, perRow: Int) -> Int {
        let cursorRow = state.outlineView.cursor / perRow
        let firstRow = max(0, min(state.shownRange.lowerBound / perRow, cursorRow) - 1)
        return cursorRow >= firstRow + rect.height ? cursorRow - rect.height + 1 : firstRow
    }

    /// The byte offset (in the shown layer) under a click at column `x`, row `y` of the pane.
    static func offset(_ state: AppState, rect: GridRect, x: Int, y: Int) -> Int? {
        let layered = state.layered
        guard let id = state.shownLayer else { return nil }
        let layer = layered.document.layer(id)
        let base = state.preferences.offsetBase
        let perRow = bytesPerRow(layer, width: rect.width, base: base)
        let top = topRow(state, rect: rect, perRow: perRow)
        if let rows = hexRows(layer, width: rect.width, base: base) {
            return HexGeometry.offset(atColumn: x - rect.x, row: y - rect.y, topRow: top, byteCount: layer.bytes.count,
                                      perRow: rows.perRow, digits: rows.digits)
        }
        let column = (x - rect.x) / (isText(layer) ? 1 : 3)
        guard column < perRow else { return nil }
        let offset = (top + (y - rect.y)) * perRow + column
        return offset < layer.bytes.count ? offset : nil
    }
}
