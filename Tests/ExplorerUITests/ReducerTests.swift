import Testing
import ASN1Lenient
@testable import ExplorerUI

/// Every visible row from the top (not only the pane's), for exact assertions.
func allVisible(_ s: AppState) -> [Int] {
    var out: [Int] = []
    var current: Int? = s.tree.count > 0 ? 0 : nil
    while let node = current { out.append(node); current = s.nextVisible(node) }
    return out
}

@discardableResult
func press(_ s: inout AppState, _ events: KeyEvent...) -> Effect? {
    var last: Effect?
    for e in events { last = reduce(&s, e) }
    return last
}

func type(_ s: inout AppState, _ text: String) {
    for ch in text { reduce(&s, .character(ch)) }
}

/// Hand-built defects at known offsets: SEQUENCE { INTEGER 1, INTEGER 02 02 00 01 (not minimal:
/// error), BOOLEAN 01 01 01 (TRUE not as FF: not DER) }. Nodes 0 (offset 0), 1 (2), 2 (5), 3 (9).
let defectBytes: [UInt8] = [0x30, 0x0A, 0x02, 0x01, 0x01, 0x02, 0x02, 0x00, 0x01, 0x01, 0x01, 0x01]

func defects() -> AppState {
    AppState(tree: ASN1Parser.parse(defectBytes, options: ParseOptions(guessEncapsulation: false)), fileName: "defects.der")
}

/// A SET of 50 SEQUENCE { INTEGER, INTEGER }: node 0, then each SEQUENCE at 1 + 3i; all expanded.
func wide(_ count: Int = 50, size: Size = Size(width: 80, height: 24)) -> AppState {
    AppState(tree: ASN1Parser.parse(DER.wideSet(count: count), options: ParseOptions(guessEncapsulation: false)),
             fileName: "wide.der", screen: size)
}

@Suite struct TreeKeyTests {
    @Test func smallFixtureShape() {
        let s = Fixtures.small()
        #expect(s.tree.count == 9)
        #expect(s.tree.nodes.map { Int($0.offset) } == [0, 2, 5, 7, 9, 16, 19, 21, 27])
        #expect(allVisible(s) == [0, 1, 2, 8])
    }

    @Test(arguments: [KeyEvent.down, .character("j")])
    func moveDown(_ key: KeyEvent) {
        var s = Fixtures.small()
        var seen: [Int] = []
        for _ in 0..<5 { press(&s, key); seen.append(s.selection) }
        #expect(seen == [1, 2, 8, 8, 8])
    }

    @Test(arguments: [KeyEvent.up, .character("k")])
    func moveUp(_ key: KeyEvent) {
        var s = Fixtures.small()
        s.expanded[2] = true
        s.select(8)
        var seen: [Int] = []
        for _ in 0..<5 { press(&s, key); seen.append(s.selection) }
        #expect(seen == [6, 3, 2, 1, 0])  // 3 and 6 are collapsed: their children are hopped over
        press(&s, key)
        #expect(s.selection == 0)
    }

    @Test func moveUpSkipsIntoExpandedSubtreeEnd() {
        var s = Fixtures.small()
        s.expanded.fill(0..<9, true)
        s.select(8)
        press(&s, .up)
        #expect(s.selection == 7)   // the last row of the expanded SET
    }

    @Test(arguments: [KeyEvent.right, .character("l")])
    func expandThenFirstChild(_ key: KeyEvent) {
        var s = Fixtures.small()
        s.select(2)
        press(&s, key)
        #expect(s.selection == 2 && s.expanded[2])
        #expect(allVisible(s) == [0, 1, 2, 3, 6, 8])
        press(&s, key)
        #expect(s.selection == 3)
        s.select(1)
        press(&s, key)   // a leaf: nothing to expand
        #expect(s.selection == 1 && s.status?.text == "no children")
    }

    @Test(arguments: [KeyEvent.left, .character("h")])
    func collapseThenParent(_ key: KeyEvent) {
        var s = Fixtures.small()
        s.expanded[2] = true
        s.select(3)
        press(&s, key)                 // 3 is collapsed: go to the parent
        #expect(s.selection == 2 && s.expanded[2])
        press(&s, key)                 // 2 is expanded: collapse it
        #expect(s.selection == 2 && !s.expanded[2])
        #expect(allVisible(s) == [0, 1, 2, 8])
        press(&s, key)                 // collapsed: parent
        #expect(s.selection == 0)
        press(&s, key)                 // root expanded: collapse
        #expect(!s.expanded[0] && allVisible(s) == [0])
        press(&s, key)                 // root collapsed, no parent: stays
        #expect(s.selection == 0)
    }

    @Test(arguments: [KeyEvent.enter, .character(" ")])
    func toggle(_ key: KeyEvent) {
        var s = Fixtures.small()
        s.select(2)
        press(&s, key)
        #expect(s.expanded[2] && allVisible(s) == [0, 1, 2, 3, 6, 8])
        press(&s, key)
        #expect(!s.expanded[2] && allVisible(s) == [0, 1, 2, 8])
        s.select(1)
        press(&s, key)
        #expect(allVisible(s) == [0, 1, 2, 8])
    }

    @Test func expandSubtree() {
        var s = Fixtures.small()
        s.select(2)
        press(&s, .character("*"))
        #expect(allVisible(s) == [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(s.expanded.members == [0, 2, 3, 4, 5, 6, 7])  // [2, 9) filled, 0 was open
        #expect(s.selection == 2)
    }

    @Test func expandAllAndCollapseAll() {
        var s = Fixtures.small()
        press(&s, .character("E"))
        #expect(allVisible(s) == Array(0..<9))
        s.select(5)
        press(&s, .character("C"))
        #expect(allVisible(s) == [0])
        #expect(s.selection == 0 && s.treeTop == 0)
        #expect(s.expanded.population == 0)
    }

    @Test func pageDownAndUp() {
        var s = wide()   // 151 rows, tree pane 10 rows at 80×24: a page is 9 rows
        #expect(s.layout.tree?.height == 10)
        press(&s, .pageDown)
        #expect(s.selection == 9)
        press(&s, .pageDown)
        #expect(s.selection == 18)
        #expect(s.treeTop <= 18 && s.forward(s.treeTop, 9) >= 18)
        press(&s, .pageUp)
        #expect(s.selection == 9)
        press(&s, .pageUp, .pageUp)
        #expect(s.selection == 0 && s.treeTop == 0)
    }

    @Test(arguments: [(KeyEvent.character("G"), KeyEvent.character("g")), (.end, .home)])
    func lastAndFirst(_ last: KeyEvent, _ first: KeyEvent) {
        var s = wide()
        press(&s, last)
        #expect(s.selection == 150)
        #expect(s.forward(s.treeTop, 9) == 150)   // the last row sits at the bottom of the pane
        press(&s, first)
        #expect(s.selection == 0 && s.treeTop == 0)
        press(&s, .character("C"), last)
        #expect(s.selection == 0)                 // everything collapsed: the root is the last row
    }
}

@Suite struct HexKeyTests {
    func focused() -> AppState {
        var s = Fixtures.small()
        press(&s, .tab)
        #expect(s.focus == .hex && s.hexCursor == 0)
        return s
    }

    @Test(arguments: [(KeyEvent.right, KeyEvent.left), (.character("l"), .character("h"))])
    func byteRightLeft(_ right: KeyEvent, _ left: KeyEvent) {
        var s = focused()
        press(&s, right)
        #expect(s.hexCursor == 1 && s.selection == 0)    // the root's length octet
        press(&s, right)
        #expect(s.hexCursor == 2 && s.selection == 1)    // INTEGER 1
        press(&s, left, left, left)
        #expect(s.hexCursor == 0 && s.selection == 0)
    }

    @Test(arguments: [(KeyEvent.down, KeyEvent.up), (.character("j"), .character("k"))])
    func rowDownUp(_ down: KeyEvent, _ up: KeyEvent) {
        var s = focused()
        press(&s, .right, .right, down)                  // 2 + 16 = 18: INTEGER 5's last byte
        #expect(s.hexCursor == 18 && s.selection == 5)
        #expect(s.expanded[2] && s.expanded[3])          // its ancestors were opened
        press(&s, up)
        #expect(s.hexCursor == 2 && s.selection == 1)
    }

    @Test(arguments: [(KeyEvent.end, KeyEvent.home), (.character("G"), .character("g"))])
    func endAndStart(_ end: KeyEvent, _ start: KeyEvent) {
        var s = focused()
        press(&s, end)
        #expect(s.hexCursor == 31 && s.selection == 8)
        press(&s, start)
        #expect(s.hexCursor == 0 && s.selection == 0)
    }

    @Test func pageDownAndUp() {
        var s = focused()   // 3 hex rows at 80×24: a page is 2 rows = 32 bytes, clamped to the end
        press(&s, .pageDown)
        #expect(s.hexCursor == 31 && s.selection == 8)
        press(&s, .pageUp)
        #expect(s.hexCursor == 0 && s.selection == 0)
    }
}

@Suite struct DetailAndSummaryScrollTests {
    @Test func detailScroll() {
        var s = Fixtures.small()
        press(&s, .tab, .tab)
        #expect(s.focus == .detail)
        let total = DetailPane.lines(s, width: s.layout.detail!.width).count
        let height = s.layout.detail!.height
        #expect(total > height)
        press(&s, .down)
        #expect(s.detailScroll == 1)
        press(&s, .character("j"), .character("k"))
        #expect(s.detailScroll == 1)
        press(&s, .pageDown)
        #expect(s.detailScroll == min(1 + height - 1, total - height))
        press(&s, .up, .pageUp)
        #expect(s.detailScroll == 0)
        for _ in 0..<100 { press(&s, .down) }
        #expect(s.detailScroll == total - height)
    }

    @Test func summaryScroll() {
        var s = Fixtures.sample()
        press(&s, .character("2"))
        #expect(s.mode == .summary)
        press(&s, .down)
        #expect(s.summaryScroll == 1)
        press(&s, .character("k"), .character("k"))
        #expect(s.summaryScroll == 0)
        press(&s, .character("j"))
        #expect(s.summaryScroll == 1)
    }
}

@Suite struct TableKeyTests {
    @Test func viewsAndRows() {
        var s = Fixtures.sample()
        #expect(s.receipt?.purchases.count == 10)
        press(&s, .character("3"))
        #expect(s.mode == .purchases && s.focus == .table && s.tableRow == 0)
        press(&s, .down, .character("j"))
        #expect(s.tableRow == 2)
        press(&s, .up)
        #expect(s.tableRow == 1)
        press(&s, .character("k"), .character("k"))
        #expect(s.tableRow == 0)
        press(&s, .end)
        #expect(s.tableRow == 9)
        press(&s, .home)
        #expect(s.tableRow == 0)
        press(&s, .character("G"))
        #expect(s.tableRow == 9)
        press(&s, .character("g"), .pageDown)
        #expect(s.tableRow == 9)    // a page (17 rows at 80×24) is more than the table
        press(&s, .pageUp)
        #expect(s.tableRow == 0)
    }

    @Test func enterJumpsToTheTreeAndPJumpsBack() {
        var s = Fixtures.sample()
        press(&s, .character("3"), .down, .down)
        let purchase = s.receipt!.purchases[s.tableOrder[2]]
        press(&s, .enter)
        #expect(s.mode == .tree && s.focus == .tree)
        #expect(s.selection == purchase.node)
        #expect(s.isVisible(purchase.node))
        #expect(s.tree.nodes[purchase.node].isUniversal(17))      // the purchase's SET
        // Into the purchase, then back to its row.
        press(&s, .right, .right)
        #expect(purchase.nodeRange.contains(s.selection) && s.selection != purchase.node)
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.tableRow == 2)
        // Outside any purchase: a message, no jump.
        press(&s, .character("1"), .character("g"), .character("p"))
        #expect(s.mode == .tree && s.status?.isError == true)
    }

    @Test func sortCyclesColumnsAndReverses() {
        var s = Fixtures.sample()
        press(&s, .character("3"))
        press(&s, .character("s"))
        #expect(s.tableSort == .productID && !s.tableSortDescending)
        let ids = s.tableOrder.map { s.receipt!.purchases[$0].productID }
        #expect(ids == ids.sorted())
        #expect(s.tableOrder.first == 1)   // coins100 (#2) sorts first, ties in file order
        press(&s, .character("S"))
        #expect(s.tableSortDescending)
        let reversed = s.tableOrder.map { s.receipt!.purchases[$0].productID }
        #expect(reversed == ids.sorted(by: >))
        for _ in 0..<7 { press(&s, .character("s")) }
        #expect(s.tableSort == .number)
        press(&s, .character("S"))
        #expect(s.tableOrder == Array(0..<10))
    }
}

@Suite struct GlobalKeyTests {
    @Test func focusCycles() {
        var s = Fixtures.small()
        press(&s, .tab)
        #expect(s.focus == .hex)
        press(&s, .tab)
        #expect(s.focus == .detail)
        press(&s, .tab)
        #expect(s.focus == .tree)
        press(&s, .backTab)
        #expect(s.focus == .detail)
        press(&s, .character("H"), .tab)   // no hex pane: tree ↔ detail
        #expect(s.focus == .tree)
    }

    @Test func searchPromptEnterAndHits() {
        var s = Fixtures.small()
        press(&s, .character("/"))
        #expect(s.prompt == Prompt(kind: .search))
        type(&s, "INTEGEX")
        press(&s, .backspace)
        type(&s, "r")
        #expect(s.prompt?.text == "INTEGEr")
        press(&s, .enter)
        #expect(s.prompt == nil)
        #expect(s.search.hits == [1, 5])
        #expect(s.selection == 1)
        press(&s, .character("n"))
        #expect(s.selection == 5 && s.expanded[2] && s.expanded[3])
        press(&s, .character("n"))
        #expect(s.selection == 1)           // wraps
        press(&s, .character("N"))
        #expect(s.selection == 5)           // wraps backwards
        press(&s, .character("N"))
        #expect(s.selection == 1)
    }

    @Test func searchValuesAndCancel() {
        var s = Fixtures.small()
        press(&s, .character("/"))
        type(&s, "beta")
        press(&s, .enter)
        #expect(s.search.hits == [7] && s.selection == 7)
        press(&s, .character("/"))
        type(&s, "alpha")
        press(&s, .escape)
        #expect(s.prompt == nil && s.search.query == "beta" && s.selection == 7)
        press(&s, .character("/"))
        type(&s, "nothing-like-this")
        press(&s, .enter)
        #expect(s.search.hits.isEmpty && s.status?.isError == true)
        press(&s, .character("n"))
        #expect(s.status?.isError == true && s.selection == 7)
    }

    @Test func goToOffset() {
        var s = Fixtures.small()
        press(&s, .character(":"))
        #expect(s.prompt?.kind == .goToOffset)
        type(&s, "0x10")
        press(&s, .enter)
        #expect(s.selection == 5 && s.hexCursor == 16)
        #expect(s.expanded[2] && s.expanded[3])
        press(&s, .character(":"))
        type(&s, "9")
        press(&s, .enter)
        #expect(s.selection == 4 && s.hexCursor == 9)
        press(&s, .character(":"))
        type(&s, "zz")
        press(&s, .enter)
        #expect(s.selection == 4 && s.status?.isError == true)
        press(&s, .character(":"))
        type(&s, "32")
        press(&s, .enter)
        #expect(s.selection == 4 && s.status?.text.contains("past the end") == true)
    }

    @Test func nextAndPreviousDiagnostic() {
        var s = defects()
        #expect(s.facts.diagnosticNodes == [2, 3])
        #expect(s.facts.severity(ofNode: 2) == .error && s.facts.severity(ofNode: 3) == .notDER)
        press(&s, .character("]"))
        #expect(s.selection == 2 && s.status?.text.contains("integer-not-minimal") == true)
        press(&s, .character("]"))
        #expect(s.selection == 3)
        press(&s, .character("]"))
        #expect(s.selection == 2 && s.status?.text.contains("wrapped") == true)
        press(&s, .character("["))
        #expect(s.selection == 3)
        press(&s, .character("["))
        #expect(s.selection == 2)
    }

    @Test func writeNodeReturnsAnEffect() {
        var s = Fixtures.small()
        s.select(8)
        press(&s, .character("w"))
        #expect(s.prompt == Prompt(kind: .writeFile, text: "node-8-27.der"))
        let effect = press(&s, .enter)
        #expect(effect == .writeFile(path: "node-8-27.der", bytes: [0x04, 0x03, 0x01, 0x02, 0x03]))
        s.effectFinished(effect!, error: nil)
        #expect(s.status?.text == "wrote 5 bytes to node-8-27.der")
        press(&s, .character("w"))
        for _ in 0..<20 { press(&s, .backspace) }
        type(&s, "out.bin")
        #expect(press(&s, .enter) == .writeFile(path: "out.bin", bytes: [0x04, 0x03, 0x01, 0x02, 0x03]))
        s.effectFinished(.writeFile(path: "out.bin", bytes: []), error: "Permission denied")
        #expect(s.status?.isError == true)
    }

    @Test func offsetBaseAndHexPane() {
        var s = Fixtures.small()
        press(&s, .character("x"))
        #expect(s.offsetBase == .decimal)
        press(&s, .character("x"))
        #expect(s.offsetBase == .hex)
        press(&s, .tab)
        press(&s, .character("H"))
        #expect(!s.hexVisible && s.focus == .tree && s.layout.hex == nil)
        press(&s, .character("H"))
        #expect(s.hexVisible && s.layout.hex != nil)
    }

    @Test func viewsCycleOnlyForReceipts() {
        var s = Fixtures.sample()
        press(&s, .character("r"))
        #expect(s.mode == .summary)
        press(&s, .character("r"))
        #expect(s.mode == .purchases)
        press(&s, .character("r"))
        #expect(s.mode == .tree)
        press(&s, .character("2"), .character("1"))
        #expect(s.mode == .tree)
        var plain = Fixtures.small()
        press(&plain, .character("r"))
        #expect(plain.mode == .tree && plain.status?.isError == true)
        press(&plain, .character("3"))
        #expect(plain.mode == .tree)
    }

    @Test func helpOverlay() {
        var s = Fixtures.small()
        press(&s, .character("?"))
        #expect(s.helpVisible)
        press(&s, .down, .character("j"))
        #expect(s.helpScroll == 2)
        press(&s, .character("k"))
        #expect(s.helpScroll == 1)
        #expect(press(&s, .character("q")) == nil)   // q closes the help, it does not quit
        #expect(!s.helpVisible)
        press(&s, .character("?"), .escape)
        #expect(!s.helpVisible)
        press(&s, .character("?"), .character("?"))
        #expect(!s.helpVisible)
    }

    @Test func quitAndEscape() {
        var s = Fixtures.small()
        #expect(press(&s, .character("q")) == .quit)
        #expect(press(&s, .control("c")) == .quit)
        #expect(press(&s, .escape) == .quit)
        var r = Fixtures.sample()
        press(&r, .character("2"))
        #expect(press(&r, .escape) == nil && r.mode == .tree)   // Esc leaves a receipt view first
        press(&r, .character("/"))
        #expect(press(&r, .escape) == nil && r.prompt == nil)   // and closes a prompt
        #expect(press(&r, .escape) == .quit)
    }

    @Test func mouseClicksAndWheel() {
        var s = Fixtures.small()   // 80×24: tree rows from y = 2, glyphs at x = 1 + 2 + 2·depth
        press(&s, .mouseClick(x: 10, y: 3))
        #expect(s.selection == 1)
        press(&s, .mouseClick(x: 5, y: 4))          // the ▸ of node 2
        #expect(s.selection == 2 && s.expanded[2])
        press(&s, .mouseClick(x: 40, y: 11))        // below the last row: nothing
        #expect(s.selection == 2)
        let hex = s.layout.hex!
        press(&s, .mouseClick(x: hex.x + 4 + 2 + 3 * 5, y: hex.y))   // byte 5
        #expect(s.focus == .hex && s.hexCursor == 5 && s.selection == 2)
        var w = wide()
        press(&w, .wheelDown(x: 10, y: 5))
        #expect(w.treeTop == 3 && w.selection == 0)
        press(&w, .wheelUp(x: 10, y: 5))
        #expect(w.treeTop == 0)
        w.mouse = false
        press(&w, .mouseClick(x: 10, y: 3))
        #expect(w.selection == 0)
    }

    @Test func resizeKeepsSelectionVisible() {
        var s = wide(size: Size(width: 120, height: 40))
        press(&s, .character("G"))
        #expect(s.selection == 150)
        press(&s, .resize(Size(width: 80, height: 24)))
        let rows = s.visibleRows(count: s.layout.tree!.height)
        #expect(rows.contains(150))
        press(&s, .resize(Size(width: 200, height: 60)))
        #expect(s.visibleRows(count: s.layout.tree!.height).contains(150))
        press(&s, .resize(Size(width: 30, height: 10)))   // too small: nothing breaks
        press(&s, .up, .resize(Size(width: 80, height: 24)))
        #expect(s.visibleRows(count: s.layout.tree!.height).contains(s.selection))
    }
}

/// Every key in the keymap reaches its action, and every action is covered by a test above.
@Suite struct KeymapCoverageTests {
    static let tested: Set<Action> = [
        .moveUp, .moveDown, .collapseOrParent, .expandOrChild, .toggle, .expandSubtree, .expandAll, .collapseAll,
        .pageUp, .pageDown, .first, .last, .hexLeft, .hexRight, .hexUp, .hexDown, .hexPageUp, .hexPageDown,
        .hexStart, .hexEnd, .scrollUp, .scrollDown, .scrollPageUp, .scrollPageDown, .tableUp, .tableDown,
        .tablePageUp, .tablePageDown, .tableFirst, .tableLast, .tableOpen, .sortNext, .sortReverse, .focusNext,
        .focusPrevious, .startSearch, .nextHit, .previousHit, .goToOffset, .nextDiagnostic, .previousDiagnostic,
        .writeNode, .toggleOffsetBase, .toggleHexPane, .cycleView, .showTree, .showSummary, .showPurchases,
        .jumpToPurchase, .help, .quit, .escape, .promptAccept, .promptCancel, .promptErase, .click, .wheelUp,
        .wheelDown, .resize,
    ]

    @Test func everyActionIsTested() {
        #expect(Set(Action.allCases).subtracting(Self.tested).isEmpty)
    }

    @Test func everyBindingIsReachable() {
        for binding in Keymap.bindings {
            for trigger in binding.triggers {
                let event: KeyEvent
                switch trigger {
                case .key(let e): event = e
                case .anyClick: event = .mouseClick(x: 1, y: 1)
                case .anyWheelUp: event = .wheelUp(x: 1, y: 1)
                case .anyWheelDown: event = .wheelDown(x: 1, y: 1)
                case .anyResize: event = .resize(Size(width: 80, height: 24))
                }
                let context = binding.context == .mouse ? KeyContext.tree : binding.context
                #expect(Keymap.binding(for: event, in: context)?.action == binding.action,
                        "\(binding.keys) in \(binding.context) does not reach \(binding.action)")
            }
        }
    }
}
