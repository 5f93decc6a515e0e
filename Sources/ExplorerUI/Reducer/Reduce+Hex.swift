/// The hex pane's byte cursor: it moves on its own and selects the deepest node holding its byte.
extension AppState {
    mutating func performHex(_ action: Action) -> Bool {
        let perRow = layout.bytesPerRow
        switch action {
        case .hexLeft: moveHexCursor(to: hexView.cursor - 1)
        case .hexRight: moveHexCursor(to: hexView.cursor + 1)
        case .hexUp: moveHexCursor(to: hexView.cursor - perRow)
        case .hexDown: moveHexCursor(to: hexView.cursor + perRow)
        case .hexPageUp: moveHexCursor(to: hexView.cursor - perRow * hexPage)
        case .hexPageDown: moveHexCursor(to: hexView.cursor + perRow * hexPage)
        case .hexStart: moveHexCursor(to: 0)
        case .hexEnd: moveHexCursor(to: tree.bytes.count - 1)
        default: return false
        }
        return true
    }

    /// Byte rows one page moves (one row of overlap).
    var hexPage: Int { max(1, (layout.hex?.height ?? 1) - 1) }

    mutating func moveHexCursor(to offset: Int) {
        guard !tree.bytes.isEmpty else { return }
        hexView.cursor = max(0, min(tree.bytes.count - 1, offset))
        if let node = TreeFacts.deepestNode(tree.nodes, containing: hexView.cursor) {
            select(node, expand: true, moveHexCursor: false)
        } else {
            ensureSelectionVisible()
        }
    }

}
