import Testing
@testable import ASN1Lenient

/// One hand-built input per diagnostic code, with the exact range the diagnostic must cover.
struct DiagnosticCase: CustomTestStringConvertible, Sendable {
    var code: ParserCode
    var hex: String
    var offset: Int
    var length: Int
    var maxDepth = 256
    var maxNodes: Int?
    var testDescription: String { "\(code.rawValue): \(hex)" }
}

let diagnosticCases: [DiagnosticCase] = [
    .init(code: .truncatedIdentifier, hex: "1F 81", offset: 0, length: 2),
    .init(code: .truncatedLength, hex: "30", offset: 0, length: 1),
    .init(code: .truncatedContent, hex: "04 05 41 42", offset: 1, length: 1),
    .init(code: .lengthExceedsParent, hex: "30 04 04 05 41 42 05 00", offset: 3, length: 1),
    .init(code: .lengthTooManyOctets, hex: "04 89 00 00 00 00 00 00 00 00 01 41", offset: 1, length: 10),
    .init(code: .lengthReserved, hex: "04 FF 41", offset: 1, length: 1),
    .init(code: .lengthOverflow, hex: "04 88 FF FF FF FF FF FF FF FF 41", offset: 1, length: 9),
    .init(code: .lengthNotMinimal, hex: "04 81 01 41", offset: 1, length: 2),
    .init(code: .indefiniteLength, hex: "30 80 05 00 00 00", offset: 1, length: 1),
    .init(code: .indefinitePrimitive, hex: "04 80 41 42 00 00", offset: 1, length: 1),
    .init(code: .missingEOC, hex: "30 80 05 00", offset: 1, length: 1),
    .init(code: .strayEOC, hex: "30 04 00 00 05 00", offset: 2, length: 2),
    .init(code: .eocNonZeroLength, hex: "30 80 00 01 41 00 00", offset: 2, length: 2),
    .init(code: .tagNotMinimal, hex: "1F 05 00", offset: 0, length: 2),
    .init(code: .tagLeadingZero, hex: "1F 80 20 00", offset: 0, length: 3),
    .init(code: .tagTooLarge, hex: "1F FF FF FF FF 7F 00", offset: 0, length: 6),
    .init(code: .trailingData, hex: "05 00 05 00", offset: 2, length: 2),
    .init(code: .nestingTooDeep, hex: "30 06 30 04 30 02 05 00", offset: 4, length: 2, maxDepth: 2),
    .init(code: .tooManyElements, hex: "30 06 05 00 05 00 05 00", offset: 6, length: 2, maxNodes: 3),
    .init(code: .mustBePrimitive, hex: "22 03 02 01 05", offset: 0, length: 1),
    .init(code: .mustBeConstructed, hex: "10 00", offset: 0, length: 1),
    .init(code: .constructedString, hex: "24 06 04 01 41 04 01 42", offset: 0, length: 1),
    .init(code: .setNotSorted, hex: "31 06 02 01 02 02 01 01", offset: 5, length: 3),
    .init(code: .booleanLength, hex: "01 02 FF FF", offset: 2, length: 2),
    .init(code: .booleanValue, hex: "01 01 01", offset: 2, length: 1),
    .init(code: .nullContent, hex: "05 01 00", offset: 2, length: 1),
    .init(code: .integerEmpty, hex: "02 00", offset: 2, length: 0),
    .init(code: .integerNotMinimal, hex: "02 02 00 7F", offset: 2, length: 1),
    .init(code: .bitStringEmpty, hex: "03 00", offset: 2, length: 0),
    .init(code: .bitStringUnusedBits, hex: "03 02 08 00", offset: 2, length: 1),
    .init(code: .bitStringPadding, hex: "03 02 04 F1", offset: 3, length: 1),
    .init(code: .oidEmpty, hex: "06 00", offset: 2, length: 0),
    .init(code: .oidTruncated, hex: "06 02 2A 86", offset: 3, length: 1),
    .init(code: .oidLeadingZero, hex: "06 03 2A 80 01", offset: 3, length: 1),
    .init(code: .utf8Invalid, hex: "0C 02 C3 28", offset: 2, length: 1),
    .init(code: .stringCharset, hex: "13 02 41 40", offset: 3, length: 1),
    .init(code: .bmpLength, hex: "1E 03 00 41 00", offset: 2, length: 3),
    .init(code: .universalStringLength, hex: "1C 03 00 00 41", offset: 2, length: 3),
    // UTCTime "991332000000Z": month 13.
    .init(code: .timeMalformed, hex: "17 0D 39 39 31 33 33 32 30 30 30 30 30 30 5A", offset: 2, length: 13),
    // GeneralizedTime "20240101000000" without 'Z'.
    .init(code: .timeNotDER, hex: "18 0E 32 30 32 34 30 31 30 31 30 30 30 30 30 30", offset: 2, length: 14),
]

@Suite struct DiagnosticCodeTests {
    @Test(arguments: diagnosticCases)
    func diagnosticHasExactRange(_ c: DiagnosticCase) {
        let tree = parse(c.hex, options: ParseOptions(maxDepth: c.maxDepth, maxNodes: c.maxNodes))
        let matching = tree.diagnostics.filter { $0.code == c.code.code }
        #expect(matching.count == 1, "diagnostics: \(tree.diagnostics)")
        #expect(matching.first?.offset == c.offset)
        #expect(matching.first?.length == c.length)
        #expect(matching.first?.severity == c.code.severity)
        #expect(tree.coverageViolations().isEmpty, "\(tree.coverageViolations())")
    }

    @Test func everyCodeExceptInputTooLargeHasACase() {
        let covered = Set(diagnosticCases.map(\.code))
        let missing = ParserCode.allCases.filter { !covered.contains($0) && $0 != .inputTooLarge }
        #expect(missing.isEmpty, "no hand-built case for \(missing)")
    }

    @Test func severitiesAreAsDocumented() {
        #expect(ParserCode.indefiniteLength.severity == .notDER)
        #expect(ParserCode.setNotSorted.severity == .notDER)
        #expect(ParserCode.trailingData.severity == .warning)
        #expect(ParserCode.truncatedContent.severity == .error)
        #expect(Severity.notDER.description == "der")
    }

    @Test func leadingZeroLengthOctetIsNotMinimal() {
        let tree = parse("04 82 00 01 41")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.lengthNotMinimal.code])
        #expect(tree.diagnostics[0].range == 1..<4)
        #expect(tree[0].contentLength == 1)
    }

    @Test func integerWithRedundantFFIsNotMinimal() {
        #expect(parse("02 02 FF 80").diagnostics.map(\.code) == [ParserCode.integerNotMinimal.code])
        #expect(parse("02 02 00 80").diagnostics.isEmpty)
        #expect(parse("02 02 FF 7F").diagnostics.isEmpty)
    }

    @Test func identifierLongerThanTheNodeCanRecordBecomesUnparsed() {
        // A long-form tag with 300 continuation octets: nothing sane, and more than the one-byte
        // identifier-length field holds.
        let input: [UInt8] = [0x1F] + [UInt8](repeating: 0x81, count: 300) + [0x01, 0x00]
        let tree = ASN1Parser.parse(input)
        #expect(tree.count == 1 && tree[0].kind == .unparsed && tree[0].byteRange == 0..<input.count)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.tagTooLarge.code])
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func setOrderComparesLongSharedPrefixes() {
        // Two OCTET STRINGs of 20 octets that differ only in the last one: the comparison runs
        // through the eight-bytes-at-a-time path before it finds the difference.
        let prefix = [UInt8](repeating: 0x41, count: 19)
        let low: [UInt8] = [0x04, 0x14] + prefix + [0x01]
        let high: [UInt8] = [0x04, 0x14] + prefix + [0x02]
        let sorted = ASN1Parser.parse([0x31, 0x2C] + low + high)
        #expect(sorted.diagnostics.isEmpty)
        let unsorted = ASN1Parser.parse([0x31, 0x2C] + high + low)
        #expect(unsorted.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(unsorted.diagnostics.first?.range == 24..<46)
    }

    @Test func ia5StringRejectsHighBytes() {
        let tree = parse("16 02 41 80")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.stringCharset.code])
        #expect(tree.diagnostics[0].range == 3..<4)
    }

    @Test func emptyBitStringWithUnusedBitsIsInvalid() {
        let tree = parse("03 01 03")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.bitStringUnusedBits.code])
        #expect(tree.diagnostics[0].range == 2..<3)
    }

    @Test func trailingDataIsParsedAsFurtherTopLevelNodes() {
        let tree = parse("05 00 02 01 07")
        #expect(tree.roots == [0, 1])
        #expect(tree.value(of: 1) == .integer(decimal: "7", hex: nil))
        #expect(tree.diagnostics.map(\.code) == [ParserCode.trailingData.code])
    }

    @Test func unreadableTrailingBytesAreOneRegionUnderTheWarning() {
        // DE AD BE EF after a NULL: 0xAD announces 45 length octets that are not there.
        let tree = parse("05 00 DE AD BE EF")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.trailingData.code])
        #expect(tree.diagnostics[0].range == 2..<6)
        #expect(tree.roots == [0, 1] && tree[1].kind == .unparsed && tree[1].byteRange == 2..<6)
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func excessLengthRecoversAndKeepsParsingSiblings() {
        // The second element claims 5 octets inside a 6-octet SEQUENCE with 3 left.
        let tree = parse("30 06 05 00 04 05 41 42 02 01 09")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.lengthExceedsParent.code, ParserCode.trailingData.code])
        #expect(tree[2].contentLength == 2)
        #expect(tree.roots == [0, 3])
        #expect(tree.value(of: 3) == .integer(decimal: "9", hex: nil))
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func headerErrorInsideSequenceBecomesUnparsedRegionAndParentStillCloses() {
        let tree = parse("30 03 05 00 1F 02 01 01")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.truncatedIdentifier.code, ParserCode.trailingData.code])
        #expect(tree[2].kind == .unparsed)
        #expect(tree[2].byteRange == 4..<5)
        #expect(tree.roots == [0, 3])  // the INTEGER after the SEQUENCE
        #expect(tree.coverageViolations().isEmpty)
    }
}
