/// How the copy key reaches the clipboard. The adapter chooses once, from the terminal it runs
/// in, and says so in `.terminalReady`; the status line names the way the text went.
public enum ClipboardRoute: Equatable, Sendable {
    /// OSC 52: the terminal itself puts the text on the clipboard (over SSH too; tmux passes it on).
    case osc52
    /// A system command that reads the text on its standard input (pbcopy on macOS).
    case command(String)

    /// Apple's Terminal ignores OSC 52 (it sets TERM_PROGRAM=Apple_Terminal), so there the system's
    /// copy command is used when there is one; everywhere else OSC 52, which also works over SSH,
    /// where a local command would fill the remote machine's clipboard.
    public static func choose(termProgram: String?, copyCommand: String?) -> ClipboardRoute {
        if termProgram == "Apple_Terminal", let copyCommand { return .command(copyCommand) }
        return .osc52
    }

    /// The route as the status line names it: "OSC 52" or the command's name ("pbcopy").
    public var name: String {
        switch self {
        case .osc52: return "OSC 52"
        case .command(let path): return String(path.split(separator: "/").last ?? Substring(path))
        }
    }
}

/// curses had no description for `TERM` and draws with a stand-in (macOS lacks `tmux-256color`).
public struct TerminalSubstitute: Equatable, Sendable {
    public var wanted: String
    public var used: String
    public init(wanted: String, used: String) {
        self.wanted = wanted
        self.used = used
    }
}
