import ByteText

/// What a kind says about one node of its file tree (a receipt's attribute), in the words the explorer shows.
public struct NodeMeaning: Sendable, Equatable {
    /// One line for the tree row, e.g. `attribute 2 · bundle id = "com.example.app"` (already escaped).
    public var label: String
    /// The field's name, e.g. "bundle id" (already escaped).
    public var fieldName: String?
    /// What the field is for, one sentence.
    public var purpose: String?
    /// The decoded value as text (already escaped).
    public var decodedValue: String?
    /// For dates: the raw string as written and the parsed instant (both already escaped).
    public var rawDate: String?
    public var parsedDate: String?
    /// Extra lines for the detail pane.
    public var notes: [String]

    public init(label: String, fieldName: String? = nil, purpose: String? = nil, decodedValue: String? = nil,
                rawDate: String? = nil, parsedDate: String? = nil, notes: [String] = []) {
        self.label = label
        self.fieldName = fieldName
        self.purpose = purpose
        self.decodedValue = decodedValue
        self.rawDate = rawDate
        self.parsedDate = parsedDate
        self.notes = notes
    }
}

/// One row of the in-app purchase table. All strings are already escaped for display.
public struct PurchaseRow: Sendable, Equatable {
    /// 1-based position in file order ("in-app purchase #3").
    public var number: Int
    /// What Enter on the row goes to: a receipt's node or a StoreKit transaction token.
    public var target: Target
    public var productID: String
    public var transactionID: String
    public var originalTransactionID: String
    public var purchaseDate: String
    public var expiresDate: String
    public var quantity: String
    public var flags: String

    /// Where a purchase lives in its document.
    public enum Target: Sendable, Equatable {
        /// An in-app purchase of a receipt: the node to select (its SET, or its attribute SEQUENCE)
        /// and the file-tree nodes that belong to it (`node ..< subtreeEnd` of its attribute SEQUENCE).
        case node(NodeID, members: Range<Int>)
        /// A StoreKit transaction: the layer of the token's text (Enter goes to its outline row,
        /// `p` walks up from any row's layer to it).
        case layer(LayerID)

        /// File order of the rows: the node's or the token's index.
        public var order: Int {
            switch self {
            case .node(let node, _): node.index
            case .layer(let layer): layer.index
            }
        }
    }

    public init(number: Int, target: Target, productID: String, transactionID: String,
                originalTransactionID: String, purchaseDate: String, expiresDate: String, quantity: String, flags: String) {
        self.number = number
        self.target = target
        self.productID = productID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.flags = flags
    }

    /// The table's columns, in display order.
    public enum Column: Int, CaseIterable, Sendable {
        case number, productID, transactionID, originalTransactionID, purchaseDate, expiresDate, quantity, flags

        public var title: String {
            switch self {
            case .number: "#"
            case .productID: "product id"
            case .transactionID: "transaction"
            case .originalTransactionID: "original tx"
            case .purchaseDate: "purchased"
            case .expiresDate: "expires"
            case .quantity: "qty"
            case .flags: "flags"
            }
        }
    }

    public func text(_ column: Column) -> String {
        switch column {
        case .number: "\(number)"
        case .productID: productID
        case .transactionID: transactionID
        case .originalTransactionID: originalTransactionID
        case .purchaseDate: purchaseDate
        case .expiresDate: expiresDate
        case .quantity: quantity
        case .flags: flags
        }
    }
}

/// A labelled line of a kind's summary view (a receipt's identity and dates).
public struct SummaryLine: Sendable, Equatable {
    public var label: String
    public var value: String
    /// The node holding the value, if any (Enter on the line jumps there).
    public var node: Int?
    public init(label: String, value: String, node: Int? = nil) {
        self.label = label
        self.value = value
        self.node = node
    }
}

/// What a kind adds to the one explorer over `Document.layers`: the purchase table's rows, the
/// summary view's lines and validation steps, the status bar's verdict, the meaning of file-tree
/// nodes and what `/` finds through them. A format builds it (`DocumentFormat.explorerAdditions`,
/// in the kind's `Explorer/` folder), or a test by hand; a document whose kind adds nothing has none.
/// Texts from the input are terminal-safe (`TerminalSafe.escape`) as built; the explorer only
/// guards them for its one-column cells.
public struct ExplorerAdditions: Sendable {
    /// Meanings given up front (additions built by hand, tests).
    public var meanings: [Int: NodeMeaning]
    /// Meanings computed on demand, for the rows on screen only (the receipt format uses this so a
    /// 10,000-purchase receipt costs nothing per node at load).
    public var meaningProvider: (@Sendable (Int) -> NodeMeaning?)?
    /// Nodes that have a meaning through `meaningProvider` (searched by `/` when there is no
    /// `fieldSearch`).
    public var searchableNodes: [Int] = []
    /// What `/` finds through the kind's fields (names and values at their nodes), written on the
    /// first search into the explorer's index. The receipt format provides it.
    public var fieldSearch: (any FieldSearchEntries)?
    /// Purchases in file order (ascending node or token index); set by `init` and
    /// `mapPurchaseTexts` only, so the column widths always measure them.
    public private(set) var purchases: PurchaseRows
    public var summary: [SummaryLine]
    /// The validation steps the summary view lists: the one verification model's (`VerificationStep`).
    public var steps: [VerificationStep]
    public var activeSubscriptions: [String]
    /// The status bar's verdict, the head of every view's: "VALID", "INVALID", "NOT VALIDATED".
    public var verdict: String
    /// The whole verdict sentence, for the summary view.
    public var verdictDetail: String = ""
    /// True when the verdict is a failure (the status bar shows it in the error style).
    public var verdictFailed: Bool

    /// The verdict of `report` in the words of every view: the status bar's head ("VALID", "INVALID",
    /// "NOT VALIDATED": without the receipt's environment, which the narrow bar has no room for), the
    /// summary's line (what `verify --quiet` prints, "VALID (sandbox receipt) — …") and the other reasons.
    package mutating func setVerdict(_ report: VerificationReport) {
        verdict = StepText.plain.verdictHead(valid: report.verdict.valid, validated: report.verdict.validated, environment: nil)
        // An invalid quiet line carries the first reason; a valid one only the summary.
        let others = report.verdict.reasons.dropFirst(report.verdict.valid ? 0 : 1)
        verdictDetail = ([VerificationText.quietLine(report)] + others.map { TerminalSafe.escape($0.message) })
            .joined(separator: " · ")
        verdictFailed = report.verdict.validated && !report.verdict.valid
    }
    /// Nodes to expand by default (container → payload → attribute SET); attribute SEQUENCEs stay collapsed.
    public var defaultExpanded: [Int]
    /// Node to select at start (nil: the first node).
    public var initialSelection: Int?
    /// What the purchase table's rows are, as its title names them.
    public var rowsTitle = "In-app purchases"
    /// The summary view's title over `summary` ("Receipt").
    public var summaryTitle = "Receipt"
    /// The detail pane's labels for a node's meaning: its field's name ("receipt field") and, when
    /// the meaning has no field, what the node is part of ("receipt").
    public var fieldLabel = "receipt field"
    public var partLabel = "receipt"
    /// Widest text of each purchase-table column (computed once in `init`, O(purchases)).
    public private(set) var columnWidths: [Int]
    /// True when every text of every purchase row is printable ASCII (measured with the widths):
    /// the explorer's cell guard then has nothing to rewrite in them.
    public private(set) var purchaseTextsArePrintableASCII = true

    public init(meanings: [Int: NodeMeaning] = [:], purchases: PurchaseRows = PurchaseRows(), summary: [SummaryLine] = [],
                steps: [VerificationStep] = [], activeSubscriptions: [String] = [], verdict: String = "not verified",
                verdictFailed: Bool = false, defaultExpanded: [Int] = [], initialSelection: Int? = nil) {
        self.meanings = meanings
        let measured = Self.measure(purchases)
        // Usually in file order already; sorted (and so listed) only when not.
        self.purchases = measured.ordered ? purchases : PurchaseRows(Array(purchases).sorted { $0.target.order < $1.target.order })
        self.summary = summary
        self.steps = steps
        self.activeSubscriptions = activeSubscriptions
        self.verdict = verdict
        self.verdictFailed = verdictFailed
        self.defaultExpanded = defaultExpanded
        self.initialSelection = initialSelection
        (columnWidths, purchaseTextsArePrintableASCII) = (measured.widths, measured.printableASCII)
    }

    /// The additions of a list of rows (a token's transactions, tests).
    public init(meanings: [Int: NodeMeaning] = [:], purchases: [PurchaseRow], summary: [SummaryLine] = [],
                steps: [VerificationStep] = [], activeSubscriptions: [String] = [], verdict: String = "not verified",
                verdictFailed: Bool = false, defaultExpanded: [Int] = [], initialSelection: Int? = nil) {
        self.init(meanings: meanings, purchases: PurchaseRows(purchases), summary: summary, steps: steps,
                  activeSubscriptions: activeSubscriptions, verdict: verdict, verdictFailed: verdictFailed,
                  defaultExpanded: defaultExpanded, initialSelection: initialSelection)
    }

    /// Rewrites every text of the purchase rows (the explorer's cell guard) as they are read,
    /// keeping their order, and measures the columns again.
    public mutating func mapPurchaseTexts(_ transform: @escaping @Sendable (String) -> String) {
        purchases = purchases.mapping(transform)
        let measured = Self.measure(purchases)
        (columnWidths, purchaseTextsArePrintableASCII) = (measured.widths, measured.printableASCII)
    }

    /// The widest text of each column (at least its title and one space), whether every text
    /// is printable ASCII and whether the rows are in file order: one pass, each row read once.
    static func measure(_ purchases: PurchaseRows) -> (widths: [Int], printableASCII: Bool, ordered: Bool) {
        var widths = PurchaseRow.Column.allCases.map { $0.title.count + 1 }
        // `row.text(column).unicodeScalars.count` for every cell, without building the number's text
        // or walking each string scalar by scalar (10,000 rows × 8 columns at open).
        var widest = (number: 0, product: 0, transaction: 0, original: 0, purchased: 0, expires: 0, quantity: 0, flags: 0)
        var plain = true
        var ordered = true
        var lastOrder = Int.min
        for row in purchases {
            if row.target.order < lastOrder { ordered = false }
            lastOrder = row.target.order
            widest.number = max(widest.number, Self.decimalWidth(row.number))
            widest.product = max(widest.product, Self.scalarCount(row.productID, printableASCII: &plain))
            widest.transaction = max(widest.transaction, Self.scalarCount(row.transactionID, printableASCII: &plain))
            widest.original = max(widest.original, Self.scalarCount(row.originalTransactionID, printableASCII: &plain))
            widest.purchased = max(widest.purchased, Self.scalarCount(row.purchaseDate, printableASCII: &plain))
            widest.expires = max(widest.expires, Self.scalarCount(row.expiresDate, printableASCII: &plain))
            widest.quantity = max(widest.quantity, Self.scalarCount(row.quantity, printableASCII: &plain))
            widest.flags = max(widest.flags, Self.scalarCount(row.flags, printableASCII: &plain))
        }
        let cells = [widest.number, widest.product, widest.transaction, widest.original, widest.purchased, widest.expires,
                     widest.quantity, widest.flags]
        for column in PurchaseRow.Column.allCases { widths[column.rawValue] = max(widths[column.rawValue], cells[column.rawValue]) }
        return (widths, plain, ordered)
    }

    /// `String(n).count` (digits, and the sign of a negative number).
    static func decimalWidth(_ n: Int) -> Int {
        guard n >= 0 else { return String(n).unicodeScalars.count }
        var width = 1, rest = n / 10
        while rest > 0 { width += 1; rest /= 10 }
        return width
    }

    /// `text.unicodeScalars.count`: the UTF-8 bytes that start a scalar (a String's UTF-8 is always valid).
    static func scalarCount(_ text: String) -> Int {
        var printable = true
        return scalarCount(text, printableASCII: &printable)
    }

    /// `scalarCount`, clearing `printableASCII` when a byte is not printable ASCII (same loop).
    static func scalarCount(_ text: String, printableASCII: inout Bool) -> Int {
        if let (count, plain) = text.utf8.withContiguousStorageIfAvailable({ bytes in
            var n = 0, plain = true
            for b in bytes {
                if b & 0xC0 != 0x80 { n += 1 }
                if b < 0x20 || b > 0x7E { plain = false }
            }
            return (n, plain)
        }) {
            if !plain { printableASCII = false }
            return count
        }
        printableASCII = false  // a bridged string: let the guard look at it
        return text.unicodeScalars.count
    }

    /// The kind's meaning of a node, if any.
    public func meaning(of node: Int) -> NodeMeaning? {
        if let m = meanings[node] { return m }
        return meaningProvider?(node)
    }

    /// The purchase (index into `purchases`) whose file-tree nodes include `node`: O(log purchases).
    /// Nil for StoreKit transactions, which are tokens, not nodes.
    public func purchaseIndex(containing node: Int) -> Int? {
        func members(_ i: Int) -> Range<Int>? {
            if case .node(_, let members) = purchases[i].target { return members }
            return nil
        }
        var lo = 0, hi = purchases.count
        while lo < hi {
            let mid = (lo + hi) / 2
            guard let range = members(mid) else { return nil }
            if range.lowerBound <= node { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        return members(lo - 1)?.contains(node) == true ? lo - 1 : nil
    }
}
