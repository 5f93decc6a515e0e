import ASN1Lenient
import DocumentModel

/// The tamper lab's keys in the hex pane: e edits the byte under the cursor (two hex digits), i
/// inserts a byte before it, d deletes it, u undoes, w writes the edited bytes to a new file. Each
/// edit re-opens the document from the edited bytes and rebuilds the views from it.
extension AppState {
    mutating func performLab(_ action: Action) -> TeachingResult {
        if layered != nil, [.labEdit, .labInsert, .labDelete].contains(action) {
            // The lab edits the file's bytes: on an outline, those the byte pane shows when they are the file's.
            guard let offset = outlineFileCursor else {
                status = StatusMessage("the tamper lab edits the file's own bytes: b shows the token characters, which are", isError: true)
                return .done(nil)
            }
            hexView.cursor = offset
        }
        switch action {
        case .labEdit, .labInsert:
            guard teaching.document != nil else { status = StatusMessage("nothing to edit", isError: true); break }
            prompt = Prompt(kind: action == .labEdit ? .editByte : .insertByte)
        case .labDelete:
            guard ensureLab() else { break }
            teaching.lab?.delete(at: hexView.cursor)
            labRebuild()
        case .labUndo:
            guard teaching.lab?.undo() == true else { status = StatusMessage("nothing to undo"); break }
            labRebuild()
        case .labWrite:
            prompt = Prompt(kind: .writeEdited, text: defaultEditedPath)
        default:
            return .notMine
        }
        return .done(nil)
    }

    /// `<input>.edited`.
    var defaultEditedPath: String { (teaching.document?.source.name ?? "receipt") + ".edited" }

    mutating func ensureLab() -> Bool {
        if teaching.lab == nil, let document = teaching.document {
            teaching.lab = LabSession(document: document, options: teaching.options)
        }
        return teaching.lab != nil
    }

    /// The lab's prompts: two hex digits for e / i, a path for w.
    mutating func acceptLab(_ prompt: Prompt) -> Effect? {
        switch prompt.kind {
        case .editByte, .insertByte:
            guard prompt.text.count == 2, let value = UInt8(prompt.text, radix: 16) else {
                status = StatusMessage("not a byte: \"\(UIText.escape(prompt.text))\" (type two hex digits)", isError: true)
                return nil
            }
            guard ensureLab() else { return nil }
            if prompt.kind == .editByte { teaching.lab?.replace(at: hexView.cursor, with: value) } else { teaching.lab?.insert(value, at: hexView.cursor) }
            labRebuild()
        case .writeEdited:
            let path = prompt.text.trimmingSpaces.isEmpty ? defaultEditedPath : prompt.text.trimmingSpaces
            if let name = teaching.document?.source.name, path == name || path.hasSuffix("/" + name) {
                status = StatusMessage("\(UIText.escape(path)) is the input: the lab never writes over it; choose a new name", isError: true)
                return nil
            }
            let bytes = teaching.lab?.bytes ?? tree.bytes
            status = StatusMessage("writing \(bytes.count) bytes to \(UIText.escape(path))…")
            return .writeFile(path: path, bytes: bytes)
        default: break
        }
        return nil
    }

    /// Rebuilds every view from the lab's re-opened document, keeping the panes where they were,
    /// and says what the edit changed.
    mutating func labRebuild() {
        guard let lab = teaching.lab else { return }
        var next = AppState(document: lab.document, ascii: preferences.ascii, mouse: preferences.mouse, screen: screen)
        next.preferences = preferences
        next.teaching = teaching
        next.teaching.document = lab.document
        next.teaching.tour = nil  // the steps belong to the old bytes; t starts a new tour
        next.focus = focus
        next.hexView = hexView
        next.hexView.cursor = min(hexView.cursor, max(0, lab.bytes.count - 1))
        if let node = TreeFacts.deepestNode(next.tree.nodes, containing: next.hexView.cursor) {
            next.select(node, expand: true, moveHexCursor: false)
        }
        if next.layered != nil {
            next.selectOutlineAfterEdit(fileOffset: next.hexView.cursor, tokenText: outlineView.showTokenText)
        }
        next.status = StatusMessage(LabChange.summary(lab.lastChange), isError: lab.document.hasErrors)
        self = next
    }

    /// Whether the lab changed the byte at `offset`.
    func labMarked(_ offset: Int) -> Bool {
        guard let lab = teaching.lab, offset < lab.marked.count else { return false }
        return lab.marked[offset]
    }
}
