import ASN1Lenient
import DocumentCore
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// Several files open as several documents: `}` / `{` switch between them, each document keeps
/// its own selection, expansion, scroll, mode and hex cursor; the preferences and the screen size
/// are shared; one document behaves as before.
@Suite struct DocumentSwitchTests {
    static func document(_ bytes: [UInt8], _ name: String) -> Document {
        Document.open(LoadedInput(bytes: bytes, name: name, encoding: .binary, note: ""), options: Fixtures.options)
    }

    static func twoDocuments(size: GridSize = GridSize(width: 80, height: 24)) -> AppState {
        AppState.opening([document(Fixtures.smallBytes, "small.der"), document(defectBytes, "defects.der")], screen: size)
    }

    @Test func startsOnTheFirstDocumentAndNamesBoth() {
        let s = Self.twoDocuments()
        #expect(s.file.name == "small.der")
        #expect(s.documents.count == 2 && s.documents.current == 0)
        #expect(s.documents.names == ["small.der", "defects.der"])
        #expect(s.documentTabLabel == " doc 1/2 ")
    }

    @Test func switchingKeepsEachDocumentsPaneState() {
        var s = Self.twoDocuments()
        press(&s, .character("j"), .character("j"))          // small.der: node 2 (the SET)
        let smallSelection = s.outlineView.selection
        #expect(smallSelection == 2)
        press(&s, .character("x"))                             // a preference: decimal offsets
        press(&s, .character("}"))
        #expect(s.file.name == "defects.der" && s.documents.current == 1)
        #expect(s.outlineView.selection == 0)
        #expect(s.preferences.offsetBase == .decimal)          // shared across documents
        #expect(s.status == StatusMessage("document 2 of 2: defects.der"))
        press(&s, .character("G"))                             // defects.der: last row (node 3)
        #expect(s.outlineView.selection == 3)
        press(&s, .character("{"))
        #expect(s.file.name == "small.der" && s.outlineView.selection == 2)
        #expect(s.documentTabLabel == " doc 1/2 ")
        press(&s, .character("}"))
        #expect(s.file.name == "defects.der" && s.outlineView.selection == 3)
        press(&s, .character("}"))                             // wraps around
        #expect(s.file.name == "small.der" && s.documents.current == 0)
    }

    @Test func switchingKeepsTheScreenSize() {
        var s = Self.twoDocuments()
        press(&s, .resize(GridSize(width: 120, height: 40)))
        press(&s, .character("}"))
        #expect(s.screen == GridSize(width: 120, height: 40))
        #expect(s.viewport == Layout(size: GridSize(width: 120, height: 40), state: s))
    }

    @Test func oneDocumentSaysSoAndHasNoTab() {
        var s = Fixtures.small()
        press(&s, .character("}"))
        #expect(s.file.name == "small.der")
        #expect(s.status == StatusMessage("only one document is open (receipt-explorer FILE FILE… opens several)", isError: true))
        #expect(s.documentTabLabel == nil)
    }

    @Test func headerShowsTheDocumentTab() {
        var s = Self.twoDocuments()
        press(&s, .character("}"))
        let header = String(render(s, size: GridSize(width: 80, height: 24)).text.split(separator: "\n", omittingEmptySubsequences: false)[0])
        #expect(header.hasPrefix(" receipt-explorer   1 Tree   2 Summary   3 Purchases   doc 2/2 "))
    }
}
