import Foundation
import Testing

/// `receipt-explorer diff A B --explore` in the real binary: the explorer opens on both documents
/// with the diff list already shown (the overlay `d` opens, each entry with its decoded old → new),
/// Enter and 2 go to an entry's node in A and B, and the terminal is restored afterwards.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxDiffTests {
    @Test func diffExploreOpensWithTheListShown() throws {
        let tmux = try TmuxHarness(arguments: ["diff", "samples/diff/base.receipt", "samples/diff/refund.receipt", "--explore"],
                                   width: 120, height: 40)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the diff overlay") {
            $0.contains("refund com.example.receiptexplorer.pro [2000000600000002]") && $0.firstLine.contains(" doc 1/2 ")
        })
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(screen.firstLine.hasSuffix("doc 1/2                                        7 differences"))
        // The overlay's rows, between its side borders (the panes behind show at the edges).
        let overlay = lines.compactMap { line -> String? in
            let cells = Array(line)
            guard cells.count == 120, cells[12] == "│", cells[107] == "│", cells[13] != "─" else { return nil }
            return String(cells[13..<107]).trimmingCharacters(in: .whitespaces)
        }
        #expect(overlay == [
            "1 base.receipt  ⇄  2 refund.receipt",
            "› refund com.example.receiptexplorer.pro [2000000600000002] — cancellation date appeared: 2…",
            "attribute-changed cancellation date (in-app 1712): \"\" → \"2024-02-28T10:00:00Z\"",
            "attribute-added cancellation reason (in-app 1720)",
            "signature-changed signature: \"256 bytes 4b8e84d5155f27d7…\" → \"256 bytes 2061fc7452148d03…\"",
            "content-changed SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING > SET …",
            "node-added SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING > SET > SEQ…",
            "content-changed SEQUENCE > [0][1] > SEQUENCE > SET[4] > SEQUENCE > OCTET STRING[4]: (256 …",
            "",
            "1 node 56 of layer 0 @304-663  \"com.example.receiptexplorer.pro\"",
            "2 node 341 of layer 0 @1449-1842  \"com.example.receiptexplorer.pro\"",
            "Enter / 1: go to it in 1 · 2: in 2",
            "",
        ])
        #expect(lines.contains { $0.contains("┌─ Diff (d or Esc closes) ─") })
        #expect(screen.statusBar.hasPrefix(" base.receipt · 5,289 B · DER"))
        // Enter goes to the cancellation date's node in A (document 1), d comes back, 2 goes to B's.
        try tmux.send("j", "Enter")
        let inA = tmux.waitForScreen("the cancellation date in A") {
            !$0.contains("Diff (d or Esc closes)") && $0.firstLine.contains(" doc 1/2 ") && $0.firstLine.contains("difference 2 of 7 in document 1")
                && $0.contains("node 75 · path")
        }
        #expect(inA != nil)
        try tmux.send("d")
        tmux.waitForText("›   attribute-changed cancellation date (in-app 1712)")
        try tmux.send("2")
        let inB = tmux.waitForScreen("the cancellation date in B") {
            $0.firstLine.contains(" doc 2/2 ") && $0.firstLine.contains("difference 2 of 7 in document 2") && $0.contains("node 435 · path")
        }
        #expect(inB != nil)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.stderr() == "")
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }

    /// With stdout redirected, `--explore` is refused before anything is drawn.
    @Test func diffExploreRefusesARedirectedStdout() throws {
        let tmux = try TmuxHarness(arguments: ["diff", "samples/diff/base.receipt", "samples/diff/refund.receipt", "--explore"],
                                   width: 80, height: 24, stdoutToFile: true)
        defer { tmux.close() }
        #expect(tmux.waitForExit() == 2)
        #expect(tmux.stdout() == "")
        #expect(tmux.stderr() == "receipt-explorer: --explore needs a terminal on stdin and stdout; drop --explore to print the diff as text (or add --format json)\n")
    }
}
