/// The status-bar prompts: search, go to offset, write the node to a file.
extension AppState {
    mutating func handlePrompt(_ event: InputEvent) -> Effect? {
        guard var current = prompt else { return nil }
        if current.kind == .confirmQuit { return confirmQuit(event) }
        if let binding = Keymap.binding(for: event, in: .prompt) {
            switch binding.action {
            case .promptCancel:
                prompt = nil
            case .promptErase:
                if !current.text.isEmpty { current.text.removeLast() }
                prompt = current
            case .promptAccept:
                prompt = nil
                return accept(current)
            default: break
            }
            return nil
        }
        if case .character(let ch) = event, current.text.unicodeScalars.count < 256,
           ch.unicodeScalars.allSatisfy({ UIText.isCellSafe($0) }) {
            current.text.append(ch)
            prompt = current
            if (current.kind == .editByte || current.kind == .insertByte) && current.text.count == 2 {
                prompt = nil
                return accept(current)  // two hex digits are the whole answer
            }
            if current.kind == .editCharacter || current.kind == .insertCharacter {
                prompt = nil
                return accept(current)  // in a text pane the character typed is the answer
            }
        }
        return nil
    }

    mutating func accept(_ prompt: Prompt) -> Effect? {
        switch prompt.kind {
        case .search:
            search.query = prompt.text
            search.hits = outline.search(prompt.text, fileEntries: { additions?.searchEntries() ?? SearchEntries() })
            search.current = nil
            if search.hits.isEmpty {
                status = StatusMessage(prompt.text.isEmpty ? "empty search" : "no match for \"\(UIText.escape(prompt.text))\"",
                                       isError: true)
            } else {
                jumpToOutlineHit(forward: true)
            }
        case .goToOffset:
            guard let offset = AppState.parseOffset(prompt.text) else {
                status = StatusMessage("not an offset: \"\(UIText.escape(prompt.text))\" (use decimal or 0x hex)", isError: true)
                break
            }
            goToOutlineOffset(offset)
        case .writeFile:
            let typed = prompt.text.trimmingSpaces
            let path = typed.isEmpty ? defaultWritePath : typed
            guard let bytes = outlineRowBytes else { return nil }
            status = StatusMessage("writing \(bytes.count) bytes to \(UIText.escape(path))…")
            return .writeFile(path: path, bytes: Array(bytes))
        case .editByte, .insertByte, .editCharacter, .insertCharacter, .writeEdited:
            return acceptLab(prompt)
        case .filterPurchases:
            applyTableFilter(prompt.text.trimmingSpaces)
        case .findTransaction:
            findTimelineTransaction(prompt.text)
        case .confirmQuit:
            break
        }
        return nil
    }

    /// The quit question: y quits; n or Esc stays (and says how to keep the edits); any other
    /// key asks again.
    mutating func confirmQuit(_ event: InputEvent) -> Effect? {
        switch event {
        case .character("y"), .character("Y"):
            prompt = nil
            return .quit
        case .character("n"), .character("N"), .escape, .control("c"):
            prompt = nil
            status = StatusMessage("not quitting: w in the byte pane writes the edited bytes to a new file")
        default:
            status = StatusMessage("y quits and drops the tamper-lab edits; n stays", isError: true)
        }
        return nil
    }

    /// q / Esc: quit at once, or ask first while any open document has unsaved tamper-lab edits.
    mutating func requestQuit() -> Effect? {
        let unsaved = hasUnsavedLabEdits || documents.parked.contains { $0?.hasUnsavedLabEdits == true }
        guard unsaved else { return .quit }
        prompt = Prompt(kind: .confirmQuit)
        return nil
    }

    /// Decimal, or hexadecimal with a 0x prefix.
    public static func parseOffset(_ text: String) -> Int? {
        let t = text.trimmingSpaces.lowercased()
        if t.hasPrefix("0x") { return Int(t.dropFirst(2), radix: 16).flatMap { $0 >= 0 ? $0 : nil } }
        return Int(t).flatMap { $0 >= 0 ? $0 : nil }
    }

}

/// `n` / `N` and the first Enter of a search, on the tree and on an outline alike.
extension AppState {
    /// The hit `n` (forward) or `N` moves to from `selection` in the ascending `search.hits`, and
    /// whether it went round the end to get there.
    func hitIndex(from selection: Int, forward: Bool) -> (index: Int, wrapped: Bool) {
        let hits = search.hits
        if forward {
            let i = firstIndex(in: hits, greaterThan: selection)
            return i < hits.count ? (i, false) : (0, true)
        }
        let i = firstIndex(in: hits, greaterThan: selection - 1) - 1
        return i >= 0 ? (i, false) : (hits.count - 1, true)
    }

    /// "match 2 of 9 for "query"", saying when the jump wrapped (not with one hit: it is the only one).
    mutating func reportHit(_ index: Int, wrapped: Bool, forward: Bool) {
        var text = "match \(index + 1) of \(search.hits.count) for \"\(UIText.escape(search.query))\""
        if wrapped && search.hits.count > 1 { text += forward ? " (wrapped to the first)" : " (wrapped to the last)" }
        status = StatusMessage(text)
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
