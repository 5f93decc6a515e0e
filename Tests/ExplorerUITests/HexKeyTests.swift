import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

@Suite struct HexKeyTests {
    func focused() -> AppState {
        var s = Fixtures.small()
        press(&s, .tab)
        #expect(s.focus == .hex && s.outlineView.cursor == 0)
        return s
    }

    @Test(arguments: [(InputEvent.right, InputEvent.left), (.character("l"), .character("h"))])
    func byteRightLeft(_ right: InputEvent, _ left: InputEvent) {
        var s = focused()
        press(&s, right)
        #expect(s.outlineView.cursor == 1 && s.outlineView.selection == 0)    // the root's length octet
        press(&s, right)
        #expect(s.outlineView.cursor == 2 && s.outlineView.selection == 1)    // INTEGER 1
        press(&s, left, left, left)
        #expect(s.outlineView.cursor == 0 && s.outlineView.selection == 0)
    }

    @Test(arguments: [(InputEvent.down, InputEvent.up), (.character("j"), .character("k"))])
    func rowDownUp(_ down: InputEvent, _ up: InputEvent) {
        var s = focused()
        press(&s, .right, .right, down)                  // 2 + 16 = 18: INTEGER 5's last byte
        #expect(s.outlineView.cursor == 18 && s.outlineView.selection == 5)
        #expect(s.outlineView.expanded[2] && s.outlineView.expanded[3])          // its ancestors were opened
        press(&s, up)
        #expect(s.outlineView.cursor == 2 && s.outlineView.selection == 1)
    }

    @Test(arguments: [(InputEvent.end, InputEvent.home), (.character("G"), .character("g"))])
    func endAndStart(_ end: InputEvent, _ start: InputEvent) {
        var s = focused()
        press(&s, end)
        #expect(s.outlineView.cursor == 31 && s.outlineView.selection == 8)
        press(&s, start)
        #expect(s.outlineView.cursor == 0 && s.outlineView.selection == 0)
    }

    @Test func pageDownAndUp() {
        var s = focused()   // 3 hex rows at 80×24: a page is 2 rows = 32 bytes, clamped to the end
        press(&s, .pageDown)
        #expect(s.outlineView.cursor == 31 && s.outlineView.selection == 8)
        press(&s, .pageUp)
        #expect(s.outlineView.cursor == 0 && s.outlineView.selection == 0)
    }
}
