import ExplorerUI
import Platform
import TerminalAdapter
import Testing

/// Issue 35's run-time differences, decided by pure functions so that Linux tests cover the macOS paths.
@Suite struct PortabilityTests {
    // MARK: mouse

    /// ncurses 5 (the macOS SDK, mouse ABI 1): six bits per button, REPORT_MOUSE_POSITION is
    /// 0o10 << 24 = 0x8000000, BUTTON4_PRESSED 0o2 << 18 = 0x80000, no BUTTON5_PRESSED.
    @Test func oldMouseABIBitsAreNcurses5s() {
        let old = MouseABI(version: 1)
        #expect(old.button1Pressed == 0x2 && old.button1Clicked == 0x4)
        #expect(old.button2Pressed == 0x80)
        #expect(old.button4Pressed == 0x80000)
        #expect(old.button5Pressed == 0)
        #expect(old.reportMousePosition == 0x8000000)
        #expect(old.wanted == 0x2 | 0x4 | 0x80 | 0x80000 | 0x8000000)
    }

    /// ncurses 6 (ABI 2): five bits per button, BUTTON5_PRESSED 0o2 << 20, REPORT_MOUSE_POSITION 0o10 << 25.
    @Test func newMouseABIBitsAreNcurses6s() {
        let new = MouseABI(version: 2)
        #expect(new.button4Pressed == 0x10000)
        #expect(new.button5Pressed == 0x200000)
        #expect(new.reportMousePosition == 0x10000000)
        #expect(new.wanted == 0x2 | 0x4 | 0x10000 | 0x200000)
    }

    @Test func wheelDownOnTheOldABI() {
        let old = MouseABI(version: 1)
        #expect(old.decode(0x80000, x: 3, y: 4) == .wheelUp(x: 3, y: 4))
        // ncurses 5.8 and later: a lone position report stands for button 5's press.
        #expect(old.decode(0x8000000, x: 3, y: 4) == .wheelDown(x: 3, y: 4))
        // ncurses 5.7 and earlier: a button-2 press.
        #expect(old.decode(0x80, x: 5, y: 6) == .wheelDown(x: 5, y: 6))
        #expect(old.decode(0x2, x: 1, y: 2) == .mouseClick(x: 1, y: 2))
        #expect(old.decode(0x4, x: 1, y: 2) == .mouseClick(x: 1, y: 2))
        #expect(old.decode(0x1, x: 1, y: 2) == nil)  // button 1 released
        #expect(old.decode(0x8000000 | 0x2, x: 1, y: 2) == .mouseClick(x: 1, y: 2))  // a press that moved is a click
    }

    @Test func wheelOnTheNewABI() {
        let new = MouseABI(version: 2)
        #expect(new.decode(0x10000, x: 0, y: 9) == .wheelUp(x: 0, y: 9))
        #expect(new.decode(0x200000, x: 0, y: 9) == .wheelDown(x: 0, y: 9))
        #expect(new.decode(0x40, x: 0, y: 9) == nil)  // button 2 pressed means nothing here
        #expect(new.decode(0x10000000, x: 0, y: 9) == nil)
    }

    /// The decoder's arithmetic agrees with the curses.h this binary was built against (ncurses 6
    /// on Linux; on macOS CI, the SDK's ncurses 5.7).
    @Test func decoderMatchesTheCompiledHeader() {
        let abi = MouseABI.compiled
        let header = MouseABI.headerMasks()
        #expect(abi.button1Pressed == header.button1Pressed)
        #expect(abi.button1Clicked == header.button1Clicked)
        #expect(abi.button2Pressed == header.button2Pressed)
        #expect(abi.button4Pressed == header.button4Pressed)
        #expect(abi.button5Pressed == header.button5Pressed)
        #expect(abi.reportMousePosition == header.reportMousePosition)
    }

    // MARK: terminal names

    @Test func terminalFallbacks() {
        #expect(TerminalNames.fallbacks(for: "tmux-256color") == ["screen-256color", "xterm-256color"])
        #expect(TerminalNames.fallbacks(for: "screen-256color") == ["xterm-256color"])
        #expect(TerminalNames.fallbacks(for: "xterm-kitty") == ["xterm-256color"])
        #expect(TerminalNames.fallbacks(for: "xterm-256color") == [])
    }

    @Test func terminalFallbackIsSaidInTheStatusLine() throws {
        var state = try #require(Fixtures.sampleState("typical.receipt"))
        reduce(&state, .terminalReady(colors: true, unicode: true, terminal: TerminalSubstitute(wanted: "tmux-256color", used: "screen-256color")))
        #expect(state.status?.text == "TERM=tmux-256color is not in this system's terminfo: drawing as screen-256color")
    }

    // MARK: clipboard

    @Test func appleTerminalCopiesThroughPbcopy() {
        #expect(ClipboardRoute.choose(termProgram: "Apple_Terminal", copyCommand: "/usr/bin/pbcopy") == .command("/usr/bin/pbcopy"))
        #expect(ClipboardRoute.choose(termProgram: "iTerm.app", copyCommand: "/usr/bin/pbcopy") == .osc52)
        #expect(ClipboardRoute.choose(termProgram: "tmux", copyCommand: "/usr/bin/pbcopy") == .osc52)
        #expect(ClipboardRoute.choose(termProgram: nil, copyCommand: "/usr/bin/pbcopy") == .osc52)
        // Linux has no copy command: Apple's Terminal over SSH still gets OSC 52 (and ignores it).
        #expect(ClipboardRoute.choose(termProgram: "Apple_Terminal", copyCommand: nil) == .osc52)
        #expect(ClipboardRoute.command("/usr/bin/pbcopy").name == "pbcopy")
        #expect(ClipboardRoute.osc52.name == "OSC 52")
    }

    @Test func statusLineSaysWhichWayItCopied() throws {
        var state = try #require(Fixtures.sampleState("typical.receipt"))
        reduce(&state, .terminalReady(colors: true, unicode: true, clipboard: .command("/usr/bin/pbcopy")))
        let effect = Effect.copyToClipboard(text: "3082", byteCount: 2, totalBytes: 2)
        reduce(&state, .effectFinished(effect, error: nil))
        #expect(state.status?.text == "copied 2 bytes as hex to the clipboard (pbcopy)")
        reduce(&state, .terminalReady(colors: true, unicode: true))
        reduce(&state, .effectFinished(effect, error: nil))
        #expect(state.status?.text == "copied 2 bytes as hex to the clipboard (OSC 52)")
    }

    /// The copy command really receives the text on its standard input (`cat` stands in for
    /// pbcopy, which Linux lacks; the spawning is the same code).
    @Test func aCopyCommandGetsTheTextOnStdin() throws {
        let out = "/tmp/pasteboard-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        defer { unlink(out) }
        let result = Spawn.run("/bin/sh", ["-c", "cat > '\(out)'"], environment: ["PATH": "/usr/bin:/bin"], input: .bytes(Array("30 82 01".utf8)))
        #expect(try result.get() == 0)
        #expect(Pasteboard.copy("x", command: "/bin/false", environment: [:]) == "/bin/false exited with status 1")
        let file = try #require(fopen(out, "r"))
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = fread(&buffer, 1, 64, file)
        #expect(String(decoding: buffer[..<n], as: UTF8.self) == "30 82 01")
    }

    // MARK: units and numbers

    @Test func platformFacts() {
        switch HostSystem.current {
        case .linux:
            #expect(ResourceUsage.bytes(fromMaxResidentSet: 2) == 2048)  // KiB
            #expect(SignalNumbers.stoppedJobStatus == 148)              // 128 + SIGTSTP (20)
            #expect(Locales.utf8 == "C.UTF-8")
            #expect(Pasteboard.copyCommand == nil)
            #expect(MemoryAdvice.hugePages != nil)
        case .macOS:
            #expect(ResourceUsage.bytes(fromMaxResidentSet: 2) == 2)     // bytes
            #expect(SignalNumbers.stoppedJobStatus == 146)              // 128 + SIGTSTP (18)
            #expect(Locales.utf8 == "en_US.UTF-8")
            #expect(Pasteboard.copyCommand == "/usr/bin/pbcopy")
            #expect(MemoryAdvice.hugePages == nil)
        }
    }

    /// The test bundle itself (swift-testing's runner on Linux, xctest on macOS): a path that exists.
    @Test func executablePathIsThisProcess() throws {
        let path = try #require(ExecutablePath.current())
        #expect(path.hasPrefix("/"))
        #expect(access(path, X_OK) == 0)
    }

    @Test func environmentIsRead() {
        let environment = ProcessEnvironment.current()
        #expect(environment["PATH"] == POSIX.environment("PATH"))
    }
}
