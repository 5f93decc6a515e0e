import Testing
import ASN1Lenient
@testable import ExplorerUI

@Suite struct FirstSliceTests {
    @Test func downUpWalkVisibleRows() {
        var s = Fixtures.small()
        reduce(&s, .down)
        #expect(s.selection == 1)
        reduce(&s, .down)
        #expect(s.selection == 2)
        reduce(&s, .down)   // SET is collapsed: next row is the OCTET STRING
        #expect(s.selection == 8)
        reduce(&s, .up)
        #expect(s.selection == 2)
    }

    @Test func rendersAtEightyByTwentyFour() {
        let s = Fixtures.sample()
        let grid = render(s, size: Size(width: 80, height: 24))
        #expect(grid.text.contains("receipt-explorer"))
        #expect(grid.cells.allSatisfy { UIText.isDisplaySafe($0.scalar) })
    }

    @Test func tooSmall() {
        let s = Fixtures.small()
        let grid = render(s, size: Size(width: 40, height: 10))
        #expect(grid.text.contains("terminal too small"))
        #expect(grid.text.contains("have 40x10"))
        _ = render(s, size: Size(width: 0, height: 0))
        _ = render(s, size: Size(width: 1, height: 1))
    }
}
