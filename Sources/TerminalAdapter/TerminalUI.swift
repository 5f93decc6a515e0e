import CNcurses
import ExplorerUI

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
    /// `.terminalReady(colors:unicode:)` and `.input(.resize(size))`, then each input event, and
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
        guard cn_newterm() != nil else {
            TerminalSignals.remove()
            throw TerminalUnavailable(.unknownTerminal(POSIX.environment("TERM") ?? ""))
        }
        let session = Session(options: options)
        defer {
            session.shutdown()
            TerminalSignals.remove()
        }
        let abilities = session.capabilities
        _ = reduce(&state, .terminalReady(colors: abilities.colors, unicode: abilities.unicode))
        _ = reduce(&state, .input(.resize(abilities.size)))
        session.loop(state: &state, reduce: reduce, render: render)
    }
}

private final class Session {
    let options: TerminalOptions
    let capabilities: TerminalCapabilities
    let screen: Screen
    let timing: FrameTimingLog?
    private var mouseOn = false
    private let background = BackgroundWork()
    /// How often the loop looks for finished background work while some is running.
    private static let workPollMilliseconds: Int32 = 20

    init(options: TerminalOptions) {
        self.options = options
        cbreak()            // keys at once; Ctrl-C / Ctrl-Z still raise SIGINT / SIGTSTP (handled in shim.h)
        noecho()
        nonl()
        _ = cn_keypad_on()
        _ = intrflush(cn_stdscr(), false)
        _ = set_escdelay(25) // a lone Esc is a key here, not the start of a sequence
        _ = curs_set(0)
        var colors = false
        var defaultColors = false
        if TerminalPreflight.colorsWanted(options.color) && has_colors() {
            colors = start_color() == OK
            defaultColors = colors && use_default_colors() == OK
        }
        if options.mouse { mouseOn = cn_mouse_on() != 0 }
        // `--ascii` is the state's preference, honoured by the renderer; the adapter only falls back to
        // ASCII itself when the locale cannot carry UTF-8 at all.
        let unicode = cn_locale_is_utf8() != 0
        capabilities = TerminalCapabilities(size: Session.currentSize(), colors: colors, unicode: unicode)
        screen = Screen(colors: colors, unicode: unicode, defaultColors: defaultColors)
        timing = options.timingLogPath.flatMap { FrameTimingLog(path: $0) }
    }

    static func currentSize() -> GridSize { GridSize(width: Int(cn_cols()), height: Int(cn_lines())) }

    func shutdown() {
        if mouseOn { cn_mouse_off() }
        _ = curs_set(1)
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
        _ = cn_wnoutrefresh()
        _ = doupdate()
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
                    _ = doupdate()
                    _ = reduce(&state, .effectFinished(effect, error: EffectPerformer.perform(effect)))
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
            _ = cn_wnoutrefresh()
            _ = doupdate()
            let done = ContinuousClock.now
            timing?.frame(events: events, reduce: reduced - started, render: rendered - reduced,
                          copy: copied - rendered, refresh: done - copied, cells: cells)
        }
    }

    /// One decoded event, or nil (nothing pending when not blocking; an error when blocking).
    /// `timeout` (milliseconds, -1 for none) bounds a blocking wait.
    private func readEvent(blocking: Bool, timeout: Int32 = -1) -> InputEvent? {
        wtimeout(cn_stdscr(), blocking ? timeout : 0)
        while true {
            var code: UInt32 = 0
            let status = cn_get_wch(&code)
            if status == ERR { return nil }
            let event: InputEvent?
            if status == cn_key_code_yes() {
                switch Int32(bitPattern: code) {
                case KEY_RESIZE: event = .resize(Session.currentSize())
                case KEY_MOUSE: event = KeyDecoder.mouse()
                default: event = KeyDecoder.keyCode(Int32(bitPattern: code))
                }
            } else if code == 0x1B {
                event = lastEscapeWasAlone() ? .escape : nil
            } else {
                event = KeyDecoder.character(code)
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
        wtimeout(cn_stdscr(), 0)
        var code: UInt32 = 0
        var status = cn_get_wch(&code)
        if status == ERR { return true }
        if status == OK && (code == 0x5B || code == 0x4F) { // CSI or SS3: read up to the final byte
            for _ in 0..<32 {
                status = cn_get_wch(&code)
                if status == ERR || (status == OK && code >= 0x40 && code <= 0x7E) { break }
            }
        }
        return false
    }
}
