import ASN1Lenient
import ByteText

/// The update function: applies one message (a key, mouse or resize event, the terminal's
/// abilities, an effect's outcome) to the state. Pure: it performs no I/O; anything the outside world
/// must do comes back as an `Effect`, and its outcome comes back as `.effectFinished`.
@discardableResult
public func reduce(_ state: inout AppState, _ message: Message) -> Effect? {
    switch message {
    case .input(let event): return state.reduceInput(event)
    case .terminalReady(let colors, let unicode, let terminal, let clipboard):
        state.preferences.color = colors
        state.preferences.ascii = state.preferences.ascii || !unicode
        state.preferences.clipboard = clipboard
        if let terminal {
            state.status = StatusMessage("TERM=\(UIText.escape(terminal.wanted)) is not in this system's terminfo: drawing as \(terminal.used)")
        }
        return nil
    case .effectFinished(let effect, let error):
        state.effectFinished(effect, error: error)
        return nil
    case .labReopened(let result):
        state.labReopened(result)
        return nil
    case .documentsCompared(let result):
        state.documentsCompared(result)
        return nil
    }
}

/// `reduce(&state, .input(event))`.
@discardableResult
public func reduce(_ state: inout AppState, _ event: InputEvent) -> Effect? {
    reduce(&state, .input(event))
}

extension AppState {
    mutating func reduceInput(_ event: InputEvent) -> Effect? {
        if case .resize(let size) = event {
            screen = size
            showOutlineFromFirstRowIfSelectionFits()
            ensureOutlineVisible()
            ensureTableVisible()
            return nil
        }
        if !preferences.mouse {
            switch event {
            case .mouseClick, .wheelUp, .wheelDown: return nil
            default: break
            }
        }
        status = workInFlight
        if prompt != nil { return handlePrompt(event) }
        if help.visible { reduceHelp(event); return nil }
        if diffView != nil { reduceDiff(event); return nil }
        if timelineView != nil { reduceTimeline(event); return nil }
        guard let binding = Keymap.binding(for: event, in: activeContext) else {
            labKeyOutsideTheBytePane(event)
            return nil
        }
        if layered.outline.count == 0 && ![.quit, .escape, .help, .nextDocument, .previousDocument].contains(binding.action) {
            status = StatusMessage("the input holds no ASN.1 nodes", isError: true)
            return nil
        }
        return perform(binding.action, event: event)
    }

    /// What the header says while slow work the reducer asked for has not come back: it stays
    /// there across other keys until the result replaces it.
    var workInFlight: StatusMessage? {
        if teaching.pending != nil { return StatusMessage("re-checking the edited bytes…") }
        if diffJobs.pending != nil { return StatusMessage("comparing the two documents…") }
        return nil
    }

    /// `e` / `i` / `u` are the tamper lab's keys in the byte pane only: elsewhere they say where
    /// they work instead of doing nothing.
    mutating func labKeyOutsideTheBytePane(_ event: InputEvent) {
        guard case .character(let key) = event, ["e", "i", "u"].contains(key),
              [.tree, .detail, .summary, .purchases].contains(activeContext) else { return }
        let where_ = mode == .tree ? "Tab to it" : "1 shows the tree, then Tab to it"
        status = StatusMessage("\(key): the tamper lab edits in the byte pane (\(where_), then \(key))", isError: true)
    }

    /// The keymap context for the current mode and focus.
    public var activeContext: KeyContext {
        if prompt != nil { return .prompt }
        if help.visible { return .help }
        if diffView != nil { return .diff }
        if timelineView != nil { return .timeline }
        if tourHasKeys { return .tour }
        switch mode {
        case .summary: return .summary
        case .purchases: return .purchases
        case .tree:
            switch focus {
            case .hex: return .hex
            case .detail: return .detail
            default: return .tree
            }
        }
    }

    /// The stored viewport (see `relayout`): the reducer never lays out or draws.
    var layout: Layout { viewport }

    /// One action, handled by the context it belongs to.
    mutating func perform(_ action: Action, event: InputEvent) -> Effect? {
        if [.tree, .hex].contains(activeContext) || action == .toggleTokenText || action == .tableOpen, performOutline(action) { return nil }
        if action == .halfPageUp || action == .halfPageDown {
            moveHalfPage(down: action == .halfPageDown)
            return nil
        }
        if let outcome = performDocuments(action) { return outcome }
        if case .done(let effect) = performTeaching(action, event: event) { return effect }
        if let outcome = performOutlineGlobal(action) { return outcome }
        if performOutlineMouse(action, event: event) { return nil }
        if performScroll(action) || performTable(action)
            || performMouse(action, event: event) {
            return nil
        }
        return performGlobal(action)
    }

    /// Ctrl-D / Ctrl-U: half a page of whatever the active context scrolls.
    mutating func moveHalfPage(down: Bool) {
        let sign = down ? 1 : -1
        switch activeContext {
        case .detail, .summary: scroll(by: sign * max(1, textHeight / 2))
        case .purchases: moveTableRow(to: table.row + sign * max(1, tablePage / 2))
        default: break   // the tree and byte panes: `performOutline`
        }
    }

    mutating func performGlobal(_ action: Action) -> Effect? {
        switch action {
        case .focusNext, .focusPrevious:
            cycleFocus(forward: action == .focusNext)
        case .startSearch:
            prompt = Prompt(kind: .search)
        case .nextHit, .previousHit:
            guard !search.hits.isEmpty else {
                status = StatusMessage(search.query.isEmpty ? "no search yet: press / to search"
                                       : "no match for \"\(UIText.escape(search.query))\"", isError: true)
                break
            }
            jumpToOutlineHit(forward: action == .nextHit)
        case .goToOffset:
            prompt = Prompt(kind: .goToOffset)
        case .toggleHexPane:
            hexView.visible.toggle()
            if !hexView.visible && focus == .hex { focus = .tree }
            ensureOutlineVisible()
            status = StatusMessage(hexView.visible ? "hex pane shown" : "hex pane hidden (H shows it)")
        case .cycleView:
            guard additions != nil else { status = StatusMessage("not a receipt: only the tree view", isError: true); break }
            let all = ViewMode.allCases
            setMode(all[(all.firstIndex(of: mode)! + 1) % all.count])
        case .showTree: setMode(.tree)
        case .showSummary:
            setMode(.summary)
        case .showPurchases:
            guard additions != nil else { status = StatusMessage("not a receipt: only the tree view", isError: true); break }
            setMode(.purchases)
        case .help:
            help.visible = true
            help.scroll = 0
        case .quit:
            return requestQuit()
        case .escape:
            if mode == .purchases, !table.filter.isEmpty { applyTableFilter("") }
            else if mode != .tree { setMode(.tree) } else { return requestQuit() }
        default:
            break
        }
        return nil
    }

    /// The largest node `y` copies whole; terminals and tmux cap OSC 52 payloads (xterm and tmux
    /// accept far more, some terminals stop near 100 kB of base64), so bigger nodes are cut here and
    /// the status says so.
    public static let clipboardByteLimit = 16 * 1024

    /// `layer-<layer>-node-<index>-<offset>.<ext>`
    public var defaultWritePath: String { outlineWritePath }

    mutating func setMode(_ newMode: ViewMode) {
        mode = newMode
        switch newMode {
        case .tree: if focus == .table { focus = .tree }
        case .purchases: focus = .table; ensureTableVisible()
        case .summary: summaryView.scroll = 0
        }
        ensureOutlineVisible()
    }

    mutating func cycleFocus(forward: Bool) {
        guard mode == .tree else { return }
        var order: [Focus] = [.tree]
        if layout.hex != nil { order.append(.hex) }
        order.append(.detail)
        let current = order.firstIndex(of: focus) ?? 0
        focus = order[(current + (forward ? 1 : order.count - 1)) % order.count]
        ensureOutlineVisible()
    }


    /// The outcome of an effect the adapter performed.
    mutating func effectFinished(_ effect: Effect, error: String?) {
        switch effect {
        case .writeFile(let path, let bytes):
            if let error {
                status = StatusMessage("could not write \(UIText.escape(path)): \(UIText.guardDisplay(error))", isError: true)
            } else {
                status = StatusMessage("wrote \(bytes.count) bytes to \(UIText.escape(path))")
                if let lab = teaching.lab, lab.bytes == bytes { teaching.savedBytes = bytes }
            }
        case .copyToClipboard(_, let count, let total):
            if let error {
                status = StatusMessage("could not copy: \(UIText.guardDisplay(error))", isError: true)
            } else if count < total {
                status = StatusMessage("copied the first \(NumberText.grouped(count)) of \(NumberText.grouped(total)) bytes as hex (node too large; w writes it whole)")
            } else {
                status = StatusMessage("copied \(count) byte\(count == 1 ? "" : "s") as hex to the clipboard (\(preferences.clipboard.name))")
            }
        case .quit, .reopenLab, .compareDocuments:
            break
        }
    }
}
