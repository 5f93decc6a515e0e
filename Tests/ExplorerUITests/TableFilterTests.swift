import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

/// `f` in the purchase table: rows by product id / transaction id text, the active filter in the
/// pane's title, Esc clears it (a second Esc leaves the view), `p` never lands on a hidden row.
@Suite struct TableFilterTests {
    @Test func filterByProductIdShowsTheFilterAndEscClearsIt() {
        var s = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&s, .character("3"), .character("f"))
        #expect(s.prompt == Prompt(kind: .filterPurchases))
        type(&s, "MONTHLY")
        press(&s, .enter)
        let receipt = s.additions!
        let monthly = receipt.purchases.indices.filter { receipt.purchases[$0].productID.hasSuffix(".monthly") }
        #expect(!monthly.isEmpty && monthly.count < receipt.purchases.count)
        #expect(s.table.order == monthly && s.table.filter == "MONTHLY")
        #expect(s.status == StatusMessage("\(monthly.count) of 10 rows hold \"MONTHLY\" (Esc clears the filter)"))
        Snapshot.assert(render(s, size: GridSize(width: 120, height: 40)), named: "purchases-filter-120x40")
        // Sorting keeps the filter.
        press(&s, .character("S"))
        #expect(s.table.order == monthly.reversed())
        // Esc clears the filter, then leaves the view.
        press(&s, .escape)
        #expect(s.mode == .purchases && s.table.filter.isEmpty && s.table.order.count == 10)
        #expect(s.status == StatusMessage("filter cleared: all 10 rows"))
        press(&s, .escape)
        #expect(s.mode == .tree)
    }

    @Test func aTransactionIdKeepsItsRowAndNothingSaysSo() {
        var s = Fixtures.sample()
        let receipt = s.additions!
        let target = receipt.purchases.indices.first { receipt.purchases[$0].transactionID == "2000000500000003" }!
        press(&s, .character("3"), .character("f"))
        type(&s, "2000000500000003")
        press(&s, .enter)
        #expect(s.table.order == [target] && s.table.row == 0)
        press(&s, .character("f"))
        #expect(s.prompt?.text == "2000000500000003")   // f starts from the active filter
        for _ in 0..<16 { press(&s, .backspace) }
        type(&s, "no-such")
        press(&s, .enter)
        #expect(s.table.order.isEmpty)
        #expect(s.status == StatusMessage("no row holds \"no-such\" (Esc clears the filter)", isError: true))
        #expect(render(s, size: GridSize(width: 80, height: 24)).text.contains("In-app purchases (0 of 10) · filter \"no-such\" (Esc clears)"))
    }

    @Test func pFromTheTreeClearsAFilterThatHidesItsPurchase() {
        var s = Fixtures.sample()
        let receipt = s.additions!
        let hidden = receipt.purchases.indices.first { !receipt.purchases[$0].productID.hasSuffix(".monthly") }!
        press(&s, .character("3"), .character("f"))
        type(&s, "monthly")
        press(&s, .enter, .character("1"))
        guard case .node(let node, _) = receipt.purchases[hidden].target else { Issue.record("not a node"); return }
        s.selectOutlineRow(s.outline.row(of: node)!)
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.table.filter.isEmpty && s.table.order[s.table.row] == hidden)
    }
}
