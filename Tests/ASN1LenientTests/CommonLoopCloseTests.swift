import Testing
import TestSupport
@testable import ASN1Lenient

/// Closes the common loop takes itself (the history of docs/performance.md, "2026-11-23: parse at a hundred
/// instructions per node"): a SET whose children are in DER order (`setChildrenAreInOrder`, which
/// reads a child's range as running to the next child's offset) and a guess that holds. Each is
/// compared with the general path alone, in every placement of `CommonLoopEquivalenceTests`, with
/// and without the guess and at depth limits 0-3, and the shapes the loop writes are checked exactly.
extension CommonLoopEquivalenceTests {
    /// An 8-octet-or-longer SET element: SEQUENCE { INTEGER type, OCTET STRING value }.
    static func long(_ type: Int, _ value: String) -> [UInt8] { DER.seq(DER.int(type), DER.octets(Array(value.utf8))) }

    /// SET contents around the edges of the loop's order check.
    static let setContents: [(String, [UInt8])] = [
        ("empty", []),
        ("one element", DER.int(5)),
        ("one long element", long(1, "abcdefgh")),
        ("short, in order", DER.int(1) + DER.int(2)),
        ("short, out of order", DER.int(2) + DER.int(1)),
        ("short, equal", DER.int(7) + DER.int(7)),
        ("short then long, in order", DER.int(1) + long(1, "abcdefgh")),
        ("long then short, out of order", long(1, "abcdefgh") + DER.int(1)),
        ("long, in order by the first word", long(1, "abcdefgh") + long(2, "abcdefgh")),
        ("long, out of order by the first word", long(2, "abcdefgh") + long(1, "abcdefgh")),
        ("long, tie on the first byte, in order", long(1, "aaaaaaaa") + long(1, "aaaaaaab")),
        ("long, tie on the first word, in order after it", long(1, "aaaaaaaaaa") + long(1, "aaaaaaaaab")),
        ("long, tie on the first word, out of order after it", long(1, "aaaaaaaaab") + long(1, "aaaaaaaaaa")),
        ("long, equal", long(3, "same value") + long(3, "same value")),
        ("long, a prefix then a longer one", long(3, "abcdefgh") + long(3, "abcdefghi")),
        ("long, equal first word, shorter second", long(3, "abcdefghi") + long(3, "abcdefgh")),
        ("three, out of order last", long(1, "x") + long(2, "x") + long(2, "w")),
        ("three, out of order first", long(2, "x") + long(1, "x") + long(3, "x")),
        ("mixed tags, in order", DER.int(1) + DER.utf8("zz") + DER.tlv(0x30, [])),
        ("mixed tags, out of order", DER.utf8("zz") + DER.int(1)),
        ("a SET inside, out of order", DER.set(DER.int(2), DER.int(1)) + DER.int(0x7F)),
        ("an indefinite child", DER.hex("30 80 02 01 01 00 00") + long(9, "abcdefgh")),
        ("an indefinite child, out of order", long(9, "abcdefgh") + DER.hex("30 80 02 01 01 00 00")),
        ("a not-minimal INTEGER child", DER.hex("02 02 00 05") + DER.int(9)),
        ("an unparsed last child", DER.int(1) + DER.hex("1F")),
        ("an unparsed last child, long", long(1, "abcdefgh") + DER.hex("1F 81 81 81 81 81 81 81 81")),
        ("the last child cut", DER.int(1) + DER.hex("04 09 41 42")),
        ("the last child cut, long", long(1, "abcdefgh") + DER.hex("30 0A 02 01 05 04 05 41 42 43")),
        ("guessed OCTET STRINGs, in order", DER.octets(DER.int(1)) + DER.octets(DER.int(2))),
        ("guessed OCTET STRINGs, out of order", DER.octets(DER.seq(DER.int(2))) + DER.octets(DER.seq(DER.int(1)))),
        ("a constructed guess of a SET", DER.octets(DER.set(long(2, "abcdefgh"), long(1, "abcdefgh")))),
    ]

    @Test func setsClosedInTheLoopGiveTheSameResult() {
        for (label, content) in Self.setContents {
            let set = DER.tlv(0x31, content)
            var inputs = Self.placements(set)
            // SET OF inside indefinite content, and the SET itself indefinite (both left to the general turn).
            inputs.append(("in indefinite content", DER.hex("30 80") + set + DER.hex("00 00")))
            inputs.append(("indefinite SET", DER.hex("31 80") + content + DER.hex("00 00")))
            inputs.append(("in a guessed SET", DER.octets(DER.tlv(0x31, set + DER.int(1)))))
            for (place, input) in inputs {
                _ = Self.same(input, "\(label) (\(place))")
                _ = Self.same(input, options: ParseOptions(guessEncapsulation: false), "\(label) (\(place), no guess)")
                for maxDepth in 0...3 {
                    _ = Self.same(input, options: ParseOptions(maxDepth: maxDepth), "\(label) (\(place), maxDepth \(maxDepth))")
                }
            }
        }
    }

    /// A SET in order closed by the loop: every node exact, no diagnostic. Out of order: the general
    /// turn reports the first element out of place, at its exact range, once.
    @Test func setCloseGivesExactNodesAndDiagnostics() {
        // SEQUENCE { SET { SEQUENCE { INTEGER 1, OCTET STRING "abcdefgh" } x2, the second larger } }
        let first = Self.long(1, "abcdefgh"), second = Self.long(1, "abcdefgi")
        let sorted = Self.same(DER.seq(DER.tlv(0x31, first + second)), "sorted")
        #expect(sorted.diagnostics.isEmpty)
        #expect(sorted.nodes.map(\.offset) == [0, 2, 4, 6, 9, 19, 21, 24])
        #expect(sorted.nodes.indices.map(sorted.nodes.parentIndex) == [-1, 0, 1, 2, 2, 1, 5, 5])
        #expect(sorted.nodes.map(\.subtreeEnd) == [8, 8, 5, 4, 5, 8, 7, 8])
        #expect(sorted.nodes.map(\.depth) == [0, 1, 2, 3, 3, 2, 3, 3])

        let unsorted = Self.same(DER.seq(DER.tlv(0x31, second + first)), "unsorted")
        #expect(unsorted.nodes.map(\.subtreeEnd) == sorted.nodes.map(\.subtreeEnd))
        #expect(unsorted.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(unsorted.diagnostics.map(\.range) == [19..<34])
        #expect(unsorted.diagnostics.map(\.node?.index) == [5])
        #expect(unsorted.diagnostics.map(\.message)
            == ["this SET element sorts before the previous one (offset 4); DER requires ascending order"])

        // Equal in the first eight octets, out of order only in the ninth.
        let late = Self.same(DER.tlv(0x31, Self.long(1, "aaaaaaab") + Self.long(1, "aaaaaaaa")), "late")
        #expect(late.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(late.diagnostics.map(\.range) == [17..<32])
    }

    /// A guessed OCTET STRING holding a SET (an in-app purchase): the SET and the guess both close
    /// in the loop, and the nodes are exactly the general path's; out of order, the SET is still
    /// reported (a not-DER finding does not undo a guess).
    @Test func guessedSetClosesGiveExactNodes() {
        let set = DER.tlv(0x31, DER.seq(DER.int(1701), DER.int(1), DER.octets(DER.int(3)))
                          + DER.seq(DER.int(1702), DER.int(1), DER.octets(DER.utf8("p"))))
        let attribute = DER.seq(DER.int(17), DER.int(1), DER.octets(set))
        let tree = Self.same(attribute, "purchase")
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.count == 15)
        #expect(tree.nodes.indices.filter { tree[$0].isEncapsulated } == [3, 8, 13])
        #expect(tree[0].subtreeEnd == 15 && tree[3].subtreeEnd == 15 && tree[4].subtreeEnd == 15)
        #expect(tree.parent(of: 4) == 3 && tree[4].depth == 2 && tree[4].isUniversal(17))
        #expect(tree.nodes.indices.map(tree.nodes.parentIndex) == [-1, 0, 0, 0, 3, 4, 5, 5, 5, 8, 4, 10, 10, 10, 13])

        let swapped = DER.tlv(0x31, DER.seq(DER.int(1702), DER.int(1), DER.octets(DER.utf8("p")))
                              + DER.seq(DER.int(1701), DER.int(1), DER.octets(DER.int(3))))
        let reported = Self.same(DER.seq(DER.int(17), DER.int(1), DER.octets(swapped)), "purchase, unsorted")
        #expect(reported.count == 15 && reported[3].isEncapsulated)
        #expect(reported.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(reported.diagnostics.map(\.node?.index) == [10])
        #expect(reported.diagnostics.map(\.range) == [Int(reported[10].offset)..<reported[10].end])
    }

    /// Guesses the loop closes and ones it leaves: a constructed guess nested in another, one at
    /// the depth limit, one whose element holds an error (undone by the general turn).
    @Test func guessClosesGiveTheSameResult() {
        let inners: [(String, [UInt8])] = [
            ("SEQUENCE", DER.seq(DER.int(1))),
            ("SEQUENCE of a guess", DER.seq(DER.octets(DER.seq(DER.int(1))))),
            ("guess of a guess", DER.octets(DER.seq(DER.int(1)))),
            ("SET in order", DER.set(DER.int(1), DER.int(2))),
            ("SET out of order", DER.set(DER.int(2), DER.int(1))),
            ("SEQUENCE with an empty INTEGER", DER.seq(DER.hex("02 00"))),
            ("SEQUENCE with a cut element", DER.seq(DER.hex("04 05 41"))),
            ("empty SEQUENCE", DER.seq()),
        ]
        for (label, inner) in inners {
            for (place, input) in Self.placements(DER.octets(inner)) {
                for maxDepth in [0, 1, 2, 3, 4, 256] {
                    _ = Self.same(input, options: ParseOptions(maxDepth: maxDepth), "\(label) (\(place), maxDepth \(maxDepth))")
                }
            }
        }
    }

    /// The node buffer fills up in the middle of a SET (it is reserved from the input size): the
    /// loop leaves the append that grows it to the general turn, and the SET's close is the same.
    @Test func nodeBufferFillingUpMidSetGivesTheSameExactNodes() {
        // SEQUENCE { NULL, NULL, NULL }: 8 octets, 4 nodes, so the nodes outgrow a third of the input.
        let count = 3_000
        let element = DER.hex("30 06 05 00 05 00 05 00"), smaller = DER.hex("30 06 04 00 05 00 05 00")
        let elements = Array(repeating: element, count: count)
        let tree = Self.same(DER.seq(DER.tlv(0x31, elements.flatMap { $0 })), "wide SET")
        #expect(tree.count == 2 + 4 * count && tree.diagnostics.isEmpty)
        #expect(tree[1].subtreeEnd == Int32(tree.count))
        // The last element smaller than the one before it: reported there.
        let unsorted = (elements.dropLast() + [smaller]).flatMap { $0 }
        let input = DER.seq(DER.tlv(0x31, unsorted))
        let reported = Self.same(input, "wide SET, the last one smaller")
        #expect(reported.diagnostics.map(\.code) == [ParserCode.setNotSorted.code])
        #expect(reported.diagnostics.map(\.range) == [input.count - 8 ..< input.count])
        // Two-octet NULLs: elements shorter than the eight-octet word.
        let nulls = Self.same(DER.seq(DER.tlv(0x31, Array(repeating: DER.hex("05 00"), count: 5_000).flatMap { $0 })), "NULLs")
        #expect(nulls.count == 5_002 && nulls.diagnostics.isEmpty)
    }
}
