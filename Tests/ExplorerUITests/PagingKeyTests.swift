import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

/// `less`-style paging: Ctrl-F / Ctrl-B are PgDn / PgUp, Ctrl-D / Ctrl-U move half a page, in every
/// context that scrolls.
@Suite struct PagingKeyTests {
    @Test func treePagesAndHalfPages() {
        var s = wide()   // tree pane 10 rows at 80×24: a page is 9 rows, half a page 5
        press(&s, .control("f"))
        #expect(s.outlineView.selection == 9)
        press(&s, .control("f"))
        #expect(s.outlineView.selection == 18)
        press(&s, .control("b"))
        #expect(s.outlineView.selection == 9)
        press(&s, .control("b"))
        #expect(s.outlineView.selection == 0 && s.outlineView.top == 0)
        // Half a page scrolls the pane and the selection together, as `less` does.
        press(&s, .control("d"))
        #expect(s.outlineView.selection == 5 && s.outlineView.top == 5)
        press(&s, .control("d"), .control("d"))
        #expect(s.outlineView.selection == 15 && s.outlineView.top == 15)
        press(&s, .control("u"))
        #expect(s.outlineView.selection == 10 && s.outlineView.top == 10)
        press(&s, .control("u"), .control("u"), .control("u"))
        #expect(s.outlineView.selection == 0 && s.outlineView.top == 0)
    }

    @Test func hexPagesAndHalfPages() {
        var s = Fixtures.small()
        press(&s, .tab)                     // hex focus; 3 rows at 80×24
        press(&s, .control("d"))            // half of 3 rows is one row: 16 bytes
        #expect(s.outlineView.cursor == 16 && s.outlineView.selection == 5)   // INTEGER 5 starts at offset 16
        press(&s, .control("u"))
        #expect(s.outlineView.cursor == 0 && s.outlineView.selection == 0)
        press(&s, .control("f"))            // a page of 2 rows, clamped to the last byte (31)
        #expect(s.outlineView.cursor == 31 && s.outlineView.selection == 8)
        press(&s, .control("b"))
        #expect(s.outlineView.cursor == 0)
    }

    @Test func detailPagesAndHalfPages() {
        var s = Fixtures.small()
        press(&s, .tab, .tab)
        let height = s.layout.detail!.height
        let total = DetailContent.lines(s, width: s.layout.detail!.width).count
        #expect(total > height + height / 2)
        press(&s, .control("d"))
        #expect(s.detailView.scroll == height / 2)
        press(&s, .control("u"))
        #expect(s.detailView.scroll == 0)
        press(&s, .control("f"))
        #expect(s.detailView.scroll == min(height - 1, total - height))
        press(&s, .control("b"))
        #expect(s.detailView.scroll == 0)
    }

    @Test func summaryPagesAndHalfPages() {
        var s = Fixtures.sample()
        press(&s, .character("2"))
        let height = s.layout.main!.height
        press(&s, .control("d"))
        #expect(s.summaryView.scroll == height / 2)
        press(&s, .control("u"))
        #expect(s.summaryView.scroll == 0)
        press(&s, .pageDown)
        let paged = s.summaryView.scroll
        #expect(paged > 0)
        press(&s, .control("b"))
        #expect(s.summaryView.scroll == 0)
        press(&s, .control("f"))
        #expect(s.summaryView.scroll == paged)
    }

    @Test func purchaseTablePagesAndHalfPages() {
        var s = Fixtures.sample(size: GridSize(width: 80, height: 16))   // 10 purchases; a page is 10 rows, half 5
        press(&s, .character("3"), .control("d"))
        #expect(s.table.row == 5)
        press(&s, .control("u"))
        #expect(s.table.row == 0)
        press(&s, .control("f"))
        #expect(s.table.row == 9)
        press(&s, .control("b"))
        #expect(s.table.row == 0)
    }

    @Test func helpPagesAndHalfPages() {
        var s = Fixtures.small()
        press(&s, .character("?"))
        let visible = s.helpHeight      // 20 lines of help at 80×24
        press(&s, .control("d"))
        #expect(s.help.scroll == visible / 2)
        press(&s, .control("u"))
        #expect(s.help.scroll == 0)
        press(&s, .control("f"))
        #expect(s.help.scroll == visible - 1)
        press(&s, .control("b"))
        #expect(s.help.scroll == 0 && s.help.visible)
    }
}
