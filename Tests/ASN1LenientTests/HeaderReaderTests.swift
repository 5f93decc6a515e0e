import Testing
import TestSupport
@testable import ASN1Lenient
@testable import TextLoader

/// The one header reader (`BERHeader`) at every boundary, and the issue 8 crash that four copies of
/// it made possible. Each case asserts the reader's answer and what the parser reports, with the
/// exact diagnostic code and byte range.
@Suite struct HeaderReaderTests {
    func read(_ bytes: [UInt8], at start: Int = 0) -> Result<BERHeader, BERHeader.Failure> {
        bytes.withUnsafeBufferPointer { BERHeader.read($0, at: start, limit: $0.count) }
    }

    /// (code, offset, length) of every diagnostic, in order.
    func findings(_ tree: Tree) -> [String] {
        tree.diagnostics.map { "\($0.code) \($0.offset)+\($0.length)" }
    }

    /// Issue 8: `?`, three hundred 0x80, `01 88 7F FF FF FF FF FF FE FF`, 3,000 × `A` trapped with
    /// an arithmetic overflow in the loader's one-element check, killing every command.
    static let issue8Crash: [UInt8] = [0x3F] + [UInt8](repeating: 0x80, count: 300)
        + DER.hex("01 88 7F FF FF FF FF FF FE FF") + [UInt8](repeating: 0x41, count: 3000)

    @Test func issue8CrashFileLoadsAndParses() throws {
        let raw = Self.issue8Crash
        #expect(raw.count == 3311)
        // The identifier runs past 255 octets: no header, so no length arithmetic at all.
        #expect(read(raw) == .failure(.identifierTooLong))
        #expect(!BERHeader.spansExactlyOneElement(raw))
        // The loader: 91% base64 characters, so it is read as base64 with a stray character.
        #expect(throws: InputError("cannot decode 'crash.bin': base64: unexpected character '?' at text offset 0 (line 1, column 1)")) {
            try InputLoader.decode(raw, name: "crash.bin")
        }
        // The parser on the raw bytes (what `dump` shows for them): one unparsed region.
        let tree = ASN1Parser.parse(raw)
        #expect(tree.count == 1)
        #expect(tree[0].kind == .unparsed)
        #expect(tree[0].byteRange == 0..<3311)
        #expect(findings(tree) == ["tag-too-large 0+3311"])
        #expect(tree.diagnostics[0].message == "the identifier runs past 255 octets; the element's extent is unknown")
    }

    /// The same header after a 3-octet high tag: the length is read (and cannot be represented
    /// within the input), nothing overflows.
    @Test func issue8LengthAfterAShortHighTag() {
        let raw = DER.hex("3F 81 01 88 7F FF FF FF FF FF FE FF") + [UInt8](repeating: 0x41, count: 100)
        guard case .success(let header) = read(raw) else { Issue.record("no header"); return }
        #expect(header.tagNumber == 129)
        #expect(header.identifierLength == 3)
        #expect(header.contentStart == 12)
        #expect(header.length == .definite(0x7FFF_FFFF_FFFF_FEFF, longForm: true))
        #expect(!BERHeader.spansExactlyOneElement(raw))
        let tree = ASN1Parser.parse(raw)
        // Clamped to the input: its content is read as [APPLICATION 1] elements ("AA" → 41 41).
        #expect(findings(tree) == ["truncated-content 3+9", "truncated-content 80+1"])
    }

    @Test func eightLengthOctetsAtIntMax() {
        let raw = DER.hex("04 88 7F FF FF FF FF FF FF FF 41 42")
        #expect(read(raw) == .success(BERHeader(start: 0, first: 0x04, tagNumber: 4, tagOverflow: false, lengthStart: 1,
                                               contentStart: 10, length: .definite(Int.max, longForm: true))))
        #expect(!BERHeader.spansExactlyOneElement(raw))
        let tree = ASN1Parser.parse(raw)
        #expect(findings(tree) == ["truncated-content 1+9"])
        #expect(tree.diagnostics[0].message == "the length claims 9223372036854775807 content octets but the input ends after 2")
        #expect(tree[0].contentRange == 10..<12)
    }

    @Test func eightLengthOctetsAboveIntMax() {
        let raw = DER.hex("30 88 80 00 00 00 00 00 00 00 05 00")
        #expect(read(raw) == .success(BERHeader(start: 0, first: 0x30, tagNumber: 16, tagOverflow: false, lengthStart: 1,
                                               contentStart: 10, length: .unrepresentable(value: 1 << 63, octets: 8))))
        let tree = ASN1Parser.parse(raw)
        #expect(findings(tree) == ["length-overflow 1+9"])
        #expect(tree.diagnostics[0].message == "a length of 9223372036854775808 is beyond any addressable size")
        // Clamped to the input: the NULL inside is still read.
        #expect(tree.count == 2)
        #expect(tree[1].byteRange == 10..<12)
    }

    @Test func nineLengthOctetsAreUnrepresentable() {
        let raw = DER.hex("04 89 01 00 00 00 00 00 00 00 00")
        #expect(read(raw) == .success(BERHeader(start: 0, first: 0x04, tagNumber: 4, tagOverflow: false, lengthStart: 1,
                                               contentStart: 11, length: .unrepresentable(value: UInt64.max, octets: 9))))
        #expect(findings(ASN1Parser.parse(raw)) == ["length-too-many-octets 1+10"])
    }

    @Test func highTagRunningToTheEndOfInput() {
        let raw = DER.hex("1F 81 82")
        #expect(read(raw) == .failure(.truncatedIdentifier))
        let tree = ASN1Parser.parse(raw)
        #expect(findings(tree) == ["truncated-identifier 0+3"])
        #expect(tree.diagnostics[0].message == "the identifier's long-form tag number runs to offset 3 without a final octet")
        #expect(tree[0].kind == .unparsed)
    }

    @Test func identifierEndingAtTheEndOfInput() {
        let raw = DER.hex("1F 81 02")
        #expect(read(raw) == .failure(.missingLength(lengthStart: 3)))
        #expect(findings(ASN1Parser.parse(raw)) == ["truncated-length 0+3"])
    }

    @Test func lengthOctetsPastTheEnd() {
        let raw = DER.hex("30 84 01 02")
        #expect(read(raw) == .failure(.truncatedLength(lengthStart: 1, octets: 4, available: 2)))
        let tree = ASN1Parser.parse(raw)
        #expect(findings(tree) == ["truncated-length 0+4"])
        #expect(tree.diagnostics[0].message == "the length announces 4 length octets but only 2 byte(s) remain before offset 4")
    }

    @Test func reservedLengthOctet() {
        #expect(read(DER.hex("04 FF 00")) == .failure(.reservedLength(lengthStart: 1)))
        #expect(findings(ASN1Parser.parse(DER.hex("04 FF 00"))) == ["length-reserved 1+1"])
    }

    @Test func highTagNumberOverflowingUInt32() {
        // 2^32 in base 128: 10 80 80 80 00.
        let raw = DER.hex("9F 90 80 80 80 00 00")
        #expect(read(raw) == .success(BERHeader(start: 0, first: 0x9F, tagNumber: UInt32.max, tagOverflow: true,
                                               lengthStart: 6, contentStart: 7, length: .definite(0, longForm: false))))
        let tree = ASN1Parser.parse(raw)
        #expect(findings(tree) == ["tag-too-large 0+6"])
        #expect(tree[0].tagNumber == UInt32.max)
        // UInt32.max itself fits: 8F FF FF FF 7F, no finding.
        #expect(findings(ASN1Parser.parse(DER.hex("9F 8F FF FF FF 7F 00"))) == [])
    }

    @Test func indefiniteLengthOnAPrimitive() {
        let raw = DER.hex("04 80 41 42 00 00")
        #expect(read(raw) == .success(BERHeader(start: 0, first: 0x04, tagNumber: 4, tagOverflow: false, lengthStart: 1,
                                               contentStart: 2, length: .indefinite)))
        // Only a constructed element can be one element with an indefinite length.
        #expect(!BERHeader.spansExactlyOneElement(raw))
        #expect(BERHeader.spansExactlyOneElement(DER.hex("30 80 05 00 00 00")))
        let tree = ASN1Parser.parse(raw)
        #expect(findings(tree) == ["indefinite-primitive 1+1"])
        #expect(tree[0].contentRange == 2..<4)
    }

    @Test func readerStartsInsideABuffer() {
        let raw = DER.hex("FF FF 02 01 05")
        #expect(read(raw, at: 2) == .success(BERHeader(start: 2, first: 0x02, tagNumber: 2, tagOverflow: false,
                                                       lengthStart: 3, contentStart: 4, length: .definite(1, longForm: false))))
        #expect(raw.withUnsafeBufferPointer { BERHeader.spansExactlyOneElement($0, from: 2, to: 5) })
    }
}
