/// Signal numbers that differ between systems, named once.
public enum SignalNumbers {
    /// SIGTSTP is 20 on Linux and 18 on macOS (and the BSDs); the C headers give the right one.
    public static let terminalStop: Int32 = SIGTSTP

    /// The status a POSIX shell reports for a job stopped by SIGTSTP (`$?` after Ctrl-Z): 128 + the
    /// signal's number, so 148 on Linux and 146 on macOS.
    public static let stoppedJobStatus: Int32 = 128 + SIGTSTP
}
