import ASN1Lenient
import DocumentCore
import Testing
@testable import ExplorerUI

/// Text the paste finder found no data in opens in the explorer as one unparsed region over the text
/// and its one finding: navigation, the hex pane and the panes' keys must not trap on it.
@Suite struct PastedTextViewTests {
    @Test func textWithoutDataOpensAndNavigates() throws {
        let loaded = try PasteLoader.decode(Array("The receipt was not attached, sorry.\n".utf8), name: "note.txt")
        var state = AppState(document: Document.open(loaded, options: Fixtures.options), screen: GridSize(width: 80, height: 24))
        #expect(state.tree.count == 1)
        let first = render(state, size: GridSize(width: 80, height: 24)).text
        #expect(first.contains("note.txt"))
        for event: InputEvent in [.down, .up, .enter, .tab, .end, .home, .pageDown, .character("x"), .character("e"),
                                  .tab, .down, .enter, .backTab, .character("?"), .escape] {
            _ = press(&state, event)
            _ = render(state, size: GridSize(width: 80, height: 24))
        }
    }
}
