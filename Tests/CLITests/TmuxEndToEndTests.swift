import Foundation
import Testing
import TestSupport

/// The real binary in a real (tmux) terminal: open a sample, navigate, search, go to an offset,
/// jump to a diagnostic, open the help, focus the hex pane, resize, quit — and the terminal's
/// `stty -g` must be the same before and after, whether the UI ends with `q` or a signal.
/// Serialized: each test starts its own tmux server, and a 2-core CI machine is happier with one
/// at a time.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxEndToEndTests {
    static let typicalStatus = " typical.receipt · 7,686 B · DER"

    @Test func browseTypicalSampleAt120x40() throws {
        // --root: the sample is signed by the TEST PKI; with its root the verdict is "VALID".
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt", "--root", "samples/pki/test-root.cer"],
                                   width: 120, height: 40)
        defer { tmux.close() }

        // First frame: header with the view tabs, status bar with file, size, encoding, the
        // selection (the receipt payload's attribute SET), the counts and the verdict.
        let first = try #require(tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) })
        #expect(first.firstLine.hasPrefix(" receipt-explorer   1 Tree   2 Summary   3 Purchases (10)"))
        #expect(first.firstLine.hasSuffix("? help · q quit"))
        #expect(first.statusBar.hasPrefix(Self.typicalStatus + " · @0x40 · 0 › 1 › 0 › 2 › 1 › 0 › 0 "))
        #expect(first.statusBar.hasSuffix("0 errors · 0 not DER · 0 warnings · VALID"))
        #expect(first.contains("▾ SET (4138)  receipt payload"))
        #expect(first.split(separator: "\n", omittingEmptySubsequences: false).count == 40)

        // Navigate: first row, down twice (OBJECT IDENTIFIER, [0]), right: into [0]'s SEQUENCE.
        try tmux.send("g")
        try tmux.send("j", "j", "l")
        // Each wait names everything it then relies on: a loaded machine may capture mid-draw.
        let moved = tmux.waitForScreen("the selection at 0 › 1 › 0, named in the detail pane") {
            $0.statusBar.contains(" · @0x13 · 0 › 1 › 0 ") && $0.contains("node 3 · path 0 › 1 › 0")
        }
        #expect(moved != nil, "the detail pane names the selected node")

        // Search for a product id: the header reports the hit count.
        try tmux.send("/")
        tmux.waitForText(" Search:")
        try tmux.type("com.example.receiptexplorer.pro")
        tmux.waitForLine(" Search: com.example.receiptexplorer.pro")
        try tmux.send("Enter")
        let found = tmux.waitForScreen("a search hit") {
            $0.firstLine.contains("for \"com.example.receiptexplorer.pro\"") && $0.firstLine.contains("match 1 of ")
        }
        #expect(found != nil)

        // Go to an offset: the deepest node holding byte 0x40 is selected.
        try tmux.send(":")
        tmux.waitForText(" Go to offset (decimal or 0x hex):")
        try tmux.type("0x40")
        try tmux.send("Enter")
        let jumped = tmux.waitForScreen("offset 0x40 selected") {
            $0.statusBar.contains(" · @0x40 · 0 › 1 › 0 › 2 › 1 › 0 › 0 ") && $0.firstLine.hasSuffix("offset 0x40 (64) is in node 12")
        }
        #expect(jumped != nil)

        // Tab focuses the hex pane; its byte cursor moves the selection to the deepest node there.
        try tmux.send("Tab")
        try tmux.send("Right", "Right", "Right", "Right")
        let hex = tmux.waitForScreen("the hex cursor at 0x44") {
            $0.statusBar.contains(" · @0x44 · 0 › 1 › 0 › 2 › 1 › 0 › 0 › 0 ") && $0.contains("receipt field    age rating (attribute 10)")
        }
        #expect(hex != nil)

        // Help overlay, generated from the keymap.
        try tmux.send("?")
        // Wait for the whole overlay, not just its title: a loaded machine may capture mid-draw.
        let help = tmux.waitForScreen("the help overlay") {
            $0.contains("Keys (? or Esc closes, arrows scroll)") && $0.contains("show / hide this help")
                && $0.contains("next node with a diagnostic")
        }
        #expect(help != nil)
        try tmux.send("?")
        tmux.waitForScreen("the help closed") { !$0.contains("Keys (? or Esc closes") }

        // A resize re-lays out at once (KEY_RESIZE), status bar still last.
        try tmux.resize(width: 80, height: 24)
        let narrow = tmux.waitForScreen("the 80×24 layout") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count == 24 && lines.allSatisfy { $0.count <= 80 } && screen.statusBar.hasPrefix(Self.typicalStatus)
                && screen.statusBar.hasSuffix("· VALID") && screen.firstLine.hasSuffix("? help · q quit")
        }
        #expect(narrow?.statusBar == " typical.receipt · 7,686 B · DER · @0x44                       0 errors · VALID")
        #expect(narrow?.firstLine == " receipt-explorer   1 Tree   2 Summary   3 Purchases (10)       ? help · q quit")

        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore != nil)
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
        #expect(tmux.stderr().isEmpty)
    }

    @Test func embeddedSampleAt80x24() throws {
        let tmux = try TmuxHarness(arguments: [], width: 80, height: 24)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the first frame") {
            $0.statusBar.hasPrefix(" embedded sample: typical.receipt · 7,686")
        })
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(screen.firstLine.hasPrefix(" receipt-explorer"))
        // The demo trusts the TEST root for the embedded sample only (the summary names the anchor).
        #expect(screen.statusBar.hasSuffix("· VALID"), "status bar: \(screen.statusBar)")
        try tmux.send("Escape")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    @Test func asciiModeWritesOnlyASCII() throws {
        let tmux = try TmuxHarness(arguments: ["--ascii", "--no-mouse", "--color", "never"], width: 100, height: 30)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the first frame") {
            $0.statusBar.hasPrefix(" embedded sample: typical.receipt | 7,686 B | ")
        })
        #expect(screen.contains("+-"), "ASCII box drawing")
        let nonASCII = screen.unicodeScalars.filter { !$0.isASCII }
        #expect(nonASCII.isEmpty, "non-ASCII on an --ascii screen: \(String(String.UnicodeScalarView(nonASCII)))")
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    @Test func nextDiagnosticOnMalformedSample() throws {
        let tmux = try TmuxHarness(arguments: ["samples/malformed-non-minimal-length.receipt", "--root", "samples/pki/test-root.cer"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(" malformed-non-minimal-length.receipt · 7,687 B") }
        try tmux.send("g")
        try tmux.send("]")
        let screen = tmux.waitForScreen("the jump to the diagnostic") {
            $0.firstLine.contains("length-not-minimal") && $0.statusBar.contains(" · @0x7A ")
        }
        #expect(screen?.firstLine.hasSuffix("diagnostic 1 of 1: der length-not-minimal") == true)
        #expect(screen?.statusBar.contains(" · @0x7A ") == true)
        #expect(screen?.statusBar.hasSuffix("0 errors · 1 not DER · 0 warnings · VALID") == true)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    /// Ctrl-F / Ctrl-B arrive as the control bytes 0x06 / 0x02 and page exactly like PgDn / PgUp.
    @Test func ctrlFPagesLikePageDown() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        try tmux.send("g")
        tmux.waitForScreen("the first row selected") { $0.statusBar.hasPrefix(Self.typicalStatus + " · @0x0 · 0 ") }
        try tmux.send("C-f")
        let paged = try #require(tmux.waitForScreen("a page down") { !$0.statusBar.contains(" · @0x0 · 0 ") })
        try tmux.send("C-b")
        tmux.waitForScreen("back on the first row") { $0.statusBar.hasPrefix(Self.typicalStatus + " · @0x0 · 0 ") }
        try tmux.send("NPage")
        let pageDown = tmux.waitForScreen("PgDn lands where Ctrl-F did") { $0.statusBar == paged.statusBar }
        #expect(pageDown != nil, "Ctrl-F: \(paged.statusBar)")
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
    }

    /// `y` writes OSC 52 to the terminal: with `set-clipboard on`, tmux takes it into its paste
    /// buffer, which must then hold the selected node's bytes as hex, read back from the file.
    @Test func yCopiesTheSelectedNodeThroughOSC52() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        try tmux.command("set-option", "-s", "set-clipboard", "on")
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        try tmux.send(":")
        tmux.waitForText(" Go to offset (decimal or 0x hex):")
        try tmux.type("0x44")
        try tmux.send("Enter")
        tmux.waitForScreen("offset 0x44 selected") { $0.statusBar.contains(" · @0x44") && $0.firstLine.hasSuffix("is in node 13") }
        try tmux.send("y")
        let copied = try #require(tmux.waitForScreen("the copy reported") { $0.firstLine.contains(" as hex to the clipboard (OSC 52)") })
        // " copied N bytes as hex …": N bytes from offset 0x44 of the file.
        let words = copied.firstLine.split(separator: " ")
        let index = try #require(words.firstIndex(of: "copied"))
        let count = try #require(Int(words[index + 1]))
        let file = try Data(contentsOf: cliPackageRoot.appendingPathComponent("samples/typical.receipt"))
        let expected = file[0x44..<(0x44 + count)].map { String(format: "%02x", $0) }.joined()
        #expect(count == 15)   // the age-rating attribute: SEQUENCE { 10, 1, OCTET STRING { IA5String "12+" } }
        #expect(expected == "300d02010a0201010405160331322b")
        #expect(try tmux.command("show-buffer") == expected)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    @Test(.enabled(if: Host.hasProcFS, "finds the binary's pid through /proc"))
    func sigtermRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        try tmux.send("j") // the UI is live, not merely drawn
        let pid = try #require(tmux.binaryPID())
        #expect(kill(pid, SIGTERM) == 0)
        #expect(tmux.waitForExit() == 128 + SIGTERM)
        #expect(tmux.sttyBefore != nil)
        #expect(tmux.sttyBefore == tmux.sttyAfter, "SIGTERM left the terminal in curses modes")
        // endwin() left the alternate screen: the explorer's frame is gone from the pane.
        tmux.waitForScreen("the normal screen back") { !$0.contains("receipt-explorer   1 Tree") }
    }

    @Test func mouseClickSelectsATreeRow() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) })
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(rows.firstIndex { $0.contains("▾ [0] (4146)  eContent") })
        try tmux.click(x: 20, y: row)
        tmux.waitForScreen("the clicked row selected") { $0.statusBar.contains(" · @0x38 · 0 › 1 › 0 › 2 › 1 ") }
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    @Test func ctrlZSuspendsAndFgResumes() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        try tmux.send("C-z")
        // Stopped, with the terminal handed back to the shell in its own modes.
        let suspended = tmux.waitForScreen("the shell's job-control notice") { $0.contains("Stopped") }
        #expect(suspended?.contains("receipt-explorer   1 Tree") == false, "the alternate screen was not left")
        #expect(tmux.sttySuspended != nil)
        #expect(tmux.sttySuspended == tmux.sttyBefore, "while suspended the terminal must be in the shell's modes")
        try tmux.resume()
        tmux.waitForScreen("the explorer redrawn after fg") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        try tmux.send("g")
        tmux.waitForScreen("keys work after resuming") { $0.statusBar.contains(" · @0x0 · 0 ") }
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter, "suspend/resume left the terminal in the wrong modes")
    }

    @Test(.enabled(if: Host.hasProcFS, "finds the binary's pid through /proc"))
    func sighupRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        let pid = try #require(tmux.binaryPID())
        #expect(kill(pid, SIGHUP) == 0)
        #expect(tmux.waitForExit() == 128 + SIGHUP)
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    @Test(.enabled(if: Host.hasProcFS, "finds the binary's pid through /proc"))
    func crashSignalRestoresTheTerminalAndStillCrashes() throws {
        // SWIFT_BACKTRACE=enable=no: no interactive backtracer prompt; the default action follows.
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"], environment: ["SWIFT_BACKTRACE": "enable=no"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        let pid = try #require(tmux.binaryPID())
        #expect(kill(pid, SIGSEGV) == 0)
        // Under Scripts/sanitize.sh the sanitizer takes the SIGSEGV and exits with its own status
        // (ASan 1, TSan 66); the terminal must be restored either way.
        let expected: Int32 = switch ProcessInfo.processInfo.environment["HOSTILE_SANITIZER"] {
        case "address": 1
        case "thread": 66
        default: 128 + SIGSEGV
        }
        #expect(tmux.waitForExit() == expected)
        #expect(tmux.sttyBefore == tmux.sttyAfter, "a crash left the terminal in curses modes")
    }

    @Test func ctrlCRestoresTheTerminal() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"])
        defer { tmux.close() }
        tmux.waitForScreen("the first frame") { $0.statusBar.hasPrefix(Self.typicalStatus) }
        // The real key: the tty driver turns Ctrl-C into SIGINT for the foreground process group
        // (the binary's; the wrapper shell traps it anyway and lives on to record the status).
        try tmux.send("C-c")
        #expect(tmux.waitForExit() == 128 + SIGINT)
        #expect(tmux.sttyBefore == tmux.sttyAfter, "SIGINT left the terminal in curses modes")
    }

    @Test func stdoutNotATerminalExitsTwoInsideTmux() throws {
        // stdin is the terminal, stdout a file: the UI must not start.
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"], stdoutToFile: true)
        defer { tmux.close() }
        #expect(tmux.waitForExit() == 2)
        #expect(tmux.stderr() == Self.notATerminalLine + "\n")
        #expect(tmux.stdout().isEmpty)
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    @Test func dumbTerminalIsRefused() throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"], environment: ["TERM": "dumb"])
        defer { tmux.close() }
        #expect(tmux.waitForExit() == 2)
        #expect(tmux.stderr().hasPrefix("receipt-explorer: TERM=dumb cannot show the full-screen explorer"))
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    /// Issue 35: a TERM this system's terminfo lacks (macOS's has no tmux-256color, which Homebrew's
    /// tmux sets) falls back to a stand-in, draws, and says so in the status message (the header line).
    @Test(arguments: [("tmux-nonesuch-256color", "screen-256color"), ("nonesuch-terminal", "xterm-256color")])
    func unknownTerminalFallsBack(term: String, standIn: String) throws {
        // Wide enough for the whole note beside the header's tabs (the status message's place).
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt"], width: 200, environment: ["TERM": term])
        defer { tmux.close() }
        let note = "TERM=\(term) is not in this system's terminfo: drawing as \(standIn)"
        let first = try #require(tmux.waitForScreen("the first frame, with the stand-in named") { $0.firstLine.contains(note) })
        #expect(first.firstLine.hasPrefix(" receipt-explorer   1 Tree   2 Summary"))
        #expect(first.contains("▾ SET (4138)  receipt payload"))
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.sttyBefore == tmux.sttyAfter)
    }

    static let notATerminalLine =
        "receipt-explorer: the explorer needs a terminal on stdin and stdout; for text output use `receipt-explorer dump FILE` or `receipt-explorer json FILE`"
}

/// Without any terminal at all (how CI runs the other tests), explore refuses at once.
@Suite struct ExploreWithoutTerminalTests {
    @Test func noTerminalExitsTwoWithOneLine() throws {
        let result = try runCLI(["samples/typical.receipt".asSamplePath])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == TmuxEndToEndTests.notATerminalLine + "\n")
    }

    @Test func explicitExploreWithoutFileAlsoRefuses() throws {
        let result = try runCLI(["explore"])
        #expect(result.status == 2)
        #expect(result.stderr == TmuxEndToEndTests.notATerminalLine + "\n")
    }
}

private extension String {
    var asSamplePath: String { cliPackageRoot.appendingPathComponent(self).path }
}
