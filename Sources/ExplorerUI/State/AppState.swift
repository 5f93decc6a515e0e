import ASN1Lenient
import DocumentCore
import TextLoader

/// Which pane receives the navigation keys.
public enum Focus: String, Sendable, CaseIterable {
    case tree, hex, detail, table
}

/// What the main area shows.
public enum ViewMode: String, Sendable, CaseIterable {
    case tree, summary, purchases

    public var title: String {
        switch self {
        case .tree: "Tree"
        case .summary: "Summary"
        case .purchases: "Purchases"
        }
    }
}

public enum OffsetBase: Sendable { case hex, decimal }

/// A one-line text prompt in the status bar.
public struct Prompt: Equatable, Sendable {
    public enum Kind: Sendable, Equatable {
        case search, goToOffset, writeFile, editByte, insertByte, writeEdited
        /// `f` in the purchase table: the text the rows must hold.
        case filterPurchases
        /// `f` in the timeline view: the id whose documents and nodes to list.
        case findTransaction
        /// The tamper lab in a text pane: the new byte is the character typed.
        case editCharacter, insertCharacter
        /// q / Esc with unsaved tamper-lab edits: y quits, n (or Esc) stays.
        case confirmQuit
    }
    public var kind: Kind
    public var text: String

    public init(kind: Kind, text: String = "") {
        self.kind = kind
        self.text = text
    }

    public var label: String {
        switch kind {
        case .search: "Search: "
        case .goToOffset: "Go to offset (decimal or 0x hex): "
        case .writeFile: "Write node bytes to: "
        case .editByte: "New byte (two hex digits): "
        case .insertByte: "Insert byte (two hex digits): "
        case .writeEdited: "Write the edited bytes to: "
        case .editCharacter: "New character (type it): "
        case .insertCharacter: "Insert character (type it): "
        case .confirmQuit: "Quit without writing the tamper-lab edits? (y/n) "
        case .filterPurchases: "Filter by product id / transaction id: "
        case .findTransaction: "Transaction (any of its ids): "
        }
    }
}

public struct SearchState: Equatable, Sendable {
    public var query: String = ""
    /// Matching nodes, ascending.
    public var hits: [Int] = []
    /// Index into `hits` of the current hit.
    public var current: Int?
    public init() {}
}

public struct StatusMessage: Equatable, Sendable {
    public var text: String
    public var isError: Bool
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// The whole UI state. Mutated only by `reduce` (every stored field's setter is internal to ExplorerUI:
/// the adapter and the commands send messages), read by `render`.
///
/// Cost model: `init` is O(n) once (plus the parse). Afterwards no key and no frame touches more
/// than the visible rows plus O(log n + depth): the visible outline rows are never materialised; they
/// are walked from the scroll anchor `outlineView.top` using each row's `subtreeEnd` to hop over collapsed
/// subtrees (visible rows are in pre-order, so comparing two visible rows is comparing indices).
public struct AppState: Sendable {
    public let tree: Tree
    /// What the document's kind adds to the outline (purchase table, summary, verdict, node
    /// meanings), from its format; nil when it adds nothing.
    public let additions: ExplorerAdditions?
    /// What each node is (RFC 5280 / 5652 parts, receipt attributes): the names `dump` and
    /// `explain` print, from `Document.names(for:)`.
    public let names: NodeNames
    public let facts: TreeFacts
    /// Memoised per-node render work (see `RenderCache`).
    let cache = RenderCache()
    /// The opened file as the status bar names it.
    public let file: FileLabel

    /// What the main area shows, and which of its panes takes the navigation keys.
    public internal(set) var mode: ViewMode = .tree { didSet { if mode != oldValue { relayout() } } }
    public internal(set) var focus: Focus = .tree
    public internal(set) var hexView = HexViewState() { didSet { if hexView.visible != oldValue.visible { relayout() } } }
    public internal(set) var detailView = ScrollState()
    public internal(set) var summaryView = ScrollState()
    public internal(set) var table = TableViewState()
    /// The status-bar prompt while one is open, and the last search.
    public internal(set) var prompt: Prompt?
    public internal(set) var search = SearchState()
    public internal(set) var help = HelpState()
    /// The other open documents (empty with one file): see `DocumentSwitcher`.
    public internal(set) var documents = DocumentSwitcher()
    /// The document's layer outline (every layer's rows) the tree pane shows, and its state.
    public let layered: OutlineContext
    public internal(set) var outlineView = OutlineViewState()
    /// The document this state shows, the one copy every feature reads (outline, tour, tamper lab,
    /// diff). Then the diff overlay and its engine.
    public let document: Document
    public internal(set) var diffView: DiffViewState?
    public internal(set) var diffProvider: DiffProvider?
    /// The diff entry last selected: `d` reopens there after Enter went to a side.
    var diffRow = 0
    /// The comparison `d` asked for and has not seen the result of.
    var diffJobs = DiffJobs()
    /// The timeline of every open document (`T`), and the row Enter left from.
    public internal(set) var timelineView: TimelineViewState?
    var timelineRow = 0
    /// The tour and the tamper lab (Teaching/).
    public internal(set) var teaching = TeachingState()
    /// The one-line message in the header (the outcome of the last key or effect).
    public internal(set) var status: StatusMessage?
    public internal(set) var preferences = Preferences() {
        didSet { if preferences.offsetBase != oldValue.offsetBase { relayout() } }
    }
    /// The terminal size the reducer lays out for (page sizes, mouse hit tests). The adapter sends
    /// `.resize` whenever it changes; `render` takes the size explicitly.
    public internal(set) var screen: GridSize { didSet { relayout() } }
    /// The panes' rectangles for `screen`, `mode`, the hex pane and the offset base, stored when one
    /// of them changes (O(1)), so the reducer pages and hit-tests without asking the renderer.
    public private(set) var viewport: Layout
    /// Rows of the purchase table for `screen` (the table keeps its row in view even while hidden).
    public private(set) var tableRows: Int

    mutating func relayout() {
        viewport = Layout(size: screen, state: self)
        let table = Layout(size: screen, mode: .purchases, hexVisible: hexView.visible, byteCount: tree.bytes.count,
                           base: preferences.offsetBase).main
        tableRows = max(1, (table?.height ?? 2) - 1)
    }

    /// The state for an opened document: the UI reads the document's layers through its outline
    /// and never parses, locates or validates. `ascii` and `mouse` are the user's preferences (the
    /// terminal may still turn ASCII on: `.terminalReady`). The tamper lab re-opens edited bytes
    /// with the options the document was opened with (`Document.openedWith`). O(n) plus O(purchases).
    public init(document: Document, ascii: Bool = false, mouse: Bool = true,
                screen: GridSize = GridSize(width: 80, height: 24)) {
        let tree = document.fileTree
        self.tree = tree
        self.document = document
        self.additions = document.explorerAdditions?.guardedForCells()
        self.names = document.names(for: .file)
        self.facts = TreeFacts(tree: tree)
        self.file = FileLabel(name: document.source.name, size: document.fileLayer.bytes.count,
                              encoding: AppState.encodingLabel(document.source.encoding) ?? (facts.notDERCount > 0 ? "BER" : "DER"))
        self.screen = screen
        self.viewport = Layout(size: screen, mode: .tree, hexVisible: true, byteCount: tree.bytes.count, base: .hex)
        self.tableRows = 1
        self.layered = OutlineContext(outline: LayerOutline(document: document), document: document)
        self.table.order = Array(0..<(additions?.purchases.count ?? 0))
        relayout()
        self.preferences.ascii = ascii
        self.preferences.mouse = mouse
        openOutline()
    }

    /// How the input was stored, as the status bar says it; nil for raw bytes, which the status
    /// bar then calls "DER" or "BER" from the parse (more than the loader knows).
    static func encodingLabel(_ encoding: InputEncoding) -> String? {
        switch encoding {
        case .binary: return nil
        case .base64: return "base64"
        case .pem: return "PEM"
        case .verifyReceiptJSON: return "verifyReceipt JSON"
        case .jws: return "JWS"
        case .storeKitText: return "StoreKit JSON"
        case .externalPurchaseToken: return "base64url JSON"
        }
    }

    public var nodeCount: Int { tree.count }
    /// True when the document's kind adds a purchase table and summary (a receipt, StoreKit tokens).
    public var hasAdditions: Bool { additions != nil }
}
