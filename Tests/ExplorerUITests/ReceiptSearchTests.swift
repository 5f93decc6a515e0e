import Foundation
import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

/// `/`, `n` and `N` on receipts: which row a hit selects (tree and purchases views), the status
/// text when the jump wraps or nothing matches, and control characters in a query or in the data.
@Suite struct ReceiptSearchTests {
    static let size = GridSize(width: 120, height: 40)

    func load(_ name: String) throws -> AppState {
        try #require(Fixtures.sampleState(name, size: Self.size), "samples/\(name) missing")
    }

    func search(_ s: inout AppState, _ query: String) {
        press(&s, .character("/"))
        type(&s, query)
        press(&s, .enter)
    }

    /// The text of the tree pane's line drawn in the selected style (S in the style mask).
    func selectedLine(_ s: AppState) -> String? {
        let grid = render(s, size: Self.size)
        let mask = Theme.mask(grid).split(separator: "\n", omittingEmptySubsequences: false)
        let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let tree = s.viewport.tree else { return nil }
        for y in tree.y..<(tree.y + tree.height) where mask[y].dropFirst(tree.x).prefix(tree.width).contains("S") {
            return String(String(lines[y]).dropFirst(tree.x).prefix(tree.width))
        }
        return nil
    }

    @Test func aTransactionIdSelectsItsFieldsInTheTreeAndWraps() throws {
        var s = try load("typical.receipt")
        search(&s, "2000000500000003")
        // Purchase #4's transaction id (1703) and original transaction id (1705): one hit per
        // field, its attribute SEQUENCE (the UTF8String inside is the same field, not another hit).
        let hits = s.search.hits
        #expect(hits.count == 2)
        #expect(hits.allSatisfy { s.additions?.purchaseIndex(containing: $0) == 3 })
        #expect(hits.map { s.tree.tagName(of: $0) } == ["SEQUENCE", "SEQUENCE"])
        #expect(s.mode == .tree && s.selectedFileNode == hits[0] && s.isFileNodeShown(hits[0]))
        #expect(s.status == StatusMessage("match 1 of 2 for \"2000000500000003\""))
        #expect(s.additions?.meaning(of: hits[0])?.fieldName == "in-app purchase #4 · transaction id (in-app 1703)")
        #expect(s.additions?.meaning(of: hits[1])?.fieldName == "in-app purchase #4 · original transaction id (in-app 1705)")
        let line = selectedLine(s)
        // The tree pane at 120 columns (hex and detail panes beside it) cuts the meaning short, at a
        // word boundary (never inside "transaction").
        #expect(line?.contains("▸ SEQUENCE (27)  in-app 1703 · …") == true, "\(line ?? "no selected line")")
        press(&s, .character("n"))
        #expect(s.selectedFileNode == hits[1] && s.status == StatusMessage("match 2 of 2 for \"2000000500000003\""))
        press(&s, .character("n"))
        #expect(s.selectedFileNode == hits[0])
        #expect(s.status == StatusMessage("match 1 of 2 for \"2000000500000003\" (wrapped to the first)"))
        press(&s, .character("N"))
        #expect(s.selectedFileNode == hits[1])
        #expect(s.status == StatusMessage("match 2 of 2 for \"2000000500000003\" (wrapped to the last)"))
    }

    /// A product id finds each purchase once (its product id field), not four times (the
    /// purchase's attribute, its SET, the field and the string).
    @Test func aProductIdFindsEachPurchaseOnce() throws {
        var s = try load("typical.receipt")
        let receipt = try #require(s.document.receipt?.receipt)
        let buying = receipt.inApp.indices.filter { receipt.inApp[$0].productID?.hasSuffix(".monthly") == true }
        search(&s, "receiptexplorer.monthly")
        let hits = s.search.hits
        #expect(!buying.isEmpty && hits.count == buying.count)
        // Each hit in a different purchase, one per purchase of that product.
        let purchases = hits.compactMap { s.additions?.purchaseIndex(containing: $0) }
        #expect(Set(purchases).count == buying.count && purchases.count == buying.count)
        #expect(hits.allSatisfy { s.additions?.meaning(of: $0)?.fieldName?.hasSuffix("product id (in-app 1702)") == true })
        #expect(s.status == StatusMessage("match 1 of \(buying.count) for \"receiptexplorer.monthly\""))
    }

    /// From the purchases view: a hit in a purchase's field lands on that field's row in the tree,
    /// and the table then shows that purchase selected.
    @Test func aHitFromThePurchasesViewSelectsThePurchasesField() throws {
        var s = try load("typical.receipt")
        press(&s, .character("3"))
        #expect(s.mode == .purchases && s.table.row == 0)
        search(&s, "2023-10-02T19:40")
        // Purchase #3's purchase date and original purchase date.
        #expect(s.mode == .tree)
        #expect(s.search.hits.allSatisfy { s.additions?.purchaseIndex(containing: $0) == 2 })
        #expect(s.additions?.meaning(of: s.selectedFileNode)?.fieldName == "in-app purchase #3 · purchase date (in-app 1704)")
        #expect(s.status?.text.hasPrefix("match 1 of \(s.search.hits.count) for \"2023-10-02T19:40\"") == true)
        // `p`: from the field to its purchase's row in the table.
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.additions!.purchases[s.table.order[s.table.row]].number == 3)
        #expect(render(s, size: Self.size).text.contains("2023-10-02T19:40:00Z"))
    }

    @Test func noHitSaysSoAndNKeepsTheSelection() throws {
        var s = try load("typical.receipt")
        let before = s.selectedFileNode
        search(&s, "no-such-product")
        #expect(s.search.hits.isEmpty && s.selectedFileNode == before)
        #expect(s.status == StatusMessage("no match for \"no-such-product\"", isError: true))
        press(&s, .character("n"))
        #expect(s.selectedFileNode == before && s.status == StatusMessage("no match for \"no-such-product\"", isError: true))
        press(&s, .character("3"), .character("N"))
        #expect(s.mode == .purchases && s.status == StatusMessage("no match for \"no-such-product\"", isError: true))
        #expect(render(s, size: Self.size).text.contains("no match for \"no-such-product\""))
    }

    /// A control character typed or pasted into the prompt is not taken; data holding ESC, BEL,
    /// NUL and a bidi override is found and shown escaped; no raw control character is drawn.
    @Test func controlCharactersAreNeverWrittenRaw() throws {
        var s = try load("malformed-hostile-strings.receipt")
        press(&s, .character("/"))
        type(&s, "pwn\u{1b}\u{7}ed\u{0}")
        #expect(s.prompt?.text == "pwned")
        press(&s, .enter)
        // The first purchase's product id `com.example.\e]0;pwned\a.pro\u{202e}\0`: its field, once.
        #expect(s.search.hits.count == 1 && s.search.hits.allSatisfy { s.additions?.purchaseIndex(containing: $0) == 0 })
        let text = render(s, size: Self.size).text
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F || $0 == "\u{202e}" })
        #expect(text.contains("\\x1b]0;pwned\\x07"))
        #expect(s.status == StatusMessage("match 1 of 1 for \"pwned\""))
        // The data's control characters match when escaped text is searched for, never raw.
        search(&s, "red\u{1b}")
        #expect(s.prompt == nil && s.search.query == "red")
    }

    /// The 10,000-purchase receipt: a transaction id finds its purchase's two fields and no other
    /// (the purchases are in DER SET order, not in the order of their ids).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Paths.samples.appendingPathComponent("generated/large-10000.receipt").path)))
    func largeReceiptTransactionId() throws {
        var s = try load("generated/large-10000.receipt")
        search(&s, "3000000000005000")
        let purchase = try #require(s.additions?.purchases.firstIndex { $0.transactionID == "3000000000005000" })
        #expect(s.search.hits.count == 2 && s.search.hits.allSatisfy { s.additions?.purchaseIndex(containing: $0) == purchase })
        let number = s.additions!.purchases[purchase].number
        #expect(s.additions?.meaning(of: s.selectedFileNode)?.fieldName == "in-app purchase #\(number) · transaction id (in-app 1703)")
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.additions!.purchases[s.table.order[s.table.row]].transactionID == "3000000000005000")
    }
}
