import Foundation
import Testing

/// The real binary in tmux: `tour` opens the explorer with the tour running; n steps, q leaves the
/// tour; in the hex pane an edit re-validates and the header says what broke; u undoes; q quits and
/// the terminal is restored.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxTeachingTests {
    @Test func tourThenAnEditOfTheEmbeddedSample() throws {
        let tmux = try TmuxHarness(arguments: ["tour"], width: 120, height: 40)
        defer { tmux.close() }

        let first = tmux.waitForScreen("the tour's first step") {
            $0.contains("Step 1/17: ContentInfo: the PKCS#7 wrapper") && $0.firstLine.contains("tour 1/17: ContentInfo")
        }
        #expect(first?.contains("check: The length octets are 82 1E 02:") == true)
        try tmux.send("n")
        #expect(tmux.waitForScreen("step 2") { $0.contains("Step 2/17: The content type OID, arc by arc") } != nil)
        try tmux.send("q")
        let left = tmux.waitForScreen("the tour left at step 2") { $0.firstLine.contains("left the tour at step 2") }
        #expect(left?.contains("Step 2/17") == false)

        // Hex pane, byte 307 (the bundle id's first character), replace it with 0x43.
        try tmux.send("Tab")
        try tmux.send(":")
        tmux.waitForText(" Go to offset (decimal or 0x hex):")
        try tmux.type("307")
        try tmux.send("Enter")
        #expect(tmux.waitForScreen("offset 307") { $0.firstLine.contains("offset 0x133 (307)") } != nil)
        try tmux.send("e")
        tmux.waitForText("New byte (two hex digits):")
        try tmux.type("43")
        let broken = tmux.waitForScreen("the signature failing") { $0.firstLine.contains("signature: passed → FAILED (signature mismatch)") }
        #expect(broken != nil)
        try tmux.send("u")
        #expect(tmux.waitForScreen("the undo") { $0.firstLine.contains("signature: FAILED (signature mismatch) → passed") } != nil)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore != nil)
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }

    /// `tour TOKEN`, n n n (the JWS tour showed no lesson and `a` answered a question never shown):
    /// each stop's lesson and self-check are on screen, and a answers only a question shown.
    @Test func tokenTourShowsLessonsAndSelfChecks() throws {
        let tmux = try TmuxHarness(arguments: ["tour", "samples/jws/notification.jws"], width: 120, height: 40)
        defer { tmux.close() }
        let first = tmux.waitForScreen("the token tour's first stop") { $0.contains("Step 1/9: A compact JWS: three base64url parts") }
        #expect(first?.contains("check: The header is 3,638 base64url characters:") == true)
        try tmux.send("c")
        #expect(tmux.waitForScreen("the right answer") { $0.firstLine.contains("right: each character carries 6 bits") } != nil)
        try tmux.send("n")
        try tmux.send("n")
        try tmux.send("n")
        let data = tmux.waitForScreen("stop 4") { $0.contains("Step 4/9: The notification's data") }
        #expect(data?.contains("text: data holds appAppleId, bundleId,") == true)
        try tmux.send("a")
        #expect(tmux.waitForScreen("no question here") { $0.firstLine.contains("no question at this step: n goes on") } != nil)
        try tmux.send("n")
        #expect(tmux.waitForScreen("stop 5 and its question") {
            $0.contains("Step 5/9: A nested token: data.signedTransactionInfo") && $0.contains("check: How many certificates does the nested")
        } != nil)
        try tmux.send("q")
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
    }
}
