/// A key press, mouse event or terminal resize, already decoded by the adapter.
public enum InputEvent: Equatable, Sendable {
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, backTab, escape, backspace
    case character(Character)
    /// Ctrl plus a letter, e.g. `.control("c")`.
    case control(Character)
    case mouseClick(x: Int, y: Int)
    case wheelUp(x: Int, y: Int)
    case wheelDown(x: Int, y: Int)
    case resize(GridSize)
}

/// What the reducer asks the outside world to do; the reducer itself never performs I/O nor slow
/// work. The adapter performs I/O and sends `.effectFinished` back into the same reducer; slow work
/// (`work`) it runs off the key-press path and sends the message the work returns.
public enum Effect: Equatable, Sendable {
    case quit
    /// Write `bytes` to a new file at `path`.
    case writeFile(path: String, bytes: [UInt8])
    /// Put `text` on the terminal's clipboard (OSC 52). `byteCount` of the node's `totalBytes`
    /// bytes are in `text` (as hex); fewer when the node was too large to copy whole.
    case copyToClipboard(text: String, byteCount: Int, totalBytes: Int)
    /// Apply tamper-lab edits and re-open the document from the edited bytes (slow: parse and
    /// verify everything); the adapter sends `.labReopened(job.run())` back.
    case reopenLab(LabJob)
    /// Compare the two open documents (slow: the diff engine walks both); the adapter sends
    /// `.documentsCompared(job.run())` back.
    case compareDocuments(DiffJob)

    /// The slow work this effect stands for, with the message that brings its result back; nil for
    /// the I/O the adapter performs itself. The terminal adapter runs it on a worker thread (the
    /// screen keeps answering keys meanwhile); tests run it at once, so reducer tests stay
    /// deterministic.
    public var work: (@Sendable () -> Message)? {
        switch self {
        case .reopenLab(let job): { .labReopened(job.run()) }
        case .compareDocuments(let job): { .documentsCompared(job.run()) }
        case .quit, .writeFile, .copyToClipboard: nil
        }
    }
}

/// Everything that reaches the reducer, the one place state changes (bubbletea's `Msg`): input,
/// what the terminal turned out to support once it was taken over, and the outcome of an effect.
public enum Message: Equatable, Sendable {
    case input(InputEvent)
    /// Colours will be shown; non-ASCII scalars can be shown; curses draws with a stand-in for
    /// `TERM` (nil: TERM's own description); the copy key reaches the clipboard this way.
    case terminalReady(colors: Bool, unicode: Bool, terminal: TerminalSubstitute? = nil, clipboard: ClipboardRoute = .osc52)
    /// `effect` was performed; `error` is nil on success, else a short reason.
    case effectFinished(Effect, error: String?)
    /// A `reopenLab` effect's result: the edited bytes re-opened.
    case labReopened(LabResult)
    /// A `compareDocuments` effect's result: the diff list.
    case documentsCompared(DiffResult)
}
