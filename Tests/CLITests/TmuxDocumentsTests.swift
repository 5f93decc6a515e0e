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
}
