import Foundation
import Testing

/// Several documents in the real binary: two files open, `}` / `{` switch between them, each keeps
/// its own selection, and the terminal is restored afterwards.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxDocumentsTests {
    @Test func twoDocumentsSwitchAndKeepTheirSelection() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt", "samples/minimal.receipt",
                                               "--root", "samples/pki/test-root.cer"], width: 120, height: 40)
        defer { tmux.close() }
        let first = try #require(tmux.waitForScreen("the first document") {
            $0.statusBar.hasPrefix(TmuxEndToEndTests.typicalStatus) && $0.firstLine.contains(" doc 1/2 ")
        })
        #expect(first.firstLine.hasPrefix(" receipt-explorer   1 Tree   2 Summary   3 Purchases (10)   doc 1/2 "))

        // Select the first row of the typical receipt, then switch: the minimal receipt shows.
        try tmux.send("g")
        tmux.waitForScreen("the first row selected") { $0.statusBar.hasPrefix(TmuxEndToEndTests.typicalStatus + " · @0x0 · 0 ") }
        try tmux.send("}")
        let second = try #require(tmux.waitForScreen("the second document") {
            $0.statusBar.hasPrefix(" minimal.receipt · ") && $0.firstLine.contains(" doc 2/2 ")
        })
        #expect(second.firstLine.hasSuffix("document 2 of 2: minimal.receipt"))

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
