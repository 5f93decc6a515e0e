import CNcursesShim
import ExplorerUI
import Platform

/// The ncurses adapter: the only code that touches curses. It reads input, translates it into
/// `InputEvent`s, hands them to the pure reducer, performs the reducer's effects, asks the pure
/// renderer for a grid and copies that grid to the screen. It knows nothing about receipts.
public enum TerminalUI {
    /// Runs the UI until the reducer returns `.quit`. Throws `TerminalUnavailable` when the
    /// terminal cannot host the UI; curses is never left active.
    ///
    /// The state is built by the caller before the terminal is taken over (so loading errors print
    /// normally and a big file's parse does not stare at a blank screen). Everything the adapter
    /// learns or does reaches the state as a message through `reduce`: first
    /// `.terminalReady` (colours, Unicode, a stand-in terminal description, the clipboard route) and
    /// `.input(.resize(size))`, then each input event, and
    /// `.effectFinished` after performing an effect the reducer asked for. Slow work an effect
    /// stands for (`Effect.work`) runs on a worker thread; its message arrives when it is done,
    /// while the screen keeps answering keys.
    public static func run<State>(
        options: TerminalOptions,
        state: inout State,
        reduce: (inout State, Message) -> Effect?,
        render: (State, GridSize) -> Grid
    ) throws {
        if let refusal = TerminalPreflight.check() { throw refusal }
        POSIX.adoptEnvironmentLocale()
        TerminalSignals.install()
        let term = POSIX.environment("TERM") ?? ""
        if let problem = cn_load() {
            TerminalSignals.remove()
            throw TerminalUnavailable(.cursesUnavailable(String(cString: problem)))
        }
        guard let standIn = startCurses(term: term) else {
            TerminalSignals.remove()
            throw TerminalUnavailable(.unknownTerminal(term))
        }
        let clipboard = ClipboardRoute.choose(termProgram: POSIX.environment("TERM_PROGRAM"), copyCommand: Pasteboard.copyCommand)
        let session = Session(options: options, clipboard: clipboard)
        defer {
            session.shutdown()
            TerminalSignals.remove()
        }
        let abilities = session.capabilities
        _ = reduce(&state, .terminalReady(colors: abilities.colors, unicode: abilities.unicode,
                                          terminal: standIn.isEmpty ? nil : TerminalSubstitute(wanted: term, used: standIn),
                                          clipboard: clipboard))
        _ = reduce(&state, .input(.resize(abilities.size)))
        session.loop(state: &state, reduce: reduce, render: render)
    }
}

/// Starts curses with `term`'s description, or else with the first stand-in this system's
/// terminfo has (`TerminalNames.fallbacks`): the stand-in's name, "" when `term` itself worked,
/// nil when nothing did.
private func startCurses(term: String) -> String? {
    if cn_newterm(nil) != 0 { return "" }
    return TerminalNames.fallbacks(for: term).first { cn_newterm($0) != 0 }
}

private final class Session {
    let options: TerminalOptions
    let capabilities: TerminalCapabilities
    let screen: Screen
    let timing: FrameTimingLog?
    private var mouseOn = false
    private let mouse = MouseABI.compiled
    private let clipboard: ClipboardRoute
    private let background = BackgroundWork()
    /// How often the loop looks for finished background work while some is running.
    private static let workPollMilliseconds: Int32 = 20

    init(options: TerminalOptions, clipboard: ClipboardRoute) {
        self.options = options
        self.clipboard = clipboard
        cn_setup_input()
        var colors = false
        var defaultColors: Int32 = 0
        if TerminalPreflight.colorsWanted(options.color) {
            colors = cn_start_colors(&defaultColors) != 0
        }
        if options.mouse { mouseOn = cn_mouse_on(mouse.wanted) != 0 }
        // `--ascii` is the state's preference, honoured by the renderer; the adapter only falls back to
        // ASCII itself when the locale cannot carry UTF-8 at all.
        let unicode = cn_locale_is_utf8() != 0
        capabilities = TerminalCapabilities(size: Session.currentSize(), colors: colors, unicode: unicode)
        screen = Screen(colors: colors, unicode: unicode, defaultColors: defaultColors != 0)
        timing = options.timingLogPath.flatMap { FrameTimingLog(path: $0) }
    }

    static func currentSize() -> GridSize { GridSize(width: Int(cn_cols()), height: Int(cn_lines())) }

    func shutdown() {
        if mouseOn { cn_mouse_off() }
        cn_show_cursor(1)
        cn_restore_terminal() // endwin() unless a signal handler already did
        timing?.close()
    }

    func loop<State>(state: inout State, reduce: (inout State, Message) -> Effect?, render: (State, GridSize) -> Grid) {
        var size = Session.currentSize()
        // First frame.
        let beforeRender = ContinuousClock.now
        let grid = render(state, size)
        let afterRender = ContinuousClock.now
        let cells = screen.copy(grid)
        let afterCopy = ContinuousClock.now
        cn_refresh()
        let shown = ContinuousClock.now
        timing?.firstFrame(sinceStart: shown - options.startedAt, setup: beforeRender - options.startedAt,
                           phases: options.setupPhases, render: afterRender - beforeRender, copy: afterCopy - afterRender,
                           refresh: shown - afterCopy, cells: cells, size: size)

        var errors = 0
        while true {
            // While background work runs, wait for a key only briefly, then look for its result.
            let waiting = background.outstanding > 0
            let first = readEvent(blocking: true, timeout: waiting ? Session.workPollMilliseconds : -1)
            let results = background.collect()
            guard first != nil || !results.isEmpty else {
                if waiting { continue }
                // get_wch failed without a signal to blame: the terminal is gone (EOF / hang-up).
                if !POSIX.interrupted { errors += 1 }
                if errors > 50 { return }
                continue
            }
            errors = 0
            let started = ContinuousClock.now
            var events = first.map { [$0] } ?? []
            // Typeahead (a held-down key) is reduced in one go and drawn once.
            while !events.isEmpty, events.count < 64, let more = readEvent(blocking: false) { events.append(more) }
            var quit = false
            for message in results + events.map(Message.input) {
                var message = message
                if case .input(.resize) = message {
                    size = Session.currentSize()
                    message = .input(.resize(size))
                    screen.invalidate()
                }
                switch reduce(&state, message) {
                case .quit?:
                    quit = true
                case let effect? where effect.work != nil:
                    // Slow work (a lab re-open, a diff): off the key-press path; the frame drawn
                    // now shows the state's "re-checking…" status.
                    background.start(effect.work!)
                case let effect?:
                    // Flush the frame first so an escape sequence (OSC 52) never lands inside curses' output.
                    cn_doupdate()
                    _ = reduce(&state, .effectFinished(effect, error: EffectPerformer.perform(effect, clipboard: clipboard)))
                case nil:
                    break
                }
                if quit { break }
            }
            if quit { return }
            let reduced = ContinuousClock.now
            let grid = render(state, size)
            let rendered = ContinuousClock.now
            let cells = screen.copy(grid)
            let copied = ContinuousClock.now
            cn_refresh()
            let done = ContinuousClock.now
            timing?.frame(events: events, reduce: reduced - started, render: rendered - reduced,
                          copy: copied - rendered, refresh: done - copied, cells: cells)
        }
    }

    /// One decoded event, or nil (nothing pending when not blocking; an error when blocking).
    /// `timeout` (milliseconds, -1 for none) bounds a blocking wait.
    private func readEvent(blocking: Bool, timeout: Int32 = -1) -> InputEvent? {
        while true {
            var code: UInt32 = 0
            let input = cn_read(blocking ? timeout : 0, &code)
            let event: InputEvent?
            switch Int(input) {
            case CN_INPUT_KEY:
                switch Int(code) {
                case CN_KEY_RESIZE: event = .resize(Session.currentSize())
                case CN_KEY_MOUSE: event = KeyDecoder.mouse(mouse)
                default: event = KeyDecoder.key(Int32(code))
                }
            case CN_INPUT_CHARACTER:
                event = code == 0x1B ? (lastEscapeWasAlone() ? .escape : nil) : KeyDecoder.character(code)
            default:
                return nil
            }
            if let event { return event }
            if !blocking { return nil }
            // An ignored key while blocking: keep waiting for one that means something.
        }
    }

    /// After ESC (and ncurses' short ESCDELAY), anything already waiting belongs to an escape
    /// sequence curses did not recognise (or an Alt-chord): swallow it rather than quitting and
    /// then interpreting its bytes as keys.
    private func lastEscapeWasAlone() -> Bool {
        var code: UInt32 = 0
        var input = cn_read(0, &code)
        if Int(input) == CN_INPUT_NONE { return true }
        if Int(input) == CN_INPUT_CHARACTER && (code == 0x5B || code == 0x4F) { // CSI or SS3: read up to the final byte
            for _ in 0..<32 {
                input = cn_read(0, &code)
                if Int(input) == CN_INPUT_NONE || (Int(input) == CN_INPUT_CHARACTER && code >= 0x40 && code <= 0x7E) { break }
            }
        }
        return false
    }
}
