import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

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
        #expect(s.outlineView.selection == 1)
        press(&s, .character("n"))
        #expect(s.outlineView.selection == 5 && s.outlineView.expanded[2] && s.outlineView.expanded[3])
        press(&s, .character("n"))
        #expect(s.outlineView.selection == 1)           // wraps
        press(&s, .character("N"))
        #expect(s.outlineView.selection == 5)           // wraps backwards
        press(&s, .character("N"))
        #expect(s.outlineView.selection == 1)
    }

    @Test func searchValuesAndCancel() {
        var s = Fixtures.small()
        press(&s, .character("/"))
        type(&s, "beta")
        press(&s, .enter)
        #expect(s.search.hits == [7] && s.outlineView.selection == 7)
        press(&s, .character("/"))
        type(&s, "alpha")
        press(&s, .escape)
        #expect(s.prompt == nil && s.search.query == "beta" && s.outlineView.selection == 7)
        press(&s, .character("/"))
        type(&s, "nothing-like-this")
        press(&s, .enter)
        #expect(s.search.hits.isEmpty && s.status?.isError == true)
        press(&s, .character("n"))
        #expect(s.status?.isError == true && s.outlineView.selection == 7)
    }

    @Test func goToOffset() {
        var s = Fixtures.small()
        press(&s, .character(":"))
        #expect(s.prompt?.kind == .goToOffset)
        type(&s, "0x10")
        press(&s, .enter)
        #expect(s.outlineView.selection == 5 && s.outlineView.cursor == 16)
        #expect(s.outlineView.expanded[2] && s.outlineView.expanded[3])
        press(&s, .character(":"))
        type(&s, "9")
        press(&s, .enter)
        #expect(s.outlineView.selection == 4 && s.outlineView.cursor == 9)
        press(&s, .character(":"))
        type(&s, "zz")
        press(&s, .enter)
        #expect(s.outlineView.selection == 4 && s.status?.isError == true)
        press(&s, .character(":"))
        type(&s, "32")
        press(&s, .enter)
        #expect(s.outlineView.selection == 4 && s.status?.text.contains("past the end") == true)
    }

    @Test func nextAndPreviousDiagnostic() {
        var s = defects()
        #expect(s.facts.diagnosticNodes == [2, 3])
        #expect(s.facts.severity(ofNode: 2) == .error && s.facts.severity(ofNode: 3) == .notDER)
        press(&s, .character("]"))
        #expect(s.outlineView.selection == 2 && s.status?.text.contains("integer-not-minimal") == true)
        press(&s, .character("]"))
        #expect(s.outlineView.selection == 3)
        press(&s, .character("]"))
        #expect(s.outlineView.selection == 2 && s.status?.text.contains("wrapped") == true)
        press(&s, .character("["))
        #expect(s.outlineView.selection == 3)
        press(&s, .character("["))
        #expect(s.outlineView.selection == 2)
    }

    @Test func writeNodeReturnsAnEffect() {
        var s = Fixtures.small()
        s.selectOutlineRow(8)
        press(&s, .character("w"))
        #expect(s.prompt == Prompt(kind: .writeFile, text: "layer-0-node-8-27.der"))
        let effect = press(&s, .enter)
        #expect(effect == .writeFile(path: "layer-0-node-8-27.der", bytes: [0x04, 0x03, 0x01, 0x02, 0x03]))
        reduce(&s, .effectFinished(effect!, error: nil))
        #expect(s.status?.text == "wrote 5 bytes to layer-0-node-8-27.der")
        press(&s, .character("w"))
        for _ in 0..<30 { press(&s, .backspace) }
        type(&s, "out.bin")
        #expect(press(&s, .enter) == .writeFile(path: "out.bin", bytes: [0x04, 0x03, 0x01, 0x02, 0x03]))
        reduce(&s, .effectFinished(.writeFile(path: "out.bin", bytes: []), error: "Permission denied"))
        #expect(s.status?.text == "could not write out.bin: Permission denied")
        #expect(s.status?.isError == true)
    }

    @Test func offsetBaseAndHexPane() {
        var s = Fixtures.small()
        press(&s, .character("x"))
        #expect(s.preferences.offsetBase == .decimal)
        press(&s, .character("x"))
        #expect(s.preferences.offsetBase == .hex)
        press(&s, .tab)
        press(&s, .character("H"))
        #expect(!s.hexView.visible && s.focus == .tree && s.layout.hex == nil)
        press(&s, .character("H"))
        #expect(s.hexView.visible && s.layout.hex != nil)
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
        #expect(s.help.visible)
        press(&s, .down, .character("j"))
        #expect(s.help.scroll == 2)
        press(&s, .character("k"))
        #expect(s.help.scroll == 1)
        #expect(press(&s, .character("q")) == nil)   // q closes the help, it does not quit
        #expect(!s.help.visible)
        press(&s, .character("?"), .escape)
        #expect(!s.help.visible)
        press(&s, .character("?"), .character("?"))
        #expect(!s.help.visible)
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
        #expect(s.outlineView.selection == 1)
        press(&s, .mouseClick(x: 5, y: 4))          // the ▸ of node 2
        #expect(s.outlineView.selection == 2 && s.outlineView.expanded[2])
        press(&s, .mouseClick(x: 40, y: 11))        // below the last row: nothing
        #expect(s.outlineView.selection == 2)
        let hex = s.layout.hex!
        press(&s, .mouseClick(x: hex.x + 4 + 2 + 3 * 5, y: hex.y))   // byte 5
        #expect(s.focus == .hex && s.outlineView.cursor == 5 && s.outlineView.selection == 2)
        var w = wide()
        press(&w, .wheelDown(x: 10, y: 5))
        #expect(w.outlineView.top == 3 && w.outlineView.selection == 0)
        press(&w, .wheelUp(x: 10, y: 5))
        #expect(w.outlineView.top == 0)
        w.preferences.mouse = false
        press(&w, .mouseClick(x: 10, y: 3))
        #expect(w.outlineView.selection == 0)
    }

    @Test func resizeKeepsSelectionVisible() {
        var s = wide(size: GridSize(width: 120, height: 40))
        press(&s, .character("G"))
        #expect(s.outlineView.selection == 150)
        press(&s, .resize(GridSize(width: 80, height: 24)))
        let rows = s.outlineVisibleRows(count: s.layout.tree!.height)
        #expect(rows.contains(150))
        press(&s, .resize(GridSize(width: 200, height: 60)))
        #expect(s.outlineVisibleRows(count: s.layout.tree!.height).contains(150))
        press(&s, .resize(GridSize(width: 30, height: 10)))   // too small: nothing breaks
        press(&s, .up, .resize(GridSize(width: 80, height: 24)))
        #expect(s.outlineVisibleRows(count: s.layout.tree!.height).contains(s.outlineView.selection))
    }
}
