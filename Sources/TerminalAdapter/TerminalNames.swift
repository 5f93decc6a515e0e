/// Terminal descriptions to try when curses has none for `TERM`. macOS's terminfo (ncurses 5.7)
/// lacks `tmux-256color`, which Homebrew's tmux sets; `screen-256color` draws tmux correctly and
/// `xterm-256color` nearly every other terminal whose own entry is not installed (kitty, Ghostty,
/// WezTerm, Alacritty over SSH).
public enum TerminalNames {
    public static func fallbacks(for term: String) -> [String] {
        let family = term.hasPrefix("tmux") || term.hasPrefix("screen") ? ["screen-256color", "xterm-256color"] : ["xterm-256color"]
        return family.filter { $0 != term }
    }
}
