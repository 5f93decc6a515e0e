import ExplorerUI
import Platform

/// `--color auto|always|never`.
public enum ColorMode: String, Sendable, CaseIterable {
    case auto, always, never
}

/// What the user asked for on the command line and in the environment.
public struct TerminalOptions: Sendable {
    public var color: ColorMode
    /// `--no-mouse` turns mouse reporting off.
    public var mouse: Bool
    /// Where frame timings go (`RECEIPT_EXPLORER_TIMING`); nil: no timing.
    public var timingLogPath: String?
    /// When the command started, so the first frame's time includes loading and analysis.
    public var startedAt: ContinuousClock.Instant
    /// Named phases of the setup before the terminal was taken over (e.g. "load", "analyse"),
    /// written into the timing log's first-frame line.
    public var setupPhases: [(name: String, duration: Duration)] = []

    public init(color: ColorMode = .auto, mouse: Bool = true,
                timingLogPath: String? = nil, startedAt: ContinuousClock.Instant = .now) {
        self.color = color
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

/// What the adapter found out about the terminal once curses started.
public struct TerminalCapabilities: Sendable, Equatable {
    public var size: GridSize
    /// Colours will be shown (`--color`, `NO_COLOR` and the terminal's abilities combined).
    public var colors: Bool
    /// Non-ASCII scalars can be shown (UTF-8 locale).
    public var unicode: Bool
}

/// Why the full-screen UI will not start. The adapter says why in its own terms; the command that
/// called it words the advice (which other commands to use) and picks the exit status.
public struct TerminalUnavailable: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// Standard input or output is not a terminal (a pipe, a file).
        case notATerminal
        /// `TERM` is unset or empty.
        case termNotSet
        /// `TERM=dumb`: no cursor addressing.
        case dumbTerminal
        /// curses has no terminfo entry for this `TERM`.
        case unknownTerminal(String)
        /// The curses library could not be loaded (Linux loads libncursesw when the explorer starts).
        case cursesUnavailable(String)
    }
    public var reason: Reason
    public init(_ reason: Reason) { self.reason = reason }
}

public enum TerminalPreflight {
    /// Checks, before touching curses, that a full-screen UI can run: stdin and stdout are
    /// terminals and `TERM` is set and is not `dumb` (a dumb terminal cannot address the cursor,
    /// so we refuse rather than draw garbage).
    public static func check() -> TerminalUnavailable? {
        check(stdinIsTTY: POSIX.isTerminal(POSIX.standardInput), stdoutIsTTY: POSIX.isTerminal(POSIX.standardOutput),
              term: POSIX.environment("TERM"))
    }

    public static func check(stdinIsTTY: Bool, stdoutIsTTY: Bool, term: String?) -> TerminalUnavailable? {
        guard stdinIsTTY, stdoutIsTTY else { return TerminalUnavailable(.notATerminal) }
        guard let term, !term.isEmpty else { return TerminalUnavailable(.termNotSet) }
        if term == "dumb" { return TerminalUnavailable(.dumbTerminal) }
        return nil
    }

    /// Whether colours are wanted before asking the terminal: `never` and a non-empty `NO_COLOR`
    /// (https://no-color.org) turn them off; `always` overrides `NO_COLOR`.
    public static func colorsWanted(_ mode: ColorMode) -> Bool {
        colorsWanted(mode, noColor: POSIX.environment("NO_COLOR"))
    }

    public static func colorsWanted(_ mode: ColorMode, noColor: String?) -> Bool {
        switch mode {
        case .never: return false
        case .always: return true
        case .auto: return (noColor ?? "").isEmpty
        }
    }
}
