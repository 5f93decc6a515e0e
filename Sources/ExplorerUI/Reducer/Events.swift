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
    case resize(Size)
}

/// What the reducer asks the outside world to do; the reducer itself never performs I/O. The
/// adapter performs it and sends `.effectFinished` back into the same reducer.
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
}

/// Everything that reaches the reducer, the one place state changes (bubbletea's `Msg`): input,
/// what the terminal turned out to support once it was taken over, and the outcome of an effect.
public enum Message: Equatable, Sendable {
    case input(InputEvent)
    /// Colours will be shown; non-ASCII scalars can be shown.
    case terminalReady(colors: Bool, unicode: Bool)
    /// `effect` was performed; `error` is nil on success, else a short reason.
    case effectFinished(Effect, error: String?)
    /// A `reopenLab` effect's result: the edited bytes re-opened.
    case labReopened(LabResult)
}
