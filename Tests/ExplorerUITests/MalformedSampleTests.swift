import Testing
import ASN1Lenient
import DocumentCore
@testable import ExplorerUI

/// Search, go-to-offset and next-diagnostic on the committed malformed samples, with the exact
/// nodes and offsets `samples/manifest.json` documents.
@Suite struct MalformedSampleTests {
    func load(_ name: String) throws -> AppState {
        try #require(Fixtures.sampleState(name, size: GridSize(width: 120, height: 40)), "samples/\(name) missing")
    }

    @Test func lengthPastParent() throws {
        var s = try load("malformed-length-past-parent.receipt")
        press(&s, .character("]"))
        let node = s.tree.nodes[s.selectedFileNode]
        #expect(node.offset == 3802 && s.tree.tagName(of: s.selectedFileNode) == "SEQUENCE")
        #expect(s.status?.text.contains("length-exceeds-parent") == true)
        #expect(s.facts.isError(3803) && s.facts.isError(3805) && !s.facts.isError(3806))
        // The error bytes are in the error style in the hex pane (selected: X).
        let mask = Theme.mask(render(s, size: GridSize(width: 120, height: 40)))
        #expect(mask.contains("X"))
        // Go to the length octets' offset: the same node.
        press(&s, .character("g"), .character(":"))
        type(&s, "0xEDB")
        press(&s, .enter)
        #expect(s.tree.nodes[s.selectedFileNode].offset == 3802 && s.outlineView.cursor == 3803)
        // The row and its ancestors carry the `!` marker.
        let text = render(s, size: GridSize(width: 120, height: 40)).text
        #expect(text.contains("! "))
    }

    @Test func badDates() throws {
        var s = try load("malformed-bad-date.receipt")
        press(&s, .character("]"))
        #expect(s.tree.nodes[s.selectedFileNode].offset == 241)
        #expect(s.status?.text.contains("receipt-date-invalid") == true)
        press(&s, .character("]"))
        #expect(s.tree.nodes[s.selectedFileNode].offset == 537)
        press(&s, .character("["))
        #expect(s.tree.nodes[s.selectedFileNode].offset == 241)
        press(&s, .character("g"), .character("/"))
        type(&s, "yesterday")
        press(&s, .enter)
        // One hit per field: the attribute SEQUENCE at 526 whose value is the IA5String at 537.
        let hits = s.search.hits.map { Int(s.tree.nodes[$0].offset) }
        #expect(hits.contains(526) && !hits.contains(537))
        press(&s, .character("N"))
        #expect(s.tree.nodes[s.selectedFileNode].offset == 526)    // the last hit: the field holding the date
        #expect(s.isFileNodeShown(s.selectedFileNode))
    }

    @Test func truncatedKeepsEverythingBeforeTheCut() throws {
        var s = try load("malformed-truncated.receipt")
        #expect(s.facts.errorCount > 0)
        press(&s, .character("g"), .character("]"))
        #expect(s.tree.nodes[s.selectedFileNode].offset == 15)
        press(&s, .character("["), .character("["))
        #expect(s.selectedFileNode == s.facts.diagnosticNodes.last)   // wrapped backwards to the last one
        let grid = render(s, size: GridSize(width: 120, height: 40))
        #expect(grid.text.contains("error"))
    }

    @Test func invalidUTF8IsShownEscaped() throws {
        var s = try load("malformed-invalid-utf8.receipt")
        press(&s, .character("]"))
        #expect(s.tree.nodes[s.selectedFileNode].offset == 305)
        let text = render(s, size: GridSize(width: 120, height: 40)).text
        #expect(text.contains("\\xc3("))
        #expect(text.contains("utf8-invalid"))
    }

    @Test func trailingBytesWarning() throws {
        var s = try load("malformed-trailing-bytes.receipt")
        #expect(s.facts.warningCount == 1)
        press(&s, .character("]"))
        let node = s.tree.nodes[s.selectedFileNode]
        #expect(node.byteRange.contains(7686))
        press(&s, .character(":"))
        type(&s, "7689")
        press(&s, .enter)
        #expect(s.selectedFileNode == s.tree.nodes.deepestNode(containing: 7689))
    }

    @Test func searchProductIDAcrossViews() throws {
        var s = try load("typical.receipt")
        press(&s, .character("3"), .character("/"))
        type(&s, "coins500")
        press(&s, .enter)
        #expect(s.mode == .tree)
        let hit = s.selectedFileNode
        #expect(s.additions?.purchaseIndex(containing: hit) == 3)   // purchase #4
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.additions!.purchases[s.table.order[s.table.row]].number == 4)
    }

    @Test func berSampleLoadsWithOnlyDERNotes() throws {
        var s = try load("xcode-ber.receipt")
        #expect(s.facts.errorCount == 0 && s.facts.notDERCount > 0)
        let text = render(s, size: GridSize(width: 120, height: 40)).text
        #expect(text.contains("~"))
        press(&s, .character("3"))
        #expect(s.additions?.purchases.isEmpty == false)
        press(&s, .enter)
        #expect(s.mode == .tree && s.isFileNodeShown(s.selectedFileNode))
    }
}
