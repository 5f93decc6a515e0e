import ByteText
import Testing
import TextLoader
import ASN1Lenient
import DocumentCore
import ReceiptKit
import Foundation
import TestSupport

/// Where found data sits, in words (`PasteOrigin.words`): a one-line place (a `--lines` line) can
/// still hold a newline, and a range across it is said line by line. The fuzz target `paste` found
/// the range of characters formed across lines trapping (characters 4..<3).
@Suite struct PasteWordsTests {
    @Test func aRangeAcrossANewlineInsideOneLinePlaceIsSaidLineByLine() {
        let origin = PasteOrigin(text: Array("abcdef\nxy".utf8), location: "", steps: [])
        #expect(origin.words(3..<9, place: .line(4, of: "app.log")) == "line 1, character 4 to line 2, character 2 of line 4 of app.log")
        #expect(origin.words(1..<3, place: .line(4, of: "app.log")) == "characters 2-3 of line 4 of app.log")
    }

    /// `TextPositions(text)`, checked at every offset against a scan from the start.
    static func expectPositionsOfAScan(_ text: [UInt8]) -> TextPositions {
        let positions = TextPositions(text)
        var expected = (line: 1, character: 1)
        for offset in 0...text.count {
            let found = positions.position(of: offset)
            #expect(found == expected, "offset \(offset)")
            if found != expected { break }
            if offset < text.count {
                if text[offset] == 0x0A { expected = (expected.line + 1, 1) } else if text[offset] & 0xC0 != 0x80 { expected.character += 1 }
            }
        }
        return positions
    }

    /// The positions read from checkpoints are the plain scan's, at every offset of a text that
    /// crosses several 4 KB checkpoints with two-byte characters and line ends, and past both ends.
    @Test func positionsFromCheckpointsAreThoseOfAScanFromTheStart() {
        let text = Array(String(repeating: "é-line ✓\n", count: 1_200).utf8) + Array("é".utf8)
        let positions = Self.expectPositionsOfAScan(text)
        #expect(positions.position(of: -5) == (1, 1))
        #expect(positions.position(of: text.count + 9) == positions.position(of: text.count))
        #expect(TextPositions([]).position(of: 0) == (1, 1))
        let whole = [UInt8](repeating: 0x41, count: 4096)
        #expect(TextPositions(whole).position(of: 4096) == (1, 4097), "the end on a checkpoint")
    }

    /// A long line keeps only its blocks that hold a line end or a character that is not ASCII:
    /// every offset still reads as a scan from the start reads it, in plain blocks and kept ones.
    @Test func positionsInPlainBlocksAreThoseOfAScanFromTheStart() {
        let text = Array(("é" + String(repeating: "A", count: 20_000) + "\n" + String(repeating: "B", count: 9_000) + "✓x").utf8)
        let positions = Self.expectPositionsOfAScan(text)
        #expect(positions.count == text.count)
    }

    /// An opened document keeps where its data was found in a paste, not the pasted text: the
    /// text's length and the places in it are still said.
    @Test func anOpenedDocumentKeepsThePlaceNotTheText() throws {
        let token = try String(decoding: Paths.bytes(Paths.samples.appendingPathComponent("jws/transaction.jws")), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let text = Array("é 2026-03-01 INFO\nverify signedTransaction=\(token) ok\n".utf8)
        let read = ReadInput(raw: text, loaded: try PasteLoader.decode(text, name: "app.log"), place: .file("app.log"))
        #expect(read.loaded.origin?.text == text)
        let document = Document.open(read, OpenOptions(analysis: AnalysisOptions(validate: false)))
        let origin = try #require(document.source.origin)
        #expect(origin.text.isEmpty)
        #expect(origin.textCount == text.count)
        #expect(origin.location == "characters 26-\(25 + token.utf8.count) of line 2 of app.log")
        #expect(document.pastedWords(0..<4, in: LayerID.file) == "characters 26-29 of line 2 of app.log")
    }

    /// Finding 19: a paste holding the same cut-off token many times. Every other candidate is
    /// named, each from the positions made once (each named from the text's start made a 1 MiB
    /// line take 1.8 s); the places cross three checkpoints and count `é` as one character.
    @Test func everyOtherCandidateOfALongPasteIsNamedWhereItIs() throws {
        let token = "eyJhbGciOiJub25lIiwieDVjIjpbIk1JSUNsekNDQWg2Z0F3SUJBZ0lNQ3VQeHpYUHJYdDE0VTRoZk1Bb0dDQ3FHU000OUJBTURN"
            + "SUdJTVFzd0NRWURWUVFHRXdKVlV6RWVNQndHQTFVRUNnd1ZjbVZqWldsd2RDMWxlSEJzYjNKbGNpQlVSVk5VTVI0d0hBWURWUVFM"
            + "REJWVVJWTlVJRTlPVEZrZ0xTQnViM1FnUVhCd2JHVXhPVEEzQmdOVkJBTU1NSEpsWTJWcGNIUXRaWGh3Ykc5eVpYSWdWRVZUVkNC"
            + "RlEwTWdWMWRFVWkxc2FXdGxJRWx1ZEdWeWJXVmthV0YwWlRBZUZ3MHhOVEF4TURFd01EQXdNREJhRnc"
        let oneLine = try PasteLoader.decode(Array(String(repeating: "é]MIIB \(token) ", count: 40).utf8), name: "one.txt")
        let origin = try #require(oneLine.origin)
        #expect(origin.location == "characters 8-386 of line 1 of one.txt")
        #expect(origin.others.count == 39)
        for (k, other) in origin.others.enumerated() {
            let start = 8 + 387 * (k + 1)
            #expect(other == "a compact JWS cut off, 379 characters at characters \(start)-\(start + 378) of line 1 of one.txt")
        }
        let lines = try PasteLoader.decode(Array(String(repeating: "é]MIIB \(token)\n", count: 40).utf8), name: "lines.txt")
        #expect(lines.origin?.others.last == "a compact JWS cut off, 379 characters at characters 8-386 of line 40 of lines.txt")
    }
}
