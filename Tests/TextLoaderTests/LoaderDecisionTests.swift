import Testing
import TestSupport
@testable import ASN1Lenient
@testable import TextLoader

/// Loader decisions a user expects (issue 8): tiny DER is DER, and input that is not one of the
/// formats this tool reads loads as raw bytes with an error diagnostic pinned to its range.
@Suite struct LoaderDecisionTests {
    func findings(_ input: LoadedInput) -> [String] {
        input.diagnostics.map { "\($0.code) \($0.offset)+\($0.length)" }
    }

    @Test func oneByteSequenceIsTruncatedDER() throws {
        let loaded = try InputLoader.decode([0x30], name: "one.der")
        #expect(loaded.encoding == .binary)
        #expect(loaded.bytes == [0x30])
        #expect(loaded.diagnostics.isEmpty)
        let tree = ASN1Parser.parse(loaded.bytes)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.truncatedLength.code])
        #expect(tree.diagnostics[0].range == 0..<1)
        #expect(tree.diagnostics[0].message == "the element at offset 0 has no length octets before offset 1")
    }

    @Test func fiveBase64CharactersAreStillBrokenBase64() {
        #expect(throws: InputError("cannot decode 't.txt': base64: the text ends with an incomplete group: 1 character cannot encode a byte at text offset 5 (line 1, column 6)")) {
            try InputLoader.decode(Array("MAMCA".utf8), name: "t.txt")
        }
    }

    @Test func jsonArrayIsUnrecognizedText() throws {
        let raw = Array("[\"MAMCAQU=\"]\n".utf8)
        let loaded = try InputLoader.decode(raw, name: "a.json")
        #expect(loaded.encoding == .binary)
        #expect(loaded.bytes == raw)
        #expect(findings(loaded) == ["input-unrecognized-text 0+13"])
        #expect(loaded.diagnostics[0].severity == .error)
        #expect(loaded.diagnostics[0].message == "this looks like a JSON array, not base64, PEM or a verifyReceipt JSON object {\"receipt-data\": \"<base64>\"}; it is shown as raw bytes")
    }

    @Test func proseIsUnrecognizedText() throws {
        let loaded = try InputLoader.decode(Array("hello, world!\n".utf8), name: "p.txt")
        #expect(findings(loaded) == ["input-unrecognized-text 0+14"])
        #expect(loaded.diagnostics[0].message.hasPrefix("this looks like text, not base64"))
    }

    @Test func utf16TextWithByteOrderMark() throws {
        let raw: [UInt8] = [0xFF, 0xFE] + Array("MAMCAQU=".utf8).flatMap { [$0, 0] }
        let loaded = try InputLoader.decode(raw, name: "u.txt")
        #expect(loaded.bytes == raw)
        #expect(findings(loaded) == ["input-unrecognized-text 0+18"])
        #expect(loaded.diagnostics[0].message == "this looks like UTF-16 text (a UTF-16 byte-order mark (FF FE)); save it as UTF-8 or ASCII base64, PEM or JSON, or give the DER itself")
    }

    @Test func utf16BigEndianWithoutByteOrderMark() throws {
        let raw: [UInt8] = Array("MIIBAQ==".utf8).flatMap { [0, $0] }
        let loaded = try InputLoader.decode(raw, name: "u.txt")
        #expect(findings(loaded) == ["input-unrecognized-text 0+16"])
        #expect(loaded.diagnostics[0].message.hasPrefix("this looks like UTF-16 text (ASCII characters with every other byte 00)"))
    }

    @Test func nulPaddingAfterBase64() throws {
        let raw = Array("MAMCAQU=\n".utf8) + [UInt8](repeating: 0, count: 23)
        let loaded = try InputLoader.decode(raw, name: "n.b64")
        #expect(loaded.encoding == .binary)
        #expect(findings(loaded) == ["input-unrecognized-text 9+23"])
        #expect(loaded.diagnostics[0].message == "base64 text (8 characters) followed by 23 NUL byte(s) at offset 9; remove the padding to decode it")
    }

    @Test func firstElementLeavingMostOfTheInputUnread() throws {
        let raw = DER.int(5) + [UInt8](repeating: 0x01, count: 10)
        let loaded = try InputLoader.decode(raw, name: "m.der")
        #expect(findings(loaded) == ["input-mostly-unread 3+10"])
        #expect(loaded.diagnostics[0].message == "the first element ends at offset 3; the 10 bytes after it (most of the input) are not part of it")
        // A little trailing junk is the parser's warning alone.
        let small = DER.seq(DER.int(1), DER.int(2)) + [0x0A]
        #expect(try InputLoader.decode(small, name: "s.der").diagnostics.isEmpty)
    }

    @Test func recognisedInputsCarryNoDiagnostics() throws {
        let der = DER.seq(DER.int(5))
        #expect(try InputLoader.decode(der, name: "d").diagnostics.isEmpty)
        #expect(try InputLoader.decode(Array("MAMCAQU=".utf8), name: "b").diagnostics.isEmpty)
    }
}
