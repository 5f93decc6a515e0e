import Foundation
import Testing

/// `receipt-explorer diff A B --explore` in the real binary: the explorer opens on both documents
/// with the diff list already shown (the overlay `d` opens), Esc closes it, and the terminal is
/// restored afterwards.
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
            "attribute-changed cancellation date (in-app 1712)",
            "attribute-added cancellation reason (in-app 1720)",
            "signature-changed signature",
            "content-changed SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING > SET …",
            "node-added SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING > SET > SEQ…",
            "content-changed SEQUENCE > [0][1] > SEQUENCE > SET[4] > SEQUENCE > OCTET STRING[4]",
            "",
            "1 node 56 of layer 0 @304..<664  30 82 01 64 02 01 11 02 01 01 04 82 01 5a 31 82 01 56 30 0…",
            "2 node 341 of layer 0 @1449..<1843  30 82 01 86 02 01 11 02 01 01 04 82 01 7c 31 82 01 78 3…",
            "",
        ])
        #expect(lines.contains { $0.contains("┌─ Diff (d or Esc closes) ─") })
        #expect(screen.statusBar.hasPrefix(" base.receipt · 5,289 B · DER"))
        try tmux.send("Escape")
        _ = try #require(tmux.waitForScreen("the overlay closed") {
            !$0.contains("Diff (d or Esc closes)") && $0.firstLine.contains(" doc 1/2 ")
        })
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
