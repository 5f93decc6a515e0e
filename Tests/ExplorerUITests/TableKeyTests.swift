import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

@Suite struct TableKeyTests {
    @Test func viewsAndRows() {
        var s = Fixtures.sample()
        #expect(s.additions?.purchases.count == 10)
        press(&s, .character("3"))
        #expect(s.mode == .purchases && s.focus == .table && s.table.row == 0)
        press(&s, .down, .character("j"))
        #expect(s.table.row == 2)
        press(&s, .up)
        #expect(s.table.row == 1)
        press(&s, .character("k"), .character("k"))
        #expect(s.table.row == 0)
        press(&s, .end)
        #expect(s.table.row == 9)
        press(&s, .home)
        #expect(s.table.row == 0)
        press(&s, .character("G"))
        #expect(s.table.row == 9)
        press(&s, .character("g"), .pageDown)
        #expect(s.table.row == 9)    // a page (17 rows at 80×24) is more than the table
        press(&s, .pageUp)
        #expect(s.table.row == 0)
    }

    @Test func enterJumpsToTheTreeAndPJumpsBack() {
        var s = Fixtures.sample()
        press(&s, .character("3"), .down, .down)
        let purchase = s.additions!.purchases[s.table.order[2]]
        guard case .node(let id, let members) = purchase.target else { Issue.record("not a node: \(purchase.target)"); return }
        let node = id.index
        press(&s, .enter)
        #expect(s.mode == .tree && s.focus == .tree)
        #expect(s.selectedFileNode == node)
        #expect(s.isFileNodeShown(node))
        #expect(s.tree.nodes[node].isUniversal(17))      // the purchase's SET
        // Into the purchase, then back to its row.
        press(&s, .right, .right)
        #expect(members.contains(s.selectedFileNode) && s.selectedFileNode != node)
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.table.row == 2)
        // Outside any purchase: a message, no jump.
        press(&s, .character("1"), .character("g"), .character("p"))
        #expect(s.mode == .tree && s.status?.isError == true)
    }

    @Test func sortCyclesColumnsAndReverses() {
        var s = Fixtures.sample()
        press(&s, .character("3"))
        press(&s, .character("s"))
        #expect(s.table.sort == .productID && !s.table.descending)
        let ids = s.table.order.map { s.additions!.purchases[$0].productID }
        #expect(ids == ids.sorted())
        #expect(s.table.order.first == 1)   // coins100 (#2) sorts first, ties in file order
        press(&s, .character("S"))
        #expect(s.table.descending)
        let reversed = s.table.order.map { s.additions!.purchases[$0].productID }
        #expect(reversed == ids.sorted(by: >))
        for _ in 0..<7 { press(&s, .character("s")) }
        #expect(s.table.sort == .number)
        press(&s, .character("S"))
        #expect(s.table.order == Array(0..<10))
    }
}
