import ASN1Lenient
import DocumentCore
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI

/// Receipts in the one outline: the features that had a tree branch (tamper lab, `]`, the purchase
/// filter) work the same way on a receipt and on a StoreKit token.
@Suite struct ReceiptOutlineTests {
    /// `e` in the byte pane of a receipt and of a token: the same outline edit (the byte under the
    /// byte pane's cursor in its layer, re-opened as an effect), and the panes come back to the
    /// same layer and offset.
    @Test func aLabEditOnAReceiptAndOnATokenTakesTheSamePath() throws {
        var receipt = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&receipt, .character(":"))
        type(&receipt, "0x44")
        press(&receipt, .enter, .tab, .character("e"))
        #expect(receipt.prompt?.kind == .editByte && receipt.shownLayer == .file && receipt.outlineView.cursor == 0x44)
        #expect(receipt.tree.bytes[0x44] == 0x30)
        type(&receipt, "00")
        #expect(receipt.teaching.lab?.bytes[0x44] == 0x00)
        #expect(receipt.status == StatusMessage("contents: passed → FAILED (2 errors, first stray-eoc); signature: passed → FAILED (signature mismatch) (+2 more)", isError: true))
        #expect(receipt.shownLayer == .file && receipt.outlineView.cursor == 0x44 && receipt.selectedFileNode == 13)

        var token = try LabJWSTests.state("jws/transaction.jws")
        token.selectOutlineRow(try JWSOutlineTests.row(token, "r"))
        press(&token, .character("b"), .tab, .character("e"))
        #expect(token.prompt?.kind == .editCharacter && token.shownLayer == .file && token.outlineView.cursor == 4470)
        type(&token, "A")
        #expect(token.teaching.lab?.bytes[4470] == UInt8(ascii: "A"))
        #expect(token.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
        #expect(token.shownLayer == .file && token.outlineView.cursor == 4470 && token.outlineRow?.label == "r")
    }

    /// `]` on a receipt walks the outline's diagnostic stops: the truncated receipt's second stop
    /// is node 2 (the [0] EXPLICIT at offset 15), an error.
    @Test func bracketJumpsToAReceiptDiagnosticThroughTheOutline() throws {
        var s = try #require(Fixtures.sampleState("malformed-truncated.receipt", size: GridSize(width: 120, height: 40)))
        let stops = s.outline.diagnosticStops
        #expect(stops.count == 13 && stops.allSatisfy { $0.layer == .file })
        press(&s, .character("g"), .character("]"))
        #expect(s.outlineView.selection == stops[1].row && s.selectedFileNode == 2 && s.tree.nodes[2].offset == 15)
        #expect(s.status == StatusMessage("diagnostic 2 of 13: error truncated-content", isError: true))
        press(&s, .character("["), .character("["))
        #expect(s.outlineView.selection == stops[12].row)
        #expect(s.status?.text.hasSuffix("(wrapped to the last)") == true)
    }

    /// `f` in the purchases view keeps the same rows by the same rule on a receipt (in-app
    /// purchases) and on a token (transactions), and Enter goes to the row's outline row.
    @Test func thePurchaseFilterWorksOnAReceiptAndOnAToken() throws {
        var receipt = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&receipt, .character("3"), .character("f"))
        type(&receipt, "monthly")
        press(&receipt, .enter)
        #expect(receipt.table.order == [5, 6, 7, 8, 9])
        #expect(receipt.status == StatusMessage("5 of 10 rows hold \"monthly\" (Esc clears the filter)"))
        press(&receipt, .enter)
        guard case .node(let node, _) = receipt.additions!.purchases[5].target else { Issue.record("not a node"); return }
        #expect(receipt.mode == .tree && receipt.selectedFileNode == node.index)
        #expect(receipt.status == StatusMessage("in-app purchase #6 in the tree (p goes back)"))

        var token = try LabJWSTests.state("jws/transaction-history.json")
        #expect(token.additions?.purchases.map(\.transactionID) == ["2000000510000003", "2000000510000004"])
        press(&token, .character("3"), .character("f"))
        type(&token, "510000004")
        press(&token, .enter)
        #expect(token.table.order == [1])
        #expect(token.status == StatusMessage("1 of 2 rows hold \"510000004\" (Esc clears the filter)"))
        press(&token, .enter)
        guard case .layer(let layer) = token.additions!.purchases[1].target else { Issue.record("not a token"); return }
        #expect(token.mode == .tree && token.outlineRow?.node == NodeID(layer, 0))
        #expect(token.status == StatusMessage("transaction #2 in the tree (p goes back)"))
    }
}
