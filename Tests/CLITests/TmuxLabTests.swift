import Foundation
import Testing
import TestSupport

/// The tamper lab on a StoreKit 2 token in the real binary: the explorer keeps the options it
/// opened with (`--root`), so an edited signature character re-runs every check (the summary says
/// "ES256 signature: failed"), `u` makes it valid again, and `q` with unsaved edits asks first.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxLabTests {
    @Test func aSignatureCharacterEditedFailsES256AndQuitAsks() throws {
        let token = try Paths.sample("jws/transaction.jws")
        // File offset 4470 is the first character of the signature segment (r).
        let replacement = token[4470] == UInt8(ascii: "A") ? "B" : "A"
        let tmux = try TmuxHarness(arguments: ["samples/jws/transaction.jws", "--root", "samples/pki/test-ec-root.cer"],
                                   width: 120, height: 40)
        defer { tmux.close() }
        try tmux.send("2")
        #expect(tmux.waitForScreen("the summary, valid") { $0.contains("ES256 signature: passed") && $0.contains("Verdict: VALID — valid, anchored at a root you supplied") } != nil)
        try tmux.send("1", ":")
        tmux.waitForText(" Go to offset (decimal or 0x hex):")
        try tmux.type("4470")
        try tmux.send("Enter")
        try tmux.send("b", "Tab", "e")
        tmux.waitForText("New character (type it):")
        try tmux.type(replacement)
        #expect(tmux.waitForScreen("the status naming the failed step") { $0.firstLine.contains("token: ES256 signature: passed → failed") } != nil)
        try tmux.send("2")
        let failed = tmux.waitForScreen("the summary, invalid") {
            $0.contains("ES256 signature: failed — the signature does not match header.payload") && $0.contains("Verdict: INVALID") && $0.statusBar.hasSuffix("INVALID")
        }
        #expect(failed != nil)
        try tmux.send("1", "u", "2")
        #expect(tmux.waitForScreen("the summary, valid again") { $0.contains("ES256 signature: passed") && $0.contains("Verdict: VALID — valid, anchored at a root you supplied") } != nil)
        // Edit again, then q asks; n stays, q y quits.
        try tmux.send("1", "e")
        tmux.waitForText("New character (type it):")
        try tmux.type(replacement)
        #expect(tmux.waitForScreen("the edit") { $0.firstLine.contains("token: ES256 signature: passed → failed") } != nil)
        try tmux.send("q")
        #expect(tmux.waitForText("Quit without writing the tamper-lab edits? (y/n)") != nil)
        try tmux.send("n")
        #expect(tmux.waitForScreen("still running") { $0.firstLine.contains("not quitting: w in the byte pane writes the edited bytes") } != nil)
        try tmux.send("q")
        tmux.waitForText("Quit without writing the tamper-lab edits? (y/n)")
        try tmux.send("y")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore != nil && tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }
}
