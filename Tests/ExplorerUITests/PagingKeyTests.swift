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
        #expect(s.selection == 9)
        press(&s, .control("f"))
        #expect(s.selection == 18)
        press(&s, .control("b"))
        #expect(s.selection == 9)
        press(&s, .control("b"))
        #expect(s.selection == 0 && s.treeTop == 0)
        // Half a page scrolls the pane and the selection together, as `less` does.
        press(&s, .control("d"))
        #expect(s.selection == 5 && s.treeTop == 5)
        press(&s, .control("d"), .control("d"))
        #expect(s.selection == 15 && s.treeTop == 15)
        press(&s, .control("u"))
        #expect(s.selection == 10 && s.treeTop == 10)
        press(&s, .control("u"), .control("u"), .control("u"))
        #expect(s.selection == 0 && s.treeTop == 0)
    }

    @Test func hexPagesAndHalfPages() {
        var s = Fixtures.small()
        press(&s, .tab)                     // hex focus; 3 rows at 80×24
        press(&s, .control("d"))            // half of 3 rows is one row: 16 bytes
        #expect(s.hexCursor == 16 && s.selection == 5)   // INTEGER 5 starts at offset 16
        press(&s, .control("u"))
        #expect(s.hexCursor == 0 && s.selection == 0)
        press(&s, .control("f"))            // a page of 2 rows, clamped to the last byte (31)
        #expect(s.hexCursor == 31 && s.selection == 8)
        press(&s, .control("b"))
        #expect(s.hexCursor == 0)
    }

    @Test func detailPagesAndHalfPages() {
        var s = Fixtures.small()
        press(&s, .tab, .tab)
        let height = s.layout.detail!.height
        let total = DetailPane.lines(s, width: s.layout.detail!.width).count
        #expect(total > height + height / 2)
        press(&s, .control("d"))
        #expect(s.detailScroll == height / 2)
        press(&s, .control("u"))
        #expect(s.detailScroll == 0)
        press(&s, .control("f"))
        #expect(s.detailScroll == min(height - 1, total - height))
        press(&s, .control("b"))
        #expect(s.detailScroll == 0)
    }

    @Test(.enabled(if: Paths.samplesAvailable)) func summaryPagesAndHalfPages() {
        var s = Fixtures.sample()
        press(&s, .character("2"))
        let height = s.layout.main!.height
        press(&s, .control("d"))
        #expect(s.summaryScroll == height / 2)
        press(&s, .control("u"))
        #expect(s.summaryScroll == 0)
        press(&s, .pageDown)
        let paged = s.summaryScroll
        #expect(paged > 0)
        press(&s, .control("b"))
        #expect(s.summaryScroll == 0)
        press(&s, .control("f"))
        #expect(s.summaryScroll == paged)
    }

    @Test(.enabled(if: Paths.samplesAvailable)) func purchaseTablePagesAndHalfPages() {
        var s = Fixtures.sample(size: Size(width: 80, height: 16))   // 10 purchases; a page is 10 rows, half 5
        press(&s, .character("3"), .control("d"))
        #expect(s.tableRow == 5)
        press(&s, .control("u"))
        #expect(s.tableRow == 0)
        press(&s, .control("f"))
        #expect(s.tableRow == 9)
        press(&s, .control("b"))
        #expect(s.tableRow == 0)
    }

    @Test func helpPagesAndHalfPages() {
        var s = Fixtures.small()
        press(&s, .character("?"))
        let visible = s.helpHeight      // 20 lines of help at 80×24
        press(&s, .control("d"))
        #expect(s.helpScroll == visible / 2)
        press(&s, .control("u"))
        #expect(s.helpScroll == 0)
        press(&s, .control("f"))
        #expect(s.helpScroll == visible - 1)
        press(&s, .control("b"))
        #expect(s.helpScroll == 0 && s.helpVisible)
    }
}
