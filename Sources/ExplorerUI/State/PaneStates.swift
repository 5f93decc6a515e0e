import DocumentCore

/// The view state of each pane, apart: like ratatui's `ListState`, an offset and a selection.
/// The reducer moves them; `render` draws from them (and clamps what it must to fit).

/// The byte pane: shown or hidden, and the tamper lab's file offset (the outline's own cursor is
/// `OutlineViewState.cursor`).
public struct HexViewState: Sendable {
    public var visible = true
    public var cursor = 0
}

/// A pane of text lines that only scrolls (detail, summary).
public struct ScrollState: Sendable {
    public var scroll = 0
}

/// The `?` overlay.
public struct HelpState: Sendable {
    public var visible = false
    public var scroll = 0
}

/// The purchase table: the selected row (a position in `order`), the first row shown, the sort.
public struct TableViewState: Sendable {
    public var row = 0
    public var top = 0
    public var sort: PurchaseRow.Column = .number
    public var descending = false
    /// Display order: indices into `receipt.purchases` (only the rows the filter keeps).
    public var order: [Int] = []
    /// `f` in the purchase table: rows whose product id, transaction id or original transaction
    /// id hold this text (case-insensitive); empty shows every row.
    public var filter = ""
}

/// What the user chose (flags, `x`) and what the terminal allows (`.terminalReady`).
public struct Preferences: Sendable {
    public var color = true
    public var ascii = false
    public var mouse = true
    public var offsetBase: OffsetBase = .hex
    /// How the copy key reaches the clipboard (the adapter's choice, `.terminalReady`).
    public var clipboard: ClipboardRoute = .osc52
}

/// The opened file as the status bar names it: its name, decoded size and how it was stored
/// ("DER", "BER", "base64", "PEM", …).
public struct FileLabel: Sendable, Equatable {
    public var name: String
    public var size: Int
    public var encoding: String
}
