import CNcursesShim

/// Installs and removes the C signal handlers (shim.c, which saves the previous ones).
enum TerminalSignals {
    /// SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore the terminal, then die of the signal.
    /// SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP: restore, then hand over to the previous
    /// handler (the Swift runtime's backtracer prints onto a sane terminal) or the default action.
    /// SIGTSTP: restore, stop; on SIGCONT re-enter curses and repaint.
    /// Installed before curses starts, so ncurses leaves these signals to us (it only takes
    /// signals still at SIG_DFL); SIGWINCH stays with ncurses, which turns it into KEY_RESIZE.
    static func install() { cn_install_signal_handlers() }
    static func remove() { cn_remove_signal_handlers() }
}
