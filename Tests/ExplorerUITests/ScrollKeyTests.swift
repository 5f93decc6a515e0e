import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

@Suite struct DetailAndSummaryScrollTests {
    @Test func detailScroll() {
        var s = Fixtures.small()
        press(&s, .tab, .tab)
        #expect(s.focus == .detail)
        let total = DetailContent.lines(s, width: s.layout.detail!.width).count
        let height = s.layout.detail!.height
        #expect(total > height)
        press(&s, .down)
        #expect(s.detailView.scroll == 1)
        press(&s, .character("j"), .character("k"))
        #expect(s.detailView.scroll == 1)
        press(&s, .pageDown)
        #expect(s.detailView.scroll == min(1 + height - 1, total - height))
        press(&s, .up, .pageUp)
        #expect(s.detailView.scroll == 0)
        for _ in 0..<100 { press(&s, .down) }
        #expect(s.detailView.scroll == total - height)
    }

    @Test func summaryScroll() {
        var s = Fixtures.sample()
        press(&s, .character("2"))
        #expect(s.mode == .summary)
        press(&s, .down)
        #expect(s.summaryView.scroll == 1)
        press(&s, .character("k"), .character("k"))
        #expect(s.summaryView.scroll == 0)
        press(&s, .character("j"))
        #expect(s.summaryView.scroll == 1)
    }
}
