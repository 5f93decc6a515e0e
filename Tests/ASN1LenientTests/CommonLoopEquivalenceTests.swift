import Testing
import TestSupport
@testable import ASN1Lenient

/// The common-element loop (`ParserMachine.runCommon`, which keeps the walk's state in locals)
/// against the general path alone (`ParseOptions.generalPathOnly`). The loop runs only inside
/// definite-length constructed content, so every edge input is placed there: as the only child,
/// after a sibling, two levels down, inside a guessed OCTET STRING's SEQUENCE, at every depth
/// limit, with the node buffer filling up mid-loop, and with an on-purpose encapsulation.
@Suite struct CommonLoopEquivalenceTests {
    static func same(_ bytes: [UInt8], options: ParseOptions = ParseOptions(), _ label: String,
                     sourceLocation: SourceLocation = #_sourceLocation) -> Tree {
        FastPathEquivalenceTests.expectSameBothWays(bytes, options: options, label, sourceLocation: sourceLocation)
    }

    /// Wrappings that put `bytes` inside content the loop walks.
    static func placements(_ bytes: [UInt8]) -> [(String, [UInt8])] {
        [
            ("in SEQUENCE", DER.tlv(0x30, bytes)),
            ("after a sibling", DER.tlv(0x30, DER.int(1) + bytes)),
            ("before a sibling", DER.tlv(0x30, bytes + DER.int(1))),
            ("two levels down", DER.tlv(0x30, DER.tlv(0x30, bytes) + DER.int(2))),
            ("in SET", DER.tlv(0x31, bytes)),
            ("in a context tag", DER.tlv(0xA0, bytes)),
            ("in a guessed SEQUENCE", DER.octets(DER.tlv(0x30, DER.int(1) + bytes))),
            ("in a guessed SEQUENCE, two levels", DER.tlv(0x30, DER.octets(DER.tlv(0x30, DER.tlv(0x30, bytes))))),
        ]
    }

    @Test func craftedEdgeInputsInsideDefiniteContentGiveTheSameResult() {
        for (label, hex) in FastPathEquivalenceTests.crafted {
            for (place, input) in Self.placements(DER.hex(hex)) {
                _ = Self.same(input, "\(label) (\(place))")
                _ = Self.same(input, options: ParseOptions(guessEncapsulation: false), "\(label) (\(place), no guess)")
                for maxDepth in 0...3 {
                    _ = Self.same(input, options: ParseOptions(maxDepth: maxDepth), "\(label) (\(place), maxDepth \(maxDepth))")
                }
            }
        }
    }

    /// Inner elements of a guessed OCTET STRING that the loop must leave to the general path (a
    /// header or value to report, a nested guess) and ones it takes, inside a SEQUENCE.
    static let guessedInners: [(String, String)] = [
        ("INTEGER", "02 01 07"), ("INTEGER, two octets", "02 02 01 00"), ("INTEGER not minimal", "02 02 00 05"),
        ("INTEGER empty", "02 00"), ("ENUMERATED", "0A 01 01"), ("UTF8String", "0C 02 61 62"),
        ("UTF8String empty", "0C 00"), ("UTF8String non-ASCII", "0C 02 C3 A9"), ("UTF8String invalid", "0C 02 C3 28"),
        ("IA5String", "16 03 34 2B 21"), ("IA5String high byte", "16 01 C3"), ("BOOLEAN", "01 01 FF"),
        ("BOOLEAN not DER", "01 01 01"), ("NULL", "05 00"), ("NULL with content", "05 01 00"), ("OID", "06 03 2A 86 48"),
        ("primitive SEQUENCE", "10 00"), ("primitive SET", "11 01 00"), ("OCTET STRING raw", "04 02 41 42"),
        ("OCTET STRING guessed", "04 03 02 01 07"), ("BIT STRING", "03 02 00 41"), ("context primitive", "80 01 41"),
        ("application primitive", "41 01 41"), ("private primitive", "C1 00"), ("tag 0x1E BMPString odd", "1E 01 41"),
        ("UTCTime", "17 0D 32 34 30 31 30 31 30 30 30 30 30 30 5A"), ("long-form 81 value", "0C 81 80" + String(repeating: " 41", count: 128)),
        ("constructed, empty", "30 00"), ("constructed INTEGER", "22 03 02 01 05"), ("constructed, context", "A1 03 02 01 05"),
        ("constructed, bad inside", "30 04 02 02 00 05"),
    ]

    @Test func guessedInnerElementsGiveTheSameResult() {
        for (label, hex) in Self.guessedInners {
            let inner = DER.hex(hex)
            let attribute = DER.seq(DER.int(1701), DER.int(1), DER.octets(inner))
            for (place, input) in [("attribute", attribute), ("two attributes", DER.tlv(0x31, attribute + attribute)),
                                   ("followed by junk", DER.tlv(0x30, DER.octets(inner + [0x00])))] {
                _ = Self.same(input, "\(label) (\(place))")
                for maxDepth in 0...2 {
                    _ = Self.same(input, options: ParseOptions(maxDepth: maxDepth), "\(label) (\(place), maxDepth \(maxDepth))")
                }
            }
            // On purpose at the OCTET STRING (the attribute's last element), and on purpose elsewhere.
            let octetOffset = attribute.count - DER.octets(inner).count
            _ = Self.same(attribute, options: ParseOptions(encapsulateOnPurpose: [octetOffset]), "\(label) (on purpose)")
            _ = Self.same(attribute, options: ParseOptions(encapsulateOnPurpose: [0]), "\(label) (on purpose elsewhere)")
        }
    }

    /// The node buffer is reserved from the input size (a third of it): two-octet NULLs fill it in
    /// the middle of the loop, which then leaves the append that grows it to the general path.
    @Test func nodeBufferFillingUpMidLoopGivesTheSameExactNodes() {
        let count = 5_000
        let nulls: [UInt8] = (0..<count).flatMap { _ in [0x05, 0x00] }
        let tree = Self.same(DER.tlv(0x30, nulls), "NULLs")
        #expect(tree.count == count + 1 && tree.diagnostics.isEmpty)
        let lastOffset = UInt32(4 + 2 * (count - 1))
        #expect(tree[0].subtreeEnd == Int32(count + 1))
        #expect(tree[count].offset == lastOffset)
        let children = tree.nodes.dropFirst()
        #expect(children.allSatisfy { node in node.depth == 1 && node.tagNumber == 5 })
        #expect((1...count).allSatisfy { tree.nodes.parentIndex($0) == 0 })
        // The same with guessed OCTET STRINGs, which append two nodes at once.
        let pair = DER.hex("04 02 05 00 04 03 02 01 07")
        let guesses: [UInt8] = (0..<count).flatMap { _ in pair }
        let guessed = Self.same(DER.tlv(0x30, guesses), "guesses")
        #expect(guessed.count == 1 + 4 * count && guessed.diagnostics.isEmpty)
        #expect(guessed.nodes.filter(\.isEncapsulated).count == 2 * count)
    }

    /// The exact tree for the shapes the loop writes itself: constructed children, a guess of one
    /// primitive element (both nodes at once), a constructed guess, a value checked in detail.
    @Test func loopShapesGiveExactNodesAndDiagnostics() {
        // SEQUENCE { SEQUENCE { INTEGER 5, OCTET STRING { UTF8String "ab" } },
        //            OCTET STRING { SEQUENCE { INTEGER 7 } }, INTEGER 00 05 }
        let bytes = DER.hex("30 16 30 09 02 01 05 04 04 0C 02 61 62 04 05 30 03 02 01 07 02 02 00 05")
        let tree = Self.same(bytes, "shapes")
        #expect(tree.nodes.map(\.offset) == [0, 2, 4, 7, 9, 13, 15, 17, 20])
        #expect(tree.nodes.indices.map(tree.nodes.parentIndex) == [-1, 0, 1, 1, 3, 0, 5, 6, 0])
        #expect(tree.nodes.map(\.depth) == [0, 1, 2, 2, 3, 1, 2, 3, 1])
        #expect(tree.nodes.map(\.subtreeEnd) == [9, 5, 3, 5, 5, 8, 8, 8, 9])
        #expect(tree.nodes.map(\.contentLength) == [22, 9, 1, 4, 2, 5, 3, 1, 2])
        #expect(tree.nodes.map(\.isEncapsulated) == [false, false, false, true, false, true, false, false, false])
        // The not-minimal INTEGER outside any guess is reported once, at its first content octet.
        #expect(tree.diagnostics.map(\.code) == [ParserCode.integerNotMinimal.code])
        #expect(tree.diagnostics.map(\.range) == [22..<23])
        #expect(tree.diagnostics.map(\.node?.index) == [8])

        // An empty INTEGER inside the constructed guess undoes it: the OCTET STRING is plain again.
        let undone = Self.same(DER.hex("30 09 04 07 30 05 02 01 01 02 00"), "guess undone")
        #expect(undone.count == 2 && !undone[1].isEncapsulated && undone[1].subtreeEnd == 2)
        #expect(undone.diagnostics.isEmpty)
    }

    /// A SET closed by the loop's caller is still checked for DER order, at the exact element.
    @Test func setOrderIsCheckedAfterTheLoop() {
        let tree = Self.same(DER.hex("30 08 31 06 02 01 02 02 01 01"), "SET")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(tree.diagnostics.map(\.range) == [7..<10])
    }

    /// Receipt-shaped payloads (the loop's main customer) at several depth limits.
    @Test func receiptShapedPayloadsGiveTheSameResult() {
        var rng = SeededRandom(state: 23)
        for purchases in [0, 1, 4] {
            let payload = FastPathEquivalenceTests.receiptShapedPayload(purchases: purchases, using: &rng)
            for maxDepth in [1, 2, 3, 5, 256] {
                _ = Self.same(payload, options: ParseOptions(maxDepth: maxDepth), "\(purchases) purchases, maxDepth \(maxDepth)")
            }
        }
    }
}
