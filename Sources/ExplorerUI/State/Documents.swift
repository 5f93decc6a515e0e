import DocumentCore

/// The open documents when the explorer was started with several files. Each document is a whole
/// `AppState` (its tree, receipt and every pane's selection, expansion and scroll); the active one
/// IS the app state, the others wait in `parked`. Switching swaps them, so no pane state is shared
/// between documents and a single document behaves exactly as before.
public struct DocumentSwitcher: Sendable {
    /// One entry per open document, in command-line order; nil at `current` (that one is live).
    var parked: [AppState?] = []
    /// Status-bar names of the documents, in order.
    public internal(set) var names: [String] = []
    /// Index of the active document.
    public internal(set) var current = 0

    public init() {}

    /// How many documents are open (1 when the switcher was never filled).
    public var count: Int { max(1, names.count) }

    /// The parked state of document `index` (nil for the active one).
    public func parkedState(_ index: Int) -> AppState? {
        index >= 0 && index < parked.count ? parked[index] : nil
    }
}

extension AppState {
    /// The state for several opened documents: the first is shown, the others wait with their own
    /// pane states. With one document this is `init(document:)` (each document carries the options
    /// it was opened with, which the tamper lab re-opens edits with).
    public static func opening(_ documents: [Document], ascii: Bool = false, mouse: Bool = true,
                               screen: GridSize = GridSize(width: 80, height: 24)) -> AppState {
        precondition(!documents.isEmpty, "the explorer opens at least one document")
        let states = documents.map { AppState(document: $0, ascii: ascii, mouse: mouse, screen: screen) }
        var first = states[0]
        guard states.count > 1 else { return first }
        var switcher = DocumentSwitcher()
        switcher.parked = [nil] + states.dropFirst().map { Optional($0) }
        switcher.names = states.map(\.file.name)
        first.documents = switcher
        return first
    }

    /// Makes document `index` the active one, parking the current one with its pane states. The
    /// preferences, the screen size and the help overlay stay as they are.
    mutating func switchDocument(to index: Int) {
        guard documents.count > 1, index != documents.current, var next = documents.parkedState(index) else { return }
        var switcher = documents
        var parkedSelf = self
        parkedSelf.documents = DocumentSwitcher()
        parkedSelf.status = nil
        parkedSelf.prompt = nil
        switcher.parked[switcher.current] = parkedSelf
        switcher.parked[index] = nil
        switcher.current = index
        next.documents = switcher
        next.preferences = preferences
        next.help = help
        next.diffProvider = diffProvider
        next.diffRow = diffRow
        next.diffJobs = diffJobs
        next.timelineRow = timelineRow
        if next.screen != screen { next.screen = screen }
        next.ensureOutlineVisible()
        self = next
    }

    /// `}` / `{`: the next or previous document, wrapping around.
    mutating func cycleDocument(forward: Bool) {
        let n = documents.count
        guard n > 1 else {
            status = StatusMessage("only one document is open (receipt-explorer FILE FILE… opens several)", isError: true)
            return
        }
        switchDocument(to: (documents.current + (forward ? 1 : n - 1)) % n)
        status = StatusMessage("document \(documents.current + 1) of \(n): \(UIText.escape(file.name))")
    }

    /// "doc 1/2" for the header bar when several documents are open; nil otherwise.
    var documentTabLabel: String? {
        documents.count > 1 ? " doc \(documents.current + 1)/\(documents.count) " : nil
    }
}
