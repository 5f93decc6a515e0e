import ByteText
import DocumentCore

/// The keys that land on a node, on a layer outline (StoreKit 2 documents): search hits, a file
/// offset, diagnostics of every layer, and the keys that act on the selected node's bytes.
extension AppState {
    /// The global actions an outline handles itself; nil when the action is not one of them.
    mutating func performOutlineGlobal(_ action: Action) -> Effect?? {
        switch action {
        case .nextHit, .previousHit:
            guard !search.hits.isEmpty else { return .some(performGlobal(action)) }
            jumpToOutlineHit(forward: action == .nextHit)
        case .nextDiagnostic, .previousDiagnostic: jumpToOutlineDiagnostic(forward: action == .nextDiagnostic)
        case .writeNode: prompt = Prompt(kind: .writeFile, text: defaultWritePath)
        case .copyNode: return .some(copyOutlineRow())
        case .toggleOffsetBase:
            preferences.offsetBase = preferences.offsetBase == .hex ? .decimal : .hex
            status = StatusMessage("file offsets in the status bar: \(preferences.offsetBase == .hex ? "hexadecimal" : "decimal")")
        case .jumpToPurchase: jumpToOutlinePurchase()
        default: return nil
        }
        return .some(nil)
    }

    mutating func jumpToOutlineHit(forward: Bool) {
        let (next, wrapped) = hitIndex(from: outlineView.selection, forward: forward)
        search.current = next
        if mode != .tree { setMode(.tree) }
        selectOutlineRow(search.hits[next])
        reportHit(next, wrapped: wrapped, forward: forward)
    }

    /// `:` on an outline: `offset` is a FILE offset (what the CLI's diagnostics print); the deepest
    /// row of any layer whose bytes come from it is selected, the byte cursor on the byte there.
    mutating func goToOutlineOffset(_ offset: Int) {
        let size = layered.document.fileLayer.bytes.count
        let where_ = "0x\(String(offset, radix: 16, uppercase: true)) (\(offset))"
        guard offset < size else {
            status = StatusMessage("offset \(offset) is past the end (\(size) bytes)", isError: true)
            return
        }
        guard let (row, path) = layered.outline.innermost(from: .file, offset: offset) else {
            status = StatusMessage("no node at file offset \(where_): outside every value", isError: true)
            return
        }
        if mode != .tree { setMode(.tree) }
        selectOutlineRow(row)
        let found = layered.outline.row(row)
        if let shown = shownLayer, let step = path.last(where: { $0.layer == shown }) { outlineView.cursor = step.offset }
        // A DER file's node is named as the node tree named it.
        if found.node.layer == .file, layered.document.fileLayer.tree != nil {
            status = StatusMessage("offset \(where_) is in node \(found.node.index)")
            return
        }
        let inLayer = path.last { $0.layer == found.node.layer }?.offset ?? found.range.lowerBound
        let layerName = UIText.escape(layered.document.layer(found.node.layer).name)
        status = StatusMessage("file offset \(where_): \(found.label) (\(layerName) byte \(inLayer))")
    }

    mutating func jumpToOutlineDiagnostic(forward: Bool) {
        let list = outline.diagnosticStops
        guard !list.isEmpty else { status = StatusMessage("no diagnostics: nothing to jump to"); return }
        let rows = list.map(\.row)
        let selection = outlineView.selection
        var wrapped = false
        var index: Int
        if forward {
            index = firstIndex(in: rows, greaterThan: selection)
            if index >= rows.count { index = 0; wrapped = true }
        } else {
            index = firstIndex(in: rows, greaterThan: selection - 1) - 1
            if index < 0 { index = rows.count - 1; wrapped = true }
        }
        if mode != .tree { setMode(.tree) }
        selectOutlineRow(rows[index])
        let first = list[index].diagnostic
        var text = "diagnostic \(index + 1) of \(rows.count): \(first.severity) \(first.code)"
        if wrapped { text += forward ? " (wrapped to the first)" : " (wrapped to the last)" }
        status = StatusMessage(UIText.guardDisplay(text), isError: first.severity == .error)
    }

    /// The selected row's bytes in its own layer (decoded JSON, DER, signature or token characters).
    var outlineRowBytes: ArraySlice<UInt8>? {
        guard let row = outlineRow else { return nil }
        let bytes = layered.document.layer(row.node.layer).bytes
        let range = row.range.clamped(to: 0..<bytes.count)
        return bytes.baseSlice(range)
    }

    /// `y` on an outline: the selected row's bytes in its layer as hex.
    mutating func copyOutlineRow() -> Effect? {
        guard let bytes = outlineRowBytes else { return nil }
        let count = min(bytes.count, AppState.clipboardByteLimit)
        return .copyToClipboard(text: Hex.string(bytes.prefix(count), .lower), byteCount: count, totalBytes: bytes.count)
    }

    /// `layer-<layer>-node-<index>-<offset>.<der|json|txt|bin>` for the selected row.
    var outlineWritePath: String {
        guard let row = outlineRow else { return "node.bin" }
        let ext: String
        switch layered.document.layer(row.node.layer).content {
        case .asn1: ext = "der"
        case .json: ext = "json"
        case .token: ext = "txt"
        case .raw: ext = "bin"
        }
        return "layer-\(row.node.layer.index)-node-\(row.node.index)-\(row.range.lowerBound).\(ext)"
    }

    /// The file offset under the byte cursor when the byte pane shows the file's own bytes (a
    /// token's characters, a JSON body): the tamper lab edits only those.
    var outlineFileCursor: Int? {
        guard var layer = shownLayer else { return nil }
        var offset = outlineView.cursor
        while let parent = layered.document.layer(layer).parent {
            guard case .segments? = layered.document.layer(layer).map, let map = layered.document.layer(layer).map else { return nil }
            offset = map.parentOffset(offset)
            layer = parent
        }
        return offset
    }

    /// After a tamper-lab edit of a derived layer (decoded JSON, signature, certificate DER): the
    /// byte cursor back on `offset` of that layer, the row holding it selected.
    mutating func restoreOutlineCursor(layer: LayerID, offset: Int, tokenText: Bool) {
        if tokenText {
            outlineView.showTokenText = true
            outlineView.textLayer = layer
            setOutlineCursor(offset)
        } else if let row = outline.deepestRow(in: layer, containing: offset) {
            outlineView.showTokenText = false
            selectOutlineRow(row)
            outlineView.cursor = offset
        }
    }

    /// After a tamper-lab edit rebuilt the state: the innermost row at the edited file offset.
    mutating func selectOutlineAfterEdit(fileOffset: Int, tokenText: Bool) {
        guard let (row, _) = outline.innermost(from: .file, offset: fileOffset) else { return }
        selectOutlineRow(row)
        outlineView.showTokenText = tokenText
        if tokenText || outline.row(row).node.layer == .file {
            outlineView.textLayer = tokenText ? .file : nil
            outlineView.cursor = fileOffset
        }
    }
}
