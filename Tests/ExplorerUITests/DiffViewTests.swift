import ASN1Lenient
import DocumentCore
import DocumentDiff
import ReceiptKit
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The diff overlay (`d`): document 1 against document 2 through the engine the command provides;
/// a list of entries, each showing both sides' nodes and bytes.
@Suite struct DiffViewTests {
    /// A stand-in engine: the two roots, and the second document's last node as "only in 2".
    static let provider: DiffProvider = { a, b in
        let left = a.fileTree, right = b.fileTree
        return [DiffListEntry(title: "root differs", left: NodeID(.file, 0), leftRange: left.nodes[0].byteRange,
                              right: NodeID(.file, 0), rightRange: right.nodes[0].byteRange),
                DiffListEntry(title: "only in 2: BOOLEAN", right: NodeID(.file, 3), rightRange: right.nodes[3].byteRange)]
    }

    static func state() -> AppState {
        var s = DocumentSwitchTests.twoDocuments(size: GridSize(width: 120, height: 40))
        s.diffProvider = provider
        return s
    }

    @Test func needsTwoDocuments() {
        var one = Fixtures.small()
        one.diffProvider = Self.provider
        press(&one, .character("d"))
        #expect(one.diffView == nil)
        #expect(one.status == StatusMessage("d compares two documents: open exactly two (receipt-explorer A B)", isError: true))
    }

    /// Without a stand-in, `d` runs the engine `receipt-explorer diff` prints: a refund pair from
    /// samples/diff lists the refund with its two fields under it, node for node.
    @Test func theRealEngineListsARefund() throws {
        func open(_ name: String) throws -> Document {
            Document.open(LoadedInput(bytes: try Paths.sample("diff/" + name), name: name, encoding: .binary, note: ""),
                          options: AnalysisOptions(validate: false))
        }
        let base = try open("base.receipt"), refund = try open("refund.receipt")
        var s = AppState.opening([base, refund], screen: GridSize(width: 120, height: 40))
        press(&s, .character("d"))
        let diff = try #require(s.diffView)
        let expected = DiffListEntry.list(DocumentDiff.compare(base, refund))
        #expect(diff.entries == expected)
        #expect(diff.entries.prefix(3).map(\.title) == [
            "refund com.example.receiptexplorer.pro [2000000600000002] — cancellation date appeared: 2024-02-28T10:00:00Z",
            "  attribute-changed cancellation date (in-app 1712)",
            "  attribute-added cancellation reason (in-app 1720)",
        ])
        #expect(diff.entries[0].left == NodeID(.file, 56) && diff.entries[0].right == NodeID(.file, 341))
        #expect(diff.entries[0].leftRange == 304..<664 && diff.entries[0].rightRange == 1449..<1843)
    }

    /// The list made when read (`DiffList`) is the rows made up front, row for row, for every
    /// sample pair: each entry's row, then its fields' rows under it, then the structural ones.
    @Test func rowsMadeWhenReadAreTheRowsMadeUpFront() throws {
        func open(_ name: String) throws -> Document {
            Document.open(LoadedInput(bytes: try Paths.sample("diff/" + name), name: name, encoding: .binary, note: ""),
                          options: AnalysisOptions(validate: false))
        }
        let names = ["base.receipt", "refund.receipt", "renewal.receipt", "resigned.receipt", "purchase-added.receipt", "history.json", "history-refund.json"]
        for a in names {
            for b in names where b != a {
                let diff = DocumentDiff.compare(try open(a), try open(b))
                var whole: [DiffListEntry] = []
                for entry in diff.entries { DiffListEntry.add(entry, indent: "", into: &whole) }
                let list = DiffListEntry.list(diff)
                #expect(list.count == whole.count, "\(a) \(b)")
                #expect(Array(list) == whole, "\(a) \(b)")
                #expect(list.count > diff.entries.count || diff.entries.allSatisfy(\.fields.isEmpty))
                if let last = whole.indices.last { #expect(list[last] == whole[last]) }
            }
        }
    }

    /// The state option behind `diff A B --explore`: before any key the overlay is open with the
    /// list `d` shows, and with one document it refuses as `d` does.
    @Test func openDiffOverlayBeforeAnyKey() throws {
        func open(_ name: String) throws -> Document {
            Document.open(LoadedInput(bytes: try Paths.sample("diff/" + name), name: name, encoding: .binary, note: ""),
                          options: AnalysisOptions(validate: false))
        }
        let base = try open("base.receipt"), refund = try open("refund.receipt")
        var s = AppState.opening([base, refund], screen: GridSize(width: 120, height: 40))
        s.openDiffOverlay()
        var pressed = AppState.opening([base, refund], screen: GridSize(width: 120, height: 40))
        press(&pressed, .character("d"))
        let diff = try #require(s.diffView)
        #expect(diff.entries == pressed.diffView?.entries)
        #expect(diff.entries.count == 7)
        #expect(diff.row == 0)
        #expect(s.activeContext == .diff)
        #expect(s.status == StatusMessage("7 differences"))
        let screen = render(s, size: GridSize(width: 120, height: 40)).text
        #expect(screen.contains(" Diff (d or Esc closes) "))
        #expect(screen.contains("› refund com.example.receiptexplorer.pro [2000000600000002] — cancellation date appeared: 2…"))
        press(&s, .escape)
        #expect(s.diffView == nil)

        var one = AppState.opening([base])
        one.openDiffOverlay()
        #expect(one.diffView == nil)
        #expect(one.status == StatusMessage("d compares two documents: open exactly two (receipt-explorer A B)", isError: true))
    }

    /// A side without a node (a JWS signature) shows its layer's bytes: the refund of
    /// samples/diff/history-refund.json, whose re-signed transaction lists its signature.
    @Test func layerOnlySidesShowTheirLayerBytes() throws {
        func open(_ name: String) throws -> Document {
            Document.open(try InputLoader.decode(try Paths.sample("diff/" + name), name: name), options: AnalysisOptions(validate: false))
        }
        var s = AppState.opening([try open("history.json"), try open("history-refund.json")], screen: GridSize(width: 120, height: 40))
        s.openDiffOverlay()
        let diff = try #require(s.diffView)
        #expect(diff.entries.map(\.title) == [
            "refund com.example.receiptexplorer.pro [2000000600000002] — revocationDate appeared: 2024-02-28T10:00:00.000Z (1709114400000)",
            "  field-added revocationDate", "  field-added revocationReason", "  signature-changed signature",
            "node-added signedTransactions[1] payload: revocationDate",
            "node-added signedTransactions[1] payload: revocationReason",
            "content-changed signedTransactions[1] signature",
        ])
        press(&s, .character("G"))
        let lines = DiffOverlay.lines(s, width: 116).map(\.text)
        #expect(lines.last == "Enter / 1: go to it in 1 · 2: in 2")
        #expect(lines.dropLast().suffix(2) == ["1 layer 11 @0-63  00 ac 9f 1f 17 d7 24 30 8b 47 1f 1e 72 ad 8c f5 14 92 76 6a 2c 4d 38 eb 4b de 1a 38 …",
                                    "2 layer 11 @0-63  c5 85 a1 46 16 69 30 8b a3 81 86 b2 92 53 b7 cb f7 d5 04 c3 c8 96 86 98 12 e7 47 74 …"])
    }

    @Test func listsEntriesAndMovesAndCloses() throws {
        var s = Self.state()
        press(&s, .character("}"))                  // from document 2: still 1 against 2
        press(&s, .character("d"))
        let diff = try #require(s.diffView)
        #expect(diff.entries.map(\.title) == ["root differs", "only in 2: BOOLEAN"])
        #expect(diff.names.left == "small.der" && diff.names.right == "defects.der")
        #expect(s.activeContext == .diff)
        #expect(s.status == StatusMessage("2 differences"))
        press(&s, .character("j"))
        #expect(s.diffView?.row == 1)
        press(&s, .character("j"))
        #expect(s.diffView?.row == 1)                // stays on the last entry
        press(&s, .character("g"))
        #expect(s.diffView?.row == 0)
        press(&s, .character("x"))                   // other keys do nothing while the diff is open
        #expect(s.preferences.offsetBase == .hex)
        press(&s, .escape)
        #expect(s.diffView == nil && s.activeContext == .tree)
    }

    @Test func selectedEntryShowsBothSidesBytes() {
        var s = Self.state()
        press(&s, .character("d"))
        var lines = DiffOverlay.lines(s, width: 116).map(\.text)
        #expect(lines[0] == "1 small.der  ⇄  2 defects.der")
        #expect(lines[1] == "› root differs")
        // 28 bytes a side at this width, then "…".
        #expect(lines.contains("1 node 0 of layer 0 @0-31  30 1e 02 01 01 31 14 30 0a 0c 05 61 6c 70 68 61 02 01 05 30 06 16 04 62 65 74 61 04 …"))
        #expect(lines.contains("2 node 0 of layer 0 @0-11  30 0a 02 01 01 02 02 00 01 01 01 01"))
        press(&s, .character("j"))
        lines = DiffOverlay.lines(s, width: 116).map(\.text)
        #expect(lines.contains("1 absent"))
        #expect(lines.contains("2 node 3 of layer 0 @9-11  01 01 01"))
        let screen = render(s, size: GridSize(width: 120, height: 40)).text
        #expect(screen.contains(" Diff (d or Esc closes) "))
        #expect(screen.contains("› only in 2: BOOLEAN"))
    }

    static func openSample(_ name: String) throws -> Document {
        Document.open(try InputLoader.decode(try Paths.sample("diff/" + name), name: name), options: AnalysisOptions(validate: false))
    }

    /// Each entry shows its decoded `old → new` as `receipt-explorer diff` prints it, and the
    /// selected entry's two sides their decoded values, not raw hex.
    @Test func entriesShowDecodedOldAndNewValues() throws {
        var s = AppState.opening([try Self.openSample("base.receipt"), try Self.openSample("refund.receipt")], screen: GridSize(width: 120, height: 40))
        press(&s, .character("d"), .character("j"))
        let lines = DiffOverlay.lines(s, width: 116).map(\.text)
        #expect(lines[1] == "  refund com.example.receiptexplorer.pro [2000000600000002] — cancellation date appeared: 2024-02-28T10:00:00Z")
        #expect(lines[2] == "›   attribute-changed cancellation date (in-app 1712): \"\" → \"2024-02-28T10:00:00Z\"")
        #expect(lines.contains("  signature-changed signature: \"256 bytes 4b8e84d5155f27d7…\" → \"256 bytes 2061fc7452148d03…\""))
        #expect(lines.suffix(3) == ["1 node 75 of layer 0 @359-360  \"\"",
                                    "2 node 435 of layer 0 @1777-1798  \"2024-02-28T10:00:00Z\"",
                                    "Enter / 1: go to it in 1 · 2: in 2"])
        Snapshot.assert(render(s, size: GridSize(width: 120, height: 40)), named: "diff-decoded-values-120x40")

        var jws = AppState.opening([try Self.openSample("transaction-a.jws"), try Self.openSample("transaction-b.jws")], screen: GridSize(width: 120, height: 40))
        jws.openDiffOverlay()
        let jwsLines = DiffOverlay.lines(jws, width: 116).map(\.text)
        #expect(jwsLines[1] == "› field-changed price: \"4990 milliunits = 4.990 USD\" → \"5990 milliunits = 5.990 USD\"")
        #expect(jwsLines.contains("  content-changed payload: price: 4990 → 5990"))
    }

    /// Enter (or 1) goes to the entry's node in document 1 (A), 2 to document 2 (B); d comes back
    /// to the same entry; a side the entry does not have says so.
    @Test func enterGoesToTheNodeInAAndTwoInB() throws {
        var s = AppState.opening([try Self.openSample("base.receipt"), try Self.openSample("refund.receipt")], screen: GridSize(width: 120, height: 40))
        press(&s, .character("d"), .character("j"))
        press(&s, .enter)
        #expect(s.diffView == nil && s.documents.current == 0 && s.mode == .tree && s.focus == .tree)
        #expect(s.selectedFileNode == 75 && s.isFileNodeShown(75))
        #expect(s.status == StatusMessage("difference 2 of 7 in document 1 (base.receipt): node 75 of layer 0; d returns to the list"))
        press(&s, .character("d"))
        #expect(s.diffView?.row == 1)
        press(&s, .character("2"))
        #expect(s.diffView == nil && s.documents.current == 1 && s.selectedFileNode == 435 && s.isFileNodeShown(435))
        #expect(s.status == StatusMessage("difference 2 of 7 in document 2 (refund.receipt): node 435 of layer 0; d returns to the list"))
        // The added cancellation reason is only in document 2.
        press(&s, .character("d"), .character("j"), .character("1"))
        #expect(s.diffView?.row == 2)
        #expect(s.status == StatusMessage("this difference is only in document 2: 1 has no node for it (press 2)", isError: true))
        press(&s, .character("1"))   // still open: 1 again says the same
        #expect(s.diffView != nil)
    }

    /// On StoreKit documents the node is an outline row of its layer (a payload field), and a side
    /// that is a layer's bytes (a signature) selects the innermost row holding them.
    @Test func enterSelectsTheOutlineRowOfAJWSField() throws {
        var s = AppState.opening([try Self.openSample("transaction-a.jws"), try Self.openSample("transaction-b.jws")], screen: GridSize(width: 120, height: 40))
        s.openDiffOverlay()
        press(&s, .character("2"))
        #expect(s.documents.current == 1 && s.outlineRow?.label == "price" && s.outlineRow?.node.layer == LayerID(2))
        press(&s, .character("d"), .character("j"), .enter)
        #expect(s.documents.current == 0 && s.outlineRow?.node.layer == LayerID(3))
        #expect(s.status == StatusMessage("difference 2 of 4 in document 1 (transaction-a.jws): layer 3 @0; d returns to the list"))
    }
}
