/// The purchase table's rows: kept as a list (a token's transactions, tests), or made when read
/// from what the kind keeps anyway (a receipt's purchases: its 20,000 rows of eight strings each
/// took 9 MB up front; issue 32). A row read twice is made twice; the table reads the rows on
/// screen, and a sort or a filter reads each row once.
public struct PurchaseRows: RandomAccessCollection, Sendable {
    private enum Source: Sendable {
        case list([PurchaseRow])
        case made(count: Int, row: @Sendable (Int) -> PurchaseRow)
    }
    private let source: Source
    /// Applied to every text of a row as it is read (`ExplorerAdditions.mapPurchaseTexts`).
    private var transform: (@Sendable (String) -> String)?

    public init(_ rows: [PurchaseRow] = []) { source = .list(rows) }

    /// `count` rows, row `i` made by `row(i)` each time it is read.
    public init(count: Int, row: @escaping @Sendable (Int) -> PurchaseRow) { source = .made(count: count, row: row) }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch source {
        case .list(let rows): rows.count
        case .made(let count, _): count
        }
    }

    public subscript(position: Int) -> PurchaseRow {
        var row: PurchaseRow
        switch source {
        case .list(let rows): row = rows[position]
        case .made(let count, let make):
            precondition(position >= 0 && position < count, "purchase row out of range")
            row = make(position)
        }
        if let transform { row.mapTexts(transform) }
        return row
    }

    /// The rows with `next` applied to every text after what is applied already.
    func mapping(_ next: @escaping @Sendable (String) -> String) -> PurchaseRows {
        var mapped = self
        if let first = transform {
            mapped.transform = { next(first($0)) }
        } else {
            mapped.transform = next
        }
        return mapped
    }
}

extension PurchaseRow {
    /// Every text of the row through `transform` (the number and target stay).
    mutating func mapTexts(_ transform: (String) -> String) {
        productID = transform(productID)
        transactionID = transform(transactionID)
        originalTransactionID = transform(originalTransactionID)
        purchaseDate = transform(purchaseDate)
        expiresDate = transform(expiresDate)
        quantity = transform(quantity)
        flags = transform(flags)
    }
}
