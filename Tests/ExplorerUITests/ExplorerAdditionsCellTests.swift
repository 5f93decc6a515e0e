import ByteText
import DocumentCore
import Testing
import TestSupport
import TextLoader
@testable import ExplorerUI

/// A format escapes with `TerminalSafe.escape`; the explorer adds its one-column guard when it takes
/// the additions, which together must be exactly `UIText.escape` (what the table showed before).
@Suite struct ExplorerAdditionsCellTests {
    static let hostile = ["com.example.\u{1B}]0;pwned\u{07}.pro\u{202E}\u{00}", "中文😀e\u{301}", "a\\b", "\u{85}\u{9B}2J\u{7F}\u{200B}"]

    @Test("TerminalSafe.escape then the cell guard is UIText.escape, in rows, summary, verdict and meanings")
    func guardEqualsTheExplorersEscape() {
        let rows = Self.hostile.enumerated().map { i, text in
            PurchaseRow(number: i + 1, target: .node(NodeID(.file, i), members: i..<(i + 1)), productID: TerminalSafe.escape(text),
                        transactionID: TerminalSafe.escape(text), originalTransactionID: "1", purchaseDate: "–", expiresDate: "",
                        quantity: "1", flags: "")
        }
        var built = ExplorerAdditions(purchases: rows, summary: Self.hostile.map { SummaryLine(label: "bundle id", value: TerminalSafe.escape($0)) },
                                      activeSubscriptions: Self.hostile.map(TerminalSafe.escape), verdict: TerminalSafe.escape(Self.hostile[1]))
        built.verdictDetail = TerminalSafe.escape(Self.hostile[1])
        built.meaningProvider = { node in NodeMeaning(label: TerminalSafe.escape(Self.hostile[node % Self.hostile.count])) }
        let guarded = built.guardedForCells()
        let expected = Self.hostile.map { UIText.escape($0) }
        #expect(guarded.purchases.map(\.productID) == expected)
        #expect(guarded.purchases.map(\.transactionID) == expected)
        #expect(guarded.summary.map(\.value) == expected)
        #expect(guarded.activeSubscriptions == expected)
        #expect(guarded.verdict == expected[1] && guarded.verdictDetail == expected[1])
        #expect((0..<4).map { guarded.meaning(of: $0)?.label } == expected)
        // The product column is as wide as the widest escaped id, counted as drawn (one scalar a cell).
        #expect(guarded.columnWidths[PurchaseRow.Column.productID.rawValue] == expected.map(\.unicodeScalars.count).max())
        #expect(expected[1] == "\\u{4E2D}\\u{6587}\\u{1F600}e\\u{0301}")
    }

    @Test("the hostile-strings receipt's rows and bundle id read as UIText.escape of the manifest's strings")
    func hostileReceiptMatchesTheEscape() throws {
        let bytes = try Paths.sample("malformed-hostile-strings.receipt")
        let document = Document.open(LoadedInput(bytes: bytes, name: "hostile", encoding: .binary, note: ""), options: Fixtures.options)
        let state = AppState(document: document)
        let additions = try #require(state.additions)
        #expect(additions.purchases.first?.productID == UIText.escape("com.example.\u{1B}]0;pwned\u{07}.pro\u{202E}\u{00}"))
        #expect(additions.summary.first { $0.label == "bundle id" }?.value
            == UIText.escape("com.example.\u{1B}[31mred\u{1B}[0m.\u{202E}txt.exe\u{07}\u{00}tail"))
    }
}
