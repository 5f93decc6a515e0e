import ExplorerUI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--color auto|always|never`.
public enum ColorMode: String, Sendable, CaseIterable {
    case auto, always, never
}

/// What the user asked for on the command line and in the environment.
public struct TerminalOptions: Sendable {
    public var color: ColorMode
    /// `--ascii`: no box-drawing or other non-ASCII glyphs from the UI itself.
    public var ascii: Bool
    /// `--no-mouse` turns mouse reporting off.
    public var mouse: Bool
    /// Where frame timings go (`RECEIPT_EXPLORER_TIMING`); nil: no timing.
    public var timingLogPath: String?
    /// When the command started, so the first frame's time includes loading and analysis.
    public var startedAt: ContinuousClock.Instant
    /// Named phases of the setup before the terminal was taken over (e.g. "load", "analyse"),
    /// written into the timing log's first-frame line.
    public var setupPhases: [(name: String, duration: Duration)] = []

    public init(color: ColorMode = .auto, ascii: Bool = false, mouse: Bool = true,
                timingLogPath: String? = nil, startedAt: ContinuousClock.Instant = .now) {
        self.color = color
        self.ascii = ascii
        self.mouse = mouse
        self.timingLogPath = timingLogPath
        self.startedAt = startedAt
    }

    /// `RECEIPT_EXPLORER_TIMING=PATH` logs frame timings to PATH (`1` means
    /// `./receipt-explorer-timing.log`); stderr is the terminal, so it cannot go there.
    public static func timingLogPath(environment value: String?) -> String? {
        guard let value, !value.isEmpty, value != "0" else { return nil }
        return value == "1" ? "receipt-explorer-timing.log" : value
    }
}

/// What the adapter found out about the terminal once curses started; the UI may adapt to it.
public struct TerminalCapabilities: Sendable, Equatable {
    public var size: Size
    /// Colours will be shown (`--color`, `NO_COLOR` and the terminal's abilities combined).
    public var colors: Bool
    /// Non-ASCII scalars can be shown (UTF-8 locale and no `--ascii`).
    public var unicode: Bool
}

/// Why the full-screen UI will not start; `message` is one line for stderr, the exit status is 2.
public struct TerminalUnavailable: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

public enum TerminalPreflight {
    /// The one line printed when stdin or stdout is not a terminal.
    public static let notATerminalMessage =
        "receipt-explorer: the explorer needs a terminal on stdin and stdout; for text output use `receipt-explorer dump FILE` or `receipt-explorer json FILE`"

    /// Checks, before touching curses, that a full-screen UI can run: stdin and stdout are
    /// terminals and `TERM` is set and is not `dumb` (a dumb terminal cannot address the cursor,
    /// so we refuse with a clear message rather than draw garbage).
    public static func check(stdinIsTTY: Bool = isatty(STDIN_FILENO) == 1,
                             stdoutIsTTY: Bool = isatty(STDOUT_FILENO) == 1,
                             term: String? = getenv("TERM").map { String(cString: $0) }) -> TerminalUnavailable? {
        guard stdinIsTTY, stdoutIsTTY else { return TerminalUnavailable(notATerminalMessage) }
        guard let term, !term.isEmpty else {
            return TerminalUnavailable("receipt-explorer: TERM is not set, so the explorer cannot draw; set TERM (e.g. xterm-256color) or use `receipt-explorer dump FILE`")
        }
        if term == "dumb" {
            return TerminalUnavailable("receipt-explorer: TERM=dumb cannot show the full-screen explorer; use `receipt-explorer dump FILE` or `receipt-explorer json FILE`, or run it in a real terminal")
        }
        return nil
    }

    /// Whether colours are wanted before asking the terminal: `never` and a non-empty `NO_COLOR`
    /// (https://no-color.org) turn them off; `always` overrides `NO_COLOR`.
    public static func colorsWanted(_ mode: ColorMode,
                                    noColor: String? = getenv("NO_COLOR").map { String(cString: $0) }) -> Bool {
        switch mode {
        case .never: return false
        case .always: return true
        case .auto: return (noColor ?? "").isEmpty
        }
    }
}
