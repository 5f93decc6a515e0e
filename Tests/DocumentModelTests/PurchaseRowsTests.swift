import ByteText
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// `PurchaseRows`: the purchase table's rows, a receipt's made from its purchases when read (issue 32).
@Suite struct PurchaseRowsTests {
    static func row(_ n: Int, order: Int, product: String = "p") -> PurchaseRow {
        PurchaseRow(number: n, target: .node(NodeID(.file, order), members: order..<(order + 1)), productID: product,
                    transactionID: "t\(n)", originalTransactionID: "o\(n)", purchaseDate: "d\(n)", expiresDate: "",
                    quantity: "1", flags: "")
    }

    @Test("rows made when read: each read asks the maker, and reads the same row twice alike")
    func madeRowsAreReadFromTheMaker() {
        let reads = Counter()
        let rows = PurchaseRows(count: 3) { i in reads.add(); return Self.row(i + 1, order: 10 * i) }
        #expect(rows.count == 3 && reads.value == 0)
        #expect(rows[1] == Self.row(2, order: 10) && rows[1] == rows[1])
        #expect(reads.value == 3)
        #expect(rows.map(\.number) == [1, 2, 3])
    }

    @Test("a text transform applies to every text of every row as read, after the ones before it")
    func transformsComposeInOrder() {
        var additions = ExplorerAdditions(purchases: PurchaseRows(count: 2) { Self.row($0 + 1, order: $0, product: "ab") })
        additions.mapPurchaseTexts { $0 + "1" }
        additions.mapPurchaseTexts { $0 + "2" }
        let row = additions.purchases[1]
        #expect([row.productID, row.transactionID, row.originalTransactionID, row.purchaseDate, row.expiresDate, row.quantity, row.flags]
                == ["ab12", "t212", "o212", "d212", "12", "112", "12"])
        #expect(row.number == 2 && row.target == Self.row(2, order: 1).target)
        // The widths measure the rows as read: "t212" and "purchased" (9) + 1.
        #expect(additions.columnWidths[PurchaseRow.Column.transactionID.rawValue] == "transaction".count + 1)
        #expect(additions.columnWidths[PurchaseRow.Column.purchaseDate.rawValue] == "purchased".count + 1)
    }

    @Test("rows made out of file order are put in order, as a list is")
    func unorderedRowsAreSorted() {
        let orders = [30, 10, 20]
        let made = ExplorerAdditions(purchases: PurchaseRows(count: 3) { Self.row($0 + 1, order: orders[$0]) })
        let listed = ExplorerAdditions(purchases: orders.indices.map { Self.row($0 + 1, order: orders[$0]) })
        #expect(made.purchases.map(\.number) == [2, 3, 1])
        #expect(Array(made.purchases) == Array(listed.purchases))
        #expect(made.columnWidths == listed.columnWidths)
    }

    /// Every sample and corpus receipt: each row says what its purchase says, in file order.
    @Test("a receipt's rows are its purchases' values, row by row",
          .enabled(if: Paths.corpusAvailable))
    func receiptRowsAreThePurchases() throws {
        let files = [Paths.samples, Paths.receipts].flatMap { root in
            (FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? [])
                .filter { $0.pathExtension == "receipt" }
        }
        #expect(files.count > 30)
        for file in files {
            let document = Document.open(try InputLoader.load(path: file.path), options: AnalysisOptions(validate: false))
            guard let receipt = document.receipt?.receipt, let additions = document.explorerAdditions else { continue }
            #expect(additions.purchases.count == receipt.inApp.count, "\(file.lastPathComponent)")
            for (row, p) in zip(additions.purchases, receipt.inApp) {
                #expect(row.number == p.index + 1)
                #expect(row.productID == TerminalSafe.escape(p.productID ?? "–"), "\(file.lastPathComponent) #\(row.number)")
                #expect(row.transactionID == TerminalSafe.escape(p.transactionID ?? "–"))
                #expect(row.originalTransactionID == TerminalSafe.escape(p.originalTransactionID ?? "–"))
                #expect(row.purchaseDate == TerminalSafe.escape(p.purchaseDate?.text ?? "–"))
                #expect(row.expiresDate == TerminalSafe.escape(p.expiresDate?.text ?? ""))
                #expect(row.quantity == (p.quantity.map(String.init) ?? "–"))
                guard case .node(let node, let members) = row.target else { Issue.record("not a node"); continue }
                #expect(members.contains(node.index) && members.lowerBound == p.attributeNode)
            }
        }
    }
}

/// Counts reads from a `@Sendable` maker.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
