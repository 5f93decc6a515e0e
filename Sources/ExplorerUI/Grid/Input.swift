/// A key press or mouse event, already decoded by the adapter.
public enum KeyEvent: Equatable, Sendable {
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

/// What the reducer asks the outside world to do; the reducer itself never performs I/O.
public enum Effect: Equatable, Sendable {
    case quit
    /// Write `bytes` to `path` and report the outcome back through `AppState`.
    case writeFile(path: String, bytes: [UInt8])
}
