/// The tree pane: row moves over the visible rows, expand / collapse, pages, and the jumps that
/// land on a node (search hits, diagnostics, the purchase table).
extension AppState {
    mutating func performTree(_ action: Action) -> Bool {
        let n = tree.count
        switch action {
        case .moveUp:
            if let p = previousVisible(treeView.selection) { select(p, expand: false) }
        case .moveDown:
            if let next = nextVisible(treeView.selection) { select(next, expand: false) }
        case .collapseOrParent:
            if isOpen(treeView.selection) {
                treeView.expanded[treeView.selection] = false
                ensureSelectionVisible()
            } else if let parent = tree.parent(of: treeView.selection) {
                select(parent, expand: false)
            }
        case .expandOrChild:
            guard hasChildren(treeView.selection) else { status = StatusMessage("no children"); break }
            if treeView.expanded[treeView.selection] { select(treeView.selection + 1, expand: false) } else {
                treeView.expanded[treeView.selection] = true
                ensureSelectionVisible()
            }
        case .toggle:
            guard hasChildren(treeView.selection) else { break }
            treeView.expanded[treeView.selection].toggle()
            ensureSelectionVisible()
        case .expandSubtree:
            treeView.expanded.fill(treeView.selection..<Int(tree.nodes[treeView.selection].subtreeEnd), true)
            ensureSelectionVisible()
        case .expandAll:
            treeView.expanded.fill(0..<n, true)
            ensureSelectionVisible()
        case .collapseAll:
            treeView.expanded.fill(0..<n, false)
            select(visibleRepresentative(treeView.selection), expand: false)
        case .pageUp: moveTreeRows(-treePage)
        case .pageDown: moveTreeRows(treePage)
        case .first:
            treeView.top = 0
            select(0, expand: false)
        case .last:
            if let last = lastVisible { select(last, expand: false) }
        case .jumpToPurchase:
            guard let receipt else { status = StatusMessage("not a receipt: there is no purchase table", isError: true); break }
            guard let index = receipt.purchaseIndex(containing: treeView.selection) else {
                status = StatusMessage("this node is not inside an in-app purchase", isError: true)
                break
            }
            mode = .purchases
            focus = .table
            table.row = tableRow(showing: index)
            ensureTableVisible()
            status = StatusMessage("in-app purchase #\(receipt.purchases[index].number)")
        default: return false
        }
        return true
    }

    /// Rows one page moves (one row of overlap).
    var treePage: Int { max(1, (layout.tree?.height ?? 1) - 1) }

    /// Moves the selection (and the scroll anchor with it) `rows` visible rows down (negative: up).
    mutating func moveTreeRows(_ rows: Int) {
        if rows < 0 {
            treeView.top = backward(treeView.top, -rows)
            select(backward(treeView.selection, -rows), expand: false)
        } else {
            let target = forward(treeView.selection, rows)
            treeView.top = forward(treeView.top, rows)
            if treeView.top > target { treeView.top = target }
            if nextVisible(target) == nil { treeView.top = backward(target, max(0, (layout.tree?.height ?? 1) - 1)) }
            select(target, expand: false)
        }
    }

    mutating func jumpToHit(forward: Bool) {
        if layered != nil { return jumpToOutlineHit(forward: forward) }
        let (next, wrapped) = hitIndex(from: treeView.selection, forward: forward)
        search.current = next
        if mode != .tree { setMode(.tree) }
        select(search.hits[next], expand: true)
        reportHit(next, wrapped: wrapped, forward: forward)
    }

    mutating func jumpToDiagnostic(forward: Bool) {
        if layered != nil { return jumpToOutlineDiagnostic(forward: forward) }
        let list = facts.diagnosticNodes
        guard !list.isEmpty else { status = StatusMessage("no diagnostics: nothing to jump to"); return }
        var wrapped = false
        var index: Int
        if forward {
            index = firstIndex(in: list, greaterThan: treeView.selection)
            if index >= list.count { index = 0; wrapped = true }
        } else {
            index = firstIndex(in: list, greaterThan: treeView.selection - 1) - 1
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
}
