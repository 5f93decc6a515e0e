import ASN1Lenient

/// The update function: applies one key (or mouse / resize event) to the state. Pure: it performs
/// no I/O; anything the outside world must do comes back as an `Effect`.
@discardableResult
public func reduce(_ state: inout AppState, _ event: KeyEvent) -> Effect? {
    if case .resize(let size) = event {
        state.screen = size
        state.ensureSelectionVisible()
        state.ensureTableVisible()
        return nil
    }
    if !state.mouse {
        switch event {
        case .mouseClick, .wheelUp, .wheelDown: return nil
        default: break
        }
    }
    state.status = nil
    if state.prompt != nil { return state.handlePrompt(event) }
    if state.helpVisible {
        guard let binding = Keymap.binding(for: event, in: .help) else {
            if case .wheelUp = event { state.helpScroll = max(0, state.helpScroll - 3) }
            if case .wheelDown = event { state.helpScroll += 3; state.clampHelpScroll() }
            return nil
        }
        switch binding.action {
        case .scrollUp: state.helpScroll = max(0, state.helpScroll - 1)
        case .scrollDown: state.helpScroll += 1; state.clampHelpScroll()
        default: state.helpVisible = false
        }
        return nil
    }
    guard let binding = Keymap.binding(for: event, in: state.activeContext) else { return nil }
    if state.tree.count == 0 && ![.quit, .escape, .help].contains(binding.action) {
        state.status = StatusMessage("the input holds no ASN.1 nodes", isError: true)
        return nil
    }
    return state.perform(binding.action, event: event)
}

extension AppState {
    /// The keymap context for the current mode and focus.
    public var activeContext: KeyContext {
        if prompt != nil { return .prompt }
        if helpVisible { return .help }
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

    var layout: Layout { Layout(size: screen, state: self) }
    var treePage: Int { max(1, (layout.tree?.height ?? 1) - 1) }

    mutating func perform(_ action: Action, event: KeyEvent) -> Effect? {
        let n = tree.count
        switch action {
        // Tree
        case .moveUp:
            if let p = previousVisible(selection) { select(p, expand: false) }
        case .moveDown:
            if let next = nextVisible(selection) { select(next, expand: false) }
        case .collapseOrParent:
            if isOpen(selection) {
                expanded[selection] = false
                ensureSelectionVisible()
            } else if let parent = tree.parent(of: selection) {
                select(parent, expand: false)
            }
        case .expandOrChild:
            guard hasChildren(selection) else { status = StatusMessage("no children"); break }
            if expanded[selection] { select(selection + 1, expand: false) } else {
                expanded[selection] = true
                ensureSelectionVisible()
            }
        case .toggle:
            guard hasChildren(selection) else { break }
            expanded[selection].toggle()
            ensureSelectionVisible()
        case .expandSubtree:
            expanded.fill(selection..<Int(tree.nodes[selection].subtreeEnd), true)
            ensureSelectionVisible()
        case .expandAll:
            expanded.fill(0..<n, true)
            ensureSelectionVisible()
        case .collapseAll:
            expanded.fill(0..<n, false)
            select(visibleRepresentative(selection), expand: false)
        case .pageUp:
            let page = treePage
            treeTop = backward(treeTop, page)
            select(backward(selection, page), expand: false)
        case .pageDown:
            let page = treePage
            let target = forward(selection, page)
            treeTop = forward(treeTop, page)
            if treeTop > target { treeTop = target }
            if nextVisible(target) == nil { treeTop = backward(target, max(0, (layout.tree?.height ?? 1) - 1)) }
            select(target, expand: false)
        case .first:
            treeTop = 0
            select(0, expand: false)
        case .last:
            if let last = lastVisible { select(last, expand: false) }
        case .jumpToPurchase:
            guard let receipt else { status = StatusMessage("not a receipt: there is no purchase table", isError: true); break }
            guard let index = receipt.purchaseIndex(containing: selection) else {
                status = StatusMessage("this node is not inside an in-app purchase", isError: true)
                break
            }
            mode = .purchases
            focus = .table
            tableRow = tableOrder.firstIndex(of: index) ?? 0
            ensureTableVisible()
            status = StatusMessage("in-app purchase #\(receipt.purchases[index].number)")
        // Hex
        case .hexLeft: moveHexCursor(to: hexCursor - 1)
        case .hexRight: moveHexCursor(to: hexCursor + 1)
        case .hexUp: moveHexCursor(to: hexCursor - layout.bytesPerRow)
        case .hexDown: moveHexCursor(to: hexCursor + layout.bytesPerRow)
        case .hexPageUp:
            let l = layout
            moveHexCursor(to: hexCursor - l.bytesPerRow * max(1, (l.hex?.height ?? 1) - 1))
        case .hexPageDown:
            let l = layout
            moveHexCursor(to: hexCursor + l.bytesPerRow * max(1, (l.hex?.height ?? 1) - 1))
        case .hexStart: moveHexCursor(to: 0)
        case .hexEnd: moveHexCursor(to: tree.bytes.count - 1)
        // Detail, summary
        case .scrollUp, .scrollDown, .scrollPageUp, .scrollPageDown:
            let height = mode == .summary ? (layout.main?.height ?? 2) : (layout.detail?.height ?? 2)
            let page: Int
            switch action {
            case .scrollUp: page = -1
            case .scrollDown: page = 1
            case .scrollPageUp: page = -max(1, height - 1)
            default: page = max(1, height - 1)
            }
            scroll(by: page)
        // Table
        case .tableUp: moveTableRow(to: tableRow - 1)
        case .tableDown: moveTableRow(to: tableRow + 1)
        case .tablePageUp: moveTableRow(to: tableRow - tablePage)
        case .tablePageDown: moveTableRow(to: tableRow + tablePage)
        case .tableFirst: moveTableRow(to: 0)
        case .tableLast: moveTableRow(to: tableOrder.count - 1)
        case .tableOpen:
            guard let receipt, tableOrder.indices.contains(tableRow) else { break }
            let row = receipt.purchases[tableOrder[tableRow]]
            mode = .tree
            focus = .tree
            select(row.node, expand: true)
            status = StatusMessage("in-app purchase #\(row.number) in the tree (p goes back)")
        case .sortNext:
            let all = PurchaseRow.Column.allCases
            tableSort = all[(all.firstIndex(of: tableSort)! + 1) % all.count]
            sortTable()
            ensureTableVisible()
            status = StatusMessage("sorted by \(tableSort.title)\(tableSortDescending ? ", descending" : "")")
        case .sortReverse:
            tableSortDescending.toggle()
            sortTable()
            ensureTableVisible()
            status = StatusMessage("sorted by \(tableSort.title)\(tableSortDescending ? ", descending" : "")")
        // Global
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
            jumpToHit(forward: action == .nextHit)
        case .goToOffset:
            prompt = Prompt(kind: .goToOffset)
        case .nextDiagnostic, .previousDiagnostic:
            jumpToDiagnostic(forward: action == .nextDiagnostic)
        case .writeNode:
            guard selection >= 0 else { break }
            prompt = Prompt(kind: .writeFile, text: defaultWritePath)
        case .toggleOffsetBase:
            offsetBase = offsetBase == .hex ? .decimal : .hex
            ensureSelectionVisible()
        case .toggleHexPane:
            hexVisible.toggle()
            if !hexVisible && focus == .hex { focus = .tree }
            ensureSelectionVisible()
            status = StatusMessage(hexVisible ? "hex pane shown" : "hex pane hidden (H shows it)")
        case .cycleView:
            guard receipt != nil else { status = StatusMessage("not a receipt: only the tree view", isError: true); break }
            let all = ViewMode.allCases
            setMode(all[(all.firstIndex(of: mode)! + 1) % all.count])
        case .showTree: setMode(.tree)
        case .showSummary, .showPurchases:
            guard receipt != nil else { status = StatusMessage("not a receipt: only the tree view", isError: true); break }
            setMode(action == .showSummary ? .summary : .purchases)
        case .help:
            helpVisible = true
            helpScroll = 0
        case .quit:
            return .quit
        case .escape:
            if mode != .tree { setMode(.tree) } else { return .quit }
        // Mouse
        case .click:
            if case .mouseClick(let x, let y) = event { click(x: x, y: y) }
        case .wheelUp, .wheelDown:
            switch event {
            case .wheelUp(let x, let y), .wheelDown(let x, let y): wheel(x: x, y: y, delta: action == .wheelUp ? -3 : 3)
            default: break
            }
        case .promptAccept, .promptCancel, .promptErase, .resize:
            break
        }
        return nil
    }

    /// `node-<index>-<offset>.der`
    public var defaultWritePath: String {
        selection >= 0 ? "node-\(selection)-\(tree.nodes[selection].offset).der" : "node.der"
    }

    mutating func setMode(_ newMode: ViewMode) {
        mode = newMode
        switch newMode {
        case .tree: if focus == .table { focus = .tree }
        case .purchases: focus = .table; ensureTableVisible()
        case .summary: summaryScroll = 0
        }
        ensureSelectionVisible()
    }

    mutating func cycleFocus(forward: Bool) {
        guard mode == .tree else { return }
        var order: [Focus] = [.tree]
        if layout.hex != nil { order.append(.hex) }
        order.append(.detail)
        let current = order.firstIndex(of: focus) ?? 0
        focus = order[(current + (forward ? 1 : order.count - 1)) % order.count]
        if focus == .hex, selection >= 0 {
            let node = tree.nodes[selection]
            if !node.byteRange.contains(hexCursor) { hexCursor = Int(node.offset) }
        }
        ensureSelectionVisible()
    }

    mutating func moveHexCursor(to offset: Int) {
        guard !tree.bytes.isEmpty else { return }
        hexCursor = max(0, min(tree.bytes.count - 1, offset))
        if let node = TreeFacts.deepestNode(tree.nodes, containing: hexCursor) {
            select(node, expand: true, moveHexCursor: false)
        } else {
            ensureSelectionVisible()
        }
    }

    var tablePage: Int { max(1, (layout.main?.height ?? 3) - 2) }

    mutating func moveTableRow(to row: Int) {
        guard !tableOrder.isEmpty else { return }
        tableRow = max(0, min(tableOrder.count - 1, row))
        ensureTableVisible()
    }

    /// Keeps the selected table row inside the table (which has one header row).
    mutating func ensureTableVisible() {
        let main = Layout(size: screen, mode: .purchases, hexVisible: hexVisible, byteCount: tree.bytes.count,
                          base: offsetBase).main
        let rows = max(1, (main?.height ?? 2) - 1)
        tableRow = max(0, min(tableRow, max(0, tableOrder.count - 1)))
        if tableRow < tableTop { tableTop = tableRow } else if tableRow >= tableTop + rows { tableTop = tableRow - rows + 1 }
        tableTop = max(0, min(tableTop, max(0, tableOrder.count - rows)))
        if tableRow < tableTop { tableTop = tableRow }
    }

    mutating func scroll(by delta: Int) {
        let l = layout
        switch mode {
        case .summary:
            let lines = SummaryView.wrapped(self, width: (l.main?.width ?? 2) - 1).count
            let height = l.main?.height ?? 1
            summaryScroll = max(0, min(summaryScroll + delta, max(0, lines - height)))
        default:
            guard let detail = l.detail else { return }
            let lines = DetailPane.lines(self, width: detail.width).count
            detailScroll = max(0, min(detailScroll + delta, max(0, lines - detail.height)))
        }
    }

    mutating func clampHelpScroll() {
        let total = Keymap.helpLines(ascii: ascii).count
        let visible = max(1, HelpOverlay.frame(for: screen, lineCount: total).height - 2)
        helpScroll = max(0, min(helpScroll, max(0, total - visible)))
    }

    mutating func jumpToHit(forward: Bool) {
        let hits = search.hits
        let next: Int
        if forward {
            let i = firstIndex(in: hits, greaterThan: selection)
            next = i < hits.count ? i : 0
        } else {
            let i = firstIndex(in: hits, greaterThan: selection - 1) - 1
            next = i >= 0 ? i : hits.count - 1
        }
        search.current = next
        if mode != .tree { setMode(.tree) }
        select(hits[next], expand: true)
        status = StatusMessage("match \(next + 1) of \(hits.count) for \"\(UIText.escape(search.query))\"")
    }

    mutating func jumpToDiagnostic(forward: Bool) {
        let list = facts.diagnosticNodes
        guard !list.isEmpty else { status = StatusMessage("no diagnostics: nothing to jump to"); return }
        var wrapped = false
        var index: Int
        if forward {
            index = firstIndex(in: list, greaterThan: selection)
            if index >= list.count { index = 0; wrapped = true }
        } else {
            index = firstIndex(in: list, greaterThan: selection - 1) - 1
            if index < 0 { index = list.count - 1; wrapped = true }
        }
        if mode != .tree { setMode(.tree) }
        select(list[index], expand: true)
        let diagnostics = facts.diagnosticsByNode[list[index]] ?? []
        let first = diagnostics.first.map { tree.diagnostics[$0] }
        var text = "diagnostic \(index + 1) of \(list.count)"
        if let first { text += ": \(first.severity) \(first.code)" }
        if wrapped { text += forward ? " (wrapped to the first)" : " (wrapped to the last)" }
        status = StatusMessage(UIText.guardDisplay(text), isError: first?.severity == .error)
    }

    /// Index of the first element of the ascending array greater than `value`.
    func firstIndex(in sorted: [Int], greaterThan value: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    mutating func handlePrompt(_ event: KeyEvent) -> Effect? {
        guard var current = prompt else { return nil }
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
        }
        return nil
    }

    mutating func accept(_ prompt: Prompt) -> Effect? {
        switch prompt.kind {
        case .search:
            search.query = prompt.text
            search.hits = Search.run(prompt.text, in: self)
            search.current = nil
            if search.hits.isEmpty {
                status = StatusMessage(prompt.text.isEmpty ? "empty search" : "no match for \"\(UIText.escape(prompt.text))\"",
                                       isError: true)
            } else {
                jumpToHit(forward: true)
            }
        case .goToOffset:
            guard let offset = AppState.parseOffset(prompt.text) else {
                status = StatusMessage("not an offset: \"\(UIText.escape(prompt.text))\" (use decimal or 0x hex)", isError: true)
                break
            }
            guard offset < tree.bytes.count else {
                status = StatusMessage("offset \(offset) is past the end (\(tree.bytes.count) bytes)", isError: true)
                break
            }
            guard let node = TreeFacts.deepestNode(tree.nodes, containing: offset) else {
                status = StatusMessage("no node contains offset \(offset)", isError: true)
                break
            }
            if mode != .tree { setMode(.tree) }
            select(node, expand: true, moveHexCursor: false)
            hexCursor = offset
            ensureSelectionVisible()
            status = StatusMessage("offset 0x\(String(offset, radix: 16, uppercase: true)) (\(offset)) is in node \(node)")
        case .writeFile:
            guard selection >= 0 else { return nil }
            let typed = prompt.text.trimmingSpaces
            let path = typed.isEmpty ? defaultWritePath : typed
            let node = tree.nodes[selection]
            status = StatusMessage("writing \(node.totalLength) bytes to \(UIText.escape(path))…")
            return .writeFile(path: path, bytes: Array(tree.bytes[node.byteRange]))
        }
        return nil
    }

    /// Decimal, or hexadecimal with a 0x prefix.
    public static func parseOffset(_ text: String) -> Int? {
        let t = text.trimmingSpaces.lowercased()
        if t.hasPrefix("0x") { return Int(t.dropFirst(2), radix: 16).flatMap { $0 >= 0 ? $0 : nil } }
        return Int(t).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Reports the outcome of an effect (the adapter calls this after performing it).
    public mutating func effectFinished(_ effect: Effect, error: String? = nil) {
        switch effect {
        case .writeFile(let path, let bytes):
            if let error {
                status = StatusMessage("could not write \(UIText.escape(path)): \(UIText.guardDisplay(error))", isError: true)
            } else {
                status = StatusMessage("wrote \(bytes.count) bytes to \(UIText.escape(path))")
            }
        case .quit:
            break
        }
    }

    mutating func click(x: Int, y: Int) {
        let l = layout
        if y == 0, let tab = HeaderBar.tab(at: x, state: self) {
            if tab == .tree { setMode(.tree) } else if receipt != nil { setMode(tab) }
            return
        }
        if let r = l.tree, r.contains(x: x, y: y) {
            focus = .tree
            let row = y - r.y
            var node = treeTop
            var steps = 0
            while steps < row, let next = nextVisible(node) { node = next; steps += 1 }
            guard steps == row else { return }
            let unit = TreePane.indentUnit(rows: visibleRows(count: r.height), tree: tree, width: r.width)
            let glyphX = r.x + TreePane.glyphColumn(depth: Int(tree.nodes[node].depth), unit: unit, width: r.width)
            if x == glyphX && hasChildren(node) { expanded[node].toggle() }
            select(node, expand: false)
            return
        }
        if let r = l.hex, r.contains(x: x, y: y) {
            guard let offset = HexPane.offset(atColumn: x - r.x, row: y - r.y, state: self, layout: l) else { return }
            focus = .hex
            moveHexCursor(to: offset)
            return
        }
        if let r = l.detail, r.contains(x: x, y: y) {
            focus = .detail
            return
        }
        if mode == .purchases, let r = l.main, r.contains(x: x, y: y), y > r.y {
            moveTableRow(to: tableTop + (y - r.y - 1))
        }
    }

    mutating func wheel(x: Int, y: Int, delta: Int) {
        let l = layout
        if let r = l.tree, r.contains(x: x, y: y) {
            treeTop = delta < 0 ? backward(treeTop, -delta) : forward(treeTop, delta)
            // Never scroll past the point where the last row sits at the bottom.
            if let last = lastVisible, treeTop > backward(last, r.height - 1) { treeTop = backward(last, r.height - 1) }
        } else if let r = l.hex, r.contains(x: x, y: y) {
            let totalRows = max(1, (tree.bytes.count + l.bytesPerRow - 1) / l.bytesPerRow)
            hexTopRow = max(0, min(hexTopRow + delta, max(0, totalRows - r.height)))
        } else if let r = l.detail, r.contains(x: x, y: y) {
            scroll(by: delta)
        } else if mode == .purchases {
            let rows = max(1, (l.main?.height ?? 2) - 1)
            tableTop = max(0, min(tableTop + delta, max(0, tableOrder.count - rows)))
            if tableRow < tableTop { tableRow = tableTop } else if tableRow >= tableTop + rows { tableRow = tableTop + rows - 1 }
        } else if mode == .summary {
            scroll(by: delta)
        }
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
