import Testing
import TextLoader
import DocumentCore

/// Where found data sits, in words (`PasteOrigin.words`): a one-line place (a `--lines` line) can
/// still hold a newline, and a range across it is said line by line. The fuzz target `paste` found
/// the range of characters formed across lines trapping (characters 4..<3).
@Suite struct PasteWordsTests {
    @Test func aRangeAcrossANewlineInsideOneLinePlaceIsSaidLineByLine() {
        let origin = PasteOrigin(text: Array("abcdef\nxy".utf8), location: "", steps: [])
        #expect(origin.words(3..<9, place: .line(4, of: "app.log")) == "line 1, character 4 to line 2, character 2 of line 4 of app.log")
        #expect(origin.words(1..<3, place: .line(4, of: "app.log")) == "characters 2-3 of line 4 of app.log")
    }
}
