import Foundation
import Testing

/// Several documents in the real binary: a receipt and a StoreKit 2 token open, `}` / `{` switch
/// between them, each keeps its own selection, the token shows its layer outline, and the terminal
/// is restored afterwards.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxDocumentsTests {
    @Test func twoDocumentsSwitchAndKeepTheirSelection() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt", "samples/jws/transaction.jws",
                                               "--root", "samples/pki/test-root.cer"], width: 120, height: 40)
        defer { tmux.close() }
        let first = try #require(tmux.waitForScreen("the first document") {
            $0.statusBar.hasPrefix(TmuxEndToEndTests.typicalStatus) && $0.firstLine.contains(" doc 1/2 ")
        })
        #expect(first.firstLine.hasPrefix(" receipt-explorer   1 Tree   2 Summary   3 Purchases (10)   doc 1/2 "))

        // Select the first row of the typical receipt, then switch: the token's outline shows.
        try tmux.send("g")
        tmux.waitForScreen("the first row selected") { $0.statusBar.hasPrefix(TmuxEndToEndTests.typicalStatus + " · @0x0 · 0 ") }
        try tmux.send("}")
        let second = try #require(tmux.waitForScreen("the second document") {
            $0.statusBar.hasPrefix(" transaction.jws · 4,556 B · JWS") && $0.firstLine.contains(" doc 2/2 ")
                && $0.contains("▾ token  StoreKit 2 transaction · ES256, 3")
        })
        #expect(second.firstLine.hasSuffix("document 2 of 2: transaction.jws"))
        #expect(second.contains("transactionId  2000000510000004"))
        #expect(second.contains("Tree 270 rows, all layers"))

        // Back: the typical receipt's selection (the first row) is still there.
        try tmux.send("{")
        let back = tmux.waitForScreen("the first document again") {
            $0.statusBar.hasPrefix(TmuxEndToEndTests.typicalStatus + " · @0x0 · 0 ") && $0.firstLine.contains(" doc 1/2 ")
        }
        #expect(back?.firstLine.hasSuffix("document 1 of 2: typical.receipt") == true)

        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }

    /// `d` with two receipts open shows the same semantic diff `receipt-explorer diff` prints: the
    /// refund of samples/diff, with its fields, in an overlay that Esc closes.
    @Test func dShowsTheDiffOfTheTwoOpenDocuments() throws {
        let tmux = try TmuxHarness(arguments: ["samples/diff/base.receipt", "samples/diff/refund.receipt", "--no-validate"],
                                   width: 120, height: 40)
        defer { tmux.close() }
        _ = try #require(tmux.waitForScreen("the first document") { $0.firstLine.contains(" doc 1/2 ") })
        try tmux.send("d")
        let diff = try #require(tmux.waitForScreen("the diff overlay") {
            $0.contains("refund com.example.receiptexplorer.pro [2000000600000002]")
                && $0.contains("attribute-changed cancellation date (in-app 1712)")
        })
        #expect(diff.contains("attribute-added cancellation reason (in-app 1720)"))
        #expect(diff.contains("base.receipt") && diff.contains("refund.receipt"))
        try tmux.send("Escape")
        _ = try #require(tmux.waitForScreen("the overlay closed") {
            !$0.contains("attribute-changed cancellation date (in-app 1712)") && $0.firstLine.contains(" doc 1/2 ")
        })
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }
}
