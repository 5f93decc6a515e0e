import ASN1Lenient
import DocumentCore
import DocumentTour

/// The tamper lab's keys in the byte pane: e replaces the byte under the cursor, i inserts a byte
/// before it, D deletes it, u undoes, w writes the edited bytes to a new file. In a hex pane the
/// new byte is two hex digits; in a text pane (JSON, token characters) it is the character itself.
/// Each edit re-opens the document from the edited bytes with the options it was opened with
/// (parse, locate, decode, verify every token and certificate): that slow part is an effect
/// (`LabJob`), and the views are rebuilt when its result comes back as a message.
extension AppState {
    mutating func performLab(_ action: Action) -> TeachingResult {
        switch action {
        case .labEdit, .labInsert, .labDelete:
            return .done(performOutlineLab(action))
        case .labUndo:
            guard let lab = teaching.lab, !lab.history.isEmpty else { status = StatusMessage("nothing to undo"); break }
            // One key press may have made several byte edits (a decoded byte re-encoded as characters).
            let count = min(teaching.labEdits.popLast() ?? 1, lab.history.count)
            return .done(requestLab([.undo(count: count)], editCount: 0, cursor: hexView.cursor))
        case .labWrite:
            prompt = Prompt(kind: .writeEdited, text: defaultEditedPath)
        default:
            return .notMine
        }
        return .done(nil)
    }

    /// e / i / d on a layer outline. `e` works on any layer the file's bytes carry (a decoded byte
    /// is re-encoded into the characters that hold it); `i` and `d` change the length, so they work
    /// on the file's own characters only. A refusal always says why.
    mutating func performOutlineLab(_ action: Action) -> Effect? {
        guard let id = shownLayer else {
            status = StatusMessage("no byte pane to edit: select a row first", isError: true)
            return nil
        }
        let text = LayerByteGeometry.isText(layered.document.layer(id))
        if action == .labEdit {
            if case .failure(let refusal) = LabLayerEdit.fileEdits(layered.document, layer: id, offset: outlineView.cursor, value: 0) {
                status = StatusMessage("the tamper lab cannot edit here: " + refusal.reason, isError: true)
                return nil
            }
            prompt = Prompt(kind: text ? .editCharacter : .editByte)
            return nil
        }
        guard let offset = outlineFileCursor else {
            let verb = action == .labInsert ? "i inserts" : "D deletes"
            status = StatusMessage("\(verb) only in the file's own characters (b shows them): here a length change would re-encode the rest of the layer; e replaces this byte", isError: true)
            return nil
        }
        hexView.cursor = offset
        if action == .labInsert {
            prompt = Prompt(kind: text ? .insertCharacter : .insertByte)
            return nil
        }
        return requestLab([.delete(offset: offset)], editCount: 1, cursor: offset)
    }

    /// Sends `steps` as a lab job (`Effect.reopenLab`): the edited bytes are re-opened outside
    /// the reducer, and the views change when `Message.labReopened` brings the result.
    mutating func requestLab(_ steps: [LabJob.Step], editCount: Int, cursor: Int,
                             keep: (layer: LayerID, offset: Int, role: LayerRole)? = nil) -> Effect? {
        guard teaching.pending == nil else {
            status = StatusMessage("still re-checking the last edit: try again when it is shown", isError: true)
            return nil
        }
        guard ensureLab(), let lab = teaching.lab else { return nil }
        let id = teaching.nextJob
        teaching.nextJob += 1
        teaching.pending = PendingLab(id: id, previous: lab.document, editCount: editCount, keep: keep, cursor: cursor)
        status = workInFlight
        return .reopenLab(LabJob(id: id, session: lab, steps: steps))
    }

    /// A lab job's result: the re-opened document replaces the views (a result for an older
    /// request is dropped).
    mutating func labReopened(_ result: LabResult) {
        guard let pending = teaching.pending, pending.id == result.id else { return }
        teaching.pending = nil
        teaching.lab = result.session
        if pending.editCount > 0, result.applied > 0 { teaching.labEdits.append(result.applied) }
        hexView.cursor = pending.cursor
        labRebuild(previous: pending.previous, keep: pending.keep)
    }

    /// `<input>.edited`.
    var defaultEditedPath: String { document.source.name + ".edited" }

    mutating func ensureLab() -> Bool {
        if teaching.lab == nil {
            teaching.lab = LabSession(document: document)
        }
        return teaching.lab != nil
    }

    /// The byte a lab prompt asks for: two hex digits, or in a text pane one printable ASCII
    /// character typed as itself. Nil (with the status saying why) otherwise.
    mutating func labValue(_ prompt: Prompt) -> UInt8? {
        if prompt.kind == .editCharacter || prompt.kind == .insertCharacter {
            let scalars = prompt.text.unicodeScalars
            guard scalars.count == 1, let scalar = scalars.first, scalar.value >= 0x20, scalar.value < 0x7F else {
                status = StatusMessage("not one character: \"\(UIText.escape(prompt.text))\" (type one printable ASCII character)", isError: true)
                return nil
            }
            return UInt8(scalar.value)
        }
        guard prompt.text.count == 2, let value = UInt8(prompt.text, radix: 16) else {
            status = StatusMessage("not a byte: \"\(UIText.escape(prompt.text))\" (type two hex digits)", isError: true)
            return nil
        }
        return value
    }

    /// The lab's prompts: a byte or a character for e / i, a path for w.
    mutating func acceptLab(_ prompt: Prompt) -> Effect? {
        switch prompt.kind {
        case .editByte, .insertByte, .editCharacter, .insertCharacter:
            guard let value = labValue(prompt) else { return nil }
            let replace = prompt.kind == .editByte || prompt.kind == .editCharacter
            if replace, let id = shownLayer {
                return applyOutlineEdit(layered.document, layer: id, value: value)
            }
            let step: LabJob.Step = replace ? .replace(offset: hexView.cursor, byte: value) : .insert(offset: hexView.cursor, byte: value)
            return requestLab([step], editCount: 1, cursor: hexView.cursor)
        case .writeEdited:
            let path = prompt.text.trimmingSpaces.isEmpty ? defaultEditedPath : prompt.text.trimmingSpaces
            if case let name = document.source.name, path == name || path.hasSuffix("/" + name) {
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

    /// Byte `outlineView.cursor` of `layer` becomes `value`: the file characters that carry it are
    /// edited (one undo step), and the panes come back to the same layer and offset.
    mutating func applyOutlineEdit(_ document: Document, layer: LayerID, value: UInt8) -> Effect? {
        let offset = outlineView.cursor
        switch LabLayerEdit.fileEdits(document, layer: layer, offset: offset, value: value) {
        case .failure(let refusal):
            status = StatusMessage("the tamper lab cannot edit here: " + refusal.reason, isError: true)
        case .success(let edits) where edits.isEmpty:
            status = StatusMessage("no change: that byte already has this value")
        case .success(let edits):
            let steps = edits.sorted { $0.key < $1.key }.map { LabJob.Step.replace(offset: $0.key, byte: $0.value) }
            return requestLab(steps, editCount: edits.count, cursor: edits.keys.min() ?? hexView.cursor,
                              keep: (layer, offset, document.layer(layer).role))
        }
        return nil
    }

    /// Rebuilds every view from the lab's re-opened document, keeping the panes where they were
    /// (on an outline: the same layer and offset when the edit kept that layer), and says what the
    /// edit changed: receipt steps and diagnostics, and every token's verification steps.
    mutating func labRebuild(previous: Document? = nil, keep: (layer: LayerID, offset: Int, role: LayerRole)? = nil) {
        guard let lab = teaching.lab else { return }
        var next = AppState(document: lab.document, ascii: preferences.ascii, mouse: preferences.mouse, screen: screen)
        next.preferences = preferences
        next.teaching = teaching
        next.teaching.tour = nil  // the steps belong to the old bytes; t starts a new tour
        next.documents = documents  // the other open documents stay open
        next.diffProvider = diffProvider
        next.diffRow = diffRow
        next.diffJobs = diffJobs
        next.focus = focus
        // Keys pressed while the re-open ran stay in effect: the view chosen (when the edited
        // document still has it), an open prompt, the help overlay.
        if mode != .tree, next.additions != nil || mode == .summary { next.mode = mode }
        else if focus == .table { next.focus = .tree }
        next.prompt = prompt
        next.help = help
        next.hexView = hexView
        next.hexView.cursor = min(hexView.cursor, max(0, lab.bytes.count - 1))
        next.selectOutlineAfterEdit(fileOffset: next.hexView.cursor, tokenText: outlineView.showTokenText)
        let document = next.layered.document
        if let keep, document.layers.indices.contains(keep.layer.index),
           document.layer(keep.layer).role == keep.role, document.layer(keep.layer).bytes.indices.contains(keep.offset) {
            next.restoreOutlineCursor(layer: keep.layer, offset: keep.offset, tokenText: outlineView.showTokenText)
        }
        // What the whole edit group changed (the format's checks included): typed lines, never matched as text.
        let lines = previous.map { LabChange.describe(before: $0, after: lab.document) } ?? lab.lastChange
        next.status = StatusMessage(LabChange.summary(lines), isError: lab.document.hasErrors || lines.contains(where: \.nowFails))
        self = next
    }

    /// Whether the lab changed the byte at `offset`.
    func labMarked(_ offset: Int) -> Bool {
        guard let lab = teaching.lab, offset < lab.marked.count else { return false }
        return lab.marked[offset]
    }

    /// Unsaved tamper-lab edits: the lab's bytes differ from the input and were not written since.
    public var hasUnsavedLabEdits: Bool {
        guard let lab = teaching.lab, lab.isEdited else { return false }
        return teaching.savedBytes != lab.bytes
    }
}
