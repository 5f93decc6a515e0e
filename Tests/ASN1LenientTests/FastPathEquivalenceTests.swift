import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient

/// The parser's fast paths (the common header read without `BERHeader.read`, a guessed
/// encapsulation closed right after its one primitive element) against the general path alone
/// (`ParseOptions.generalPathOnly`): the same nodes, roots and diagnostics, field for field, on
/// crafted edge inputs, mutated inputs, the samples and the corpus.
@Suite struct FastPathEquivalenceTests {
    static func generalOnly(_ options: ParseOptions) -> ParseOptions {
        var general = options
        general.generalPathOnly = true
        return general
    }

    /// Parses both ways and checks that every node, root and diagnostic is the same.
    @discardableResult
    static func expectSameBothWays(_ bytes: [UInt8], options: ParseOptions = ParseOptions(), _ label: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) -> Tree {
        let fast = ASN1Parser.parse(bytes, options: options)
        let general = ASN1Parser.parse(bytes, options: generalOnly(options))
        #expect(Array(fast.nodes) == Array(general.nodes), "\(label): nodes differ", sourceLocation: sourceLocation)
        #expect(fast.roots == general.roots, "\(label): roots differ", sourceLocation: sourceLocation)
        #expect(fast.diagnostics == general.diagnostics, "\(label): diagnostics differ", sourceLocation: sourceLocation)
        return fast
    }

    /// Every header form around the fast path's edges, alone and inside a parent whose end cuts it.
    static let crafted: [(String, String)] = [
        ("short form, largest", "04 7F" + String(repeating: " 41", count: 127)),
        ("long form 81, smallest minimal", "04 81 80" + String(repeating: " 41", count: 128)),
        ("long form 81 that the short form would do", "04 81 05 41 42 43 44 45"),
        ("long form 82, minimal", "04 82 01 00" + String(repeating: " 00", count: 256)),
        ("long form 82 with a leading zero", "04 82 00 05 41 42 43 44 45"),
        ("long form 83", "04 83 00 00 01 41"),
        ("long form 84 minimal", "04 84 01 00 00 00 41"),
        ("nine length octets", "04 89 00 00 00 00 00 00 00 00 01 41"),
        ("length past Int.max", "04 88 FF FF FF FF FF FF FF FF 41"),
        ("reserved length", "04 FF 41"),
        ("length octets cut by the input", "04 82 01"),
        ("length octet missing", "04"),
        ("long tag", "1F 81 00 01 41"),
        ("long tag, not minimal", "1F 05 01 41"),
        ("long tag, leading 0x80", "1F 80 21 01 41"),
        ("long tag cut", "1F 81"),
        ("long tag over 32 bits", "1F 90 80 80 80 80 00 00"),
        ("truncated content", "04 05 41 42"),
        ("truncated content, long form", "04 81 90 41 42"),
        ("length past the parent", "30 04 04 05 41 42"),
        ("length past the parent, long form", "30 05 04 81 80 41 42"),
        ("child header cut by the parent", "30 01 04 00"),
        ("child long-form length cut by the parent", "30 02 04 82 01 00"),
        ("exactly filling the parent", "30 05 04 03 41 42 43"),
        ("indefinite constructed", "30 80 02 01 05 00 00"),
        ("indefinite never closed", "30 80 02 01 05"),
        ("indefinite primitive", "04 80 41 42 00 00"),
        ("indefinite inside definite", "30 06 30 80 05 00 00 00"),
        ("EOC as element", "00 00"),
        ("EOC with content", "00 01 41"),
        ("EOC with content inside indefinite", "30 80 00 01 41 00 00"),
        ("NULL with content", "05 01 00"),
        ("BOOLEAN", "01 01 01 01 01 FF 01 02 00 00"),
        ("INTEGER forms", "30 10 02 00 02 01 00 02 02 00 01 02 02 FF 80 02 02 00 80"),
        ("ENUMERATED not minimal", "0A 02 00 05"),
        ("UTF8String invalid", "0C 03 41 C3 28"),
        ("UTF8String valid non-ASCII", "0C 02 C3 A9"),
        ("IA5String with a high byte", "16 02 41 C3"),
        ("PrintableString", "13 03 41 2A 42"),
        ("OID", "06 03 2A 86 48 06 02 80 01"),
        ("times", "30 1E 17 0D 32 34 30 31 30 31 30 30 30 30 30 30 5A 18 0D 32 30 32 34 30 31 30 31 30 30 30 30 5A"),
        ("constructed INTEGER", "22 03 02 01 05"),
        ("constructed string", "24 03 04 01 41"),
        ("primitive SEQUENCE", "10 00"),
        ("SET sorted and not", "31 06 02 01 01 02 01 02 31 06 02 01 02 02 01 01"),
        ("trailing elements", "02 01 01 02 01 02 05 00"),
        ("trailing junk", "02 01 01 FF FF"),
        ("empty input", ""),
        // Encapsulation guesses.
        ("guess: primitive inner filling the content", "04 03 02 01 07"),
        ("guess: UTF8String inner", "04 04 0C 02 61 62"),
        ("guess: inner with a DER note", "04 04 02 81 01 00"),
        ("guess: inner long-form, minimal", "04 81 83 04 81 80" + String(repeating: " 41", count: 128)),
        ("guess: inner value error undoes", "04 03 02 00 00"),
        ("guess: inner INTEGER not minimal undoes", "04 04 02 02 00 05"),
        ("guess: inner invalid UTF-8 undoes", "04 04 0C 02 C3 28"),
        ("guess: inner EOC is not guessed", "04 02 00 00"),
        ("guess: inner NULL with content", "04 03 05 01 00"),
        ("guess: inner constructed", "04 05 30 03 02 01 07"),
        ("guess: inner constructed fails deep", "04 07 30 05 30 03 02 02 07"),
        ("guess: inner constructed fails at its end", "04 06 30 04 02 01 07 00"),
        ("guess: inner indefinite", "04 07 30 80 02 01 07 00 00"),
        ("guess: inner indefinite never closed", "04 05 30 80 02 01 07"),
        ("guess: inner primitive indefinite", "04 04 04 80 00 00"),
        ("guess: nested OCTET STRINGs", "04 07 04 05 04 03 02 01 07"),
        ("guess: nested, innermost fails", "04 07 04 05 04 03 02 00 07"),
        ("guess: nested, inner not one element", "04 06 04 04 04 01 41 42"),
        ("guess: inner OCTET STRING that is not ASN.1", "04 04 04 02 41 42"),
        ("guess: inner with a long tag", "04 04 9F 81 00 00"),
        ("guess: inner long tag not minimal undoes nothing", "04 03 9F 05 00"),
        ("guess: content is two elements", "04 06 02 01 07 02 01 08"),
        ("guess: short by one", "04 04 02 01 07 00"),
        ("guess: BIT STRING", "03 04 00 02 01 07"),
        ("guess: BIT STRING with unused bits", "03 04 01 02 01 07"),
        ("guess: truncated OCTET STRING is not guessed", "04 05 02 01 07"),
        ("guess: inside a SET, sorted", "31 0A 04 03 02 01 01 04 03 02 01 02"),
        ("guess: inside a SET, not sorted", "31 0A 04 03 02 01 02 04 03 02 01 01"),
        ("guess: inside indefinite", "30 80 04 03 02 01 07 00 00"),
        ("guess: constructed OCTET STRING", "24 80 04 03 02 01 07 00 00"),
        ("guess: then trailing data", "04 03 02 01 07 FF"),
        ("guess: receipt attribute", "30 0C 02 02 06 A5 02 01 01 04 03 02 01 05"),
    ]

    @Test func craftedEdgeInputsGiveTheSameResultOnBothPaths() {
        for (label, hex) in Self.crafted {
            let bytes = DER.hex(hex)
            Self.expectSameBothWays(bytes, label)
            // Also inside an indefinite-length parent and as the guessed content of an OCTET STRING.
            Self.expectSameBothWays([0x30, 0x80] + bytes + [0x00, 0x00], "\(label) (in indefinite)")
            Self.expectSameBothWays([0x04] + derLength(bytes.count) + bytes, "\(label) (in OCTET STRING)")
            Self.expectSameBothWays(bytes, options: ParseOptions(encapsulateOnPurpose: [0]), "\(label) (on purpose)")
            Self.expectSameBothWays(bytes, options: ParseOptions(guessEncapsulation: false), "\(label) (no guess)")
        }
    }

    /// A guess at the depth limit: the guess is allowed while a frame is left, and the inner
    /// element's depth is recorded the same way on both paths.
    @Test func guessesAtTheDepthLimitGiveTheSameResult() {
        let attribute = DER.hex("30 0B 02 01 01 02 01 01 04 03 02 01 05")
        for maxDepth in 0...4 {
            var nested = attribute
            for _ in 0..<3 { nested = [0x30] + derLength(nested.count) + nested }
            let tree = Self.expectSameBothWays(nested, options: ParseOptions(maxDepth: maxDepth), "maxDepth \(maxDepth)")
            #expect(tree.coverageViolations().isEmpty)
        }
    }

    /// The per-code cap counts the same diagnostics on both paths (guesses count none).
    @Test func diagnosticCapGivesTheSameResult() {
        var bytes: [UInt8] = []
        for _ in 0..<5 { bytes += DER.hex("04 04 02 81 01 00 04 81 05 41 42 43 44 45") }
        Self.expectSameBothWays(bytes, options: ParseOptions(maxDiagnosticsPerCode: 2), "capped")
    }

    /// The exact result on the shapes the fast paths take, so that both paths are pinned, not only equal.
    @Test func fastPathShapesGiveExactNodesAndDiagnostics() {
        // SEQUENCE { INTEGER 1701, INTEGER 1, OCTET STRING { INTEGER 5 } }: the guess closes after its element.
        let attribute = Self.expectSameBothWays(DER.hex("30 0C 02 02 06 A5 02 01 01 04 03 02 01 05"), "attribute")
        #expect(attribute.diagnostics.isEmpty)
        #expect(attribute.nodes.map(\.offset) == [0, 2, 6, 9, 11])
        #expect(attribute.nodes.map(\.subtreeEnd) == [5, 2, 3, 5, 5])
        #expect(attribute.nodes.indices.map(attribute.nodes.parentIndex) == [-1, 0, 0, 0, 3])
        #expect(attribute.nodes.map(\.depth) == [0, 1, 1, 1, 2])
        #expect(attribute.nodes.map(\.isEncapsulated) == [false, false, false, true, false])

        // Long form 81 with a value under 128: a not-minimal length, pinned to the length octets.
        let notMinimal = Self.expectSameBothWays(DER.hex("04 81 05 41 42 43 44 45"), "81 05")
        #expect(notMinimal.diagnostics.map(\.code) == [ParserCode.lengthNotMinimal.code])
        #expect(notMinimal.diagnostics.map(\.range) == [1..<3])
        #expect(notMinimal[0].lengthLength == 2 && notMinimal[0].contentLength == 5)

        // Long form 82 with a leading zero.
        let leadingZero = Self.expectSameBothWays(DER.hex("04 82 00 05 41 42 43 44 45"), "82 00 05")
        #expect(leadingZero.diagnostics.map(\.code) == [ParserCode.lengthNotMinimal.code])
        #expect(leadingZero.diagnostics.map(\.range) == [1..<4])

        // A minimal 82 length read by the fast path: no diagnostic, three length octets.
        let minimal = Self.expectSameBothWays(DER.hex("04 82 01 00") + [UInt8](repeating: 0x41, count: 256), "82 01 00")
        #expect(minimal.diagnostics.isEmpty && minimal[0].lengthLength == 3 && minimal[0].contentLength == 256)

        // A length one past the parent's end is clamped and reported at the length octets.
        let pastParent = Self.expectSameBothWays(DER.hex("30 08 30 04 04 03 41 42 05 00"), "past parent")
        #expect(pastParent.diagnostics.map(\.code) == [ParserCode.lengthExceedsParent.code])
        #expect(pastParent.diagnostics.map(\.range) == [5..<6])
        #expect(pastParent[2].contentLength == 2 && pastParent.count == 4)
        // The same cut by the end of the input.
        let truncated = Self.expectSameBothWays(DER.hex("30 04 04 03 41 42"), "truncated")
        #expect(truncated.diagnostics.map(\.code) == [ParserCode.truncatedContent.code])
        #expect(truncated.diagnostics.map(\.range) == [3..<4])

        // A guess whose single element has a DER note keeps the note; one whose element has an
        // error is undone without a trace.
        let noted = Self.expectSameBothWays(DER.hex("04 04 02 81 01 00"), "guess with note")
        #expect(noted[0].isEncapsulated && noted.count == 2)
        #expect(noted.diagnostics.map(\.code) == [ParserCode.lengthNotMinimal.code])
        #expect(noted.diagnostics.map(\.range) == [3..<5])
        let undone = Self.expectSameBothWays(DER.hex("04 04 02 02 00 05"), "guess undone")
        #expect(!undone[0].isEncapsulated && undone.count == 1 && undone.diagnostics.isEmpty)

        // Nested guesses: each OCTET STRING holds the next; all three are kept.
        let nested = Self.expectSameBothWays(DER.hex("04 07 04 05 04 03 02 01 07"), "nested")
        #expect(nested.nodes.map(\.isEncapsulated) == [true, true, true, false])
        #expect(nested.nodes.map(\.subtreeEnd) == [4, 4, 4, 4] && nested.diagnostics.isEmpty)
    }

    /// Random mutations of valid inputs (receipt-shaped ones among them): same result both ways.
    @Test func mutatedInputsGiveTheSameResultOnBothPaths() {
        var seeds = MutationTests.seeds()
        var rng = SeededRandom(state: 12)
        for _ in 0..<8 { seeds.append(Self.receiptShapedPayload(purchases: 3, using: &rng)) }
        let mutator = MutationTests()
        for (seedIndex, seed) in seeds.enumerated() {
            Self.expectSameBothWays(seed, "seed \(seedIndex)")
            for round in 0..<80 {
                var input = seed
                for _ in 0..<Int.random(in: 1...4, using: &rng) { mutator.mutate(&input, using: &rng) }
                Self.expectSameBothWays(input, "seed \(seedIndex) round \(round)")
            }
        }
    }

    @Test func samplesGiveTheSameResultOnBothPaths() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Paths.samples, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "receipt" }
        #expect(files.count >= 10)
        for url in files {
            Self.expectSameBothWays(Array(try Data(contentsOf: url)), url.lastPathComponent)
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func corpusGivesTheSameResultOnBothPaths() throws {
        let files = CorpusTests.receiptFiles()
        #expect(!files.isEmpty)
        for url in files {
            Self.expectSameBothWays(Array(try Data(contentsOf: url)), url.lastPathComponent)
        }
    }

    /// SET OF attribute SEQUENCEs whose values sit in OCTET STRINGs, purchases holding a SET of their own.
    static func receiptShapedPayload(purchases: Int, using rng: inout SeededRandom) -> [UInt8] {
        func attribute(_ type: Int, _ value: TestElement) -> TestElement {
            .constructed(tag: 0x30, children: [
                .primitive(tag: 0x02, content: type < 128 ? [UInt8(type)] : [UInt8(type >> 8), UInt8(type & 0xFF)]),
                .primitive(tag: 0x02, content: [1]),
                .primitive(tag: 0x04, content: value.encoded),
            ])
        }
        func randomValue() -> TestElement {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: .primitive(tag: 0x02, content: [UInt8.random(in: 1...0x7F, using: &rng)])
            case 1: .primitive(tag: 0x0C, content: Array("com.example.app".utf8.prefix(Int.random(in: 0...15, using: &rng))))
            default: .primitive(tag: 0x16, content: Array("2026-11-23T01:00:00Z".utf8))
            }
        }
        var top: [TestElement] = (2...5).map { attribute($0, randomValue()) }
        for _ in 0..<purchases {
            let fields = (1701...1712).map { attribute($0, randomValue()) }
            top.append(attribute(17, .constructed(tag: 0x31, children: fields)))
        }
        return TestElement.constructed(tag: 0x31, children: top).encoded
    }
}

/// DER SET order compares encodings padded with zeros; the first eight octets are compared as one
/// word before `memcmp`. Checked against a byte-by-byte reference.
@Suite struct SetOrderComparisonTests {
    static func reference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    @Test func comparisonMatchesByteByByteOrder() {
        var rng = SeededRandom(state: 11)
        let alphabet: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xFF]
        for _ in 0..<20_000 {
            let a = (0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            var b = a
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: if !b.isEmpty { b[Int.random(in: 0..<b.count, using: &rng)] = alphabet.randomElement(using: &rng)! }
            case 1: b += (0..<Int.random(in: 1...3, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            case 2: b = Array(b.prefix(Int.random(in: 0...b.count, using: &rng)))
            default: b = (0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            let bytes = a + b
            let got = bytes.withUnsafeBufferPointer { ParserMachine.compareZeroPadded($0, 0..<a.count, a.count..<bytes.count) }
            #expect(got == Self.reference(a, b), "\(a) vs \(b)")
        }
    }

    /// Ten-octet elements out of order in their first eight octets, and only after them.
    @Test func unsortedSetIsReportedAtTheExactElement() {
        let early = parse("31 18 30 0A 02 01 02 04 05 41 41 41 41 41 30 0A 02 01 01 04 05 41 41 41 41 41")
        #expect(early.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(early.diagnostics.map(\.range) == [14..<26])
        let late = parse("31 18 30 0A 02 01 01 04 05 41 41 41 41 42 30 0A 02 01 01 04 05 41 41 41 41 41")
        #expect(late.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(late.diagnostics.map(\.range) == [14..<26])
        let sorted = parse("31 18 30 0A 02 01 01 04 05 41 41 41 41 41 30 0A 02 01 01 04 05 41 41 41 41 42")
        #expect(sorted.diagnostics.isEmpty && sorted.count == 7)
    }
}
