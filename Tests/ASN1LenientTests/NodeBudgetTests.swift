import Testing
import TestSupport
@testable import ASN1Lenient

/// The node budget (`ParseOptions.maxNodes`, by default one node per 8 input bytes plus 1,048,576):
/// at the budget the parser stops building nodes, reports `too-many-elements` once at the offset
/// where it stopped, and leaves the rest as unparsed regions that cover it exactly.
@Suite struct NodeBudgetTests {
    /// A SEQUENCE of three NULLs: 4 nodes.
    static let threeNulls = "30 06 05 00 05 00 05 00"

    @Test func exactlyAtTheBudgetEverythingIsParsed() {
        let tree = parse(Self.threeNulls, options: ParseOptions(maxNodes: 4))
        #expect(tree.count == 4)
        #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics)")
        #expect(tree.nodes.allSatisfy { $0.kind == .tlv })
    }

    @Test func oneOverTheBudgetTheLastElementIsUnparsed() throws {
        let tree = parse(Self.threeNulls, options: ParseOptions(maxNodes: 3))
        #expect(tree.count == 4)
        #expect(tree.nodes.map(\.offset) == [0, 2, 4, 6])
        #expect(tree[3].kind == .unparsed && tree[3].byteRange == 6..<8 && tree[3].depth == 1)
        #expect(tree[0].subtreeEnd == 4 && tree[0].contentLength == 6)
        let diagnostic = try #require(tree.diagnostics.first)
        #expect(tree.diagnostics.count == 1)
        #expect(diagnostic.code == ParserCode.tooManyElements.code)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.range == 6..<8)
        #expect(diagnostic.node == NodeIndex(3))
        #expect(diagnostic.message == "3 elements built, the limit set for this parse; the remaining 2 byte(s) from offset 6 are shown unparsed and not checked")
        #expect(tree.coverageViolations().isEmpty, "\(tree.coverageViolations())")
    }

    @Test func eachOpenElementKeepsItsUnreadContentAsARegion() {
        // SEQUENCE { SEQUENCE { NULL NULL } NULL } then a second top-level NULL; budget 3 stops
        // at the inner SEQUENCE's second NULL (offset 6).
        let tree = parse("30 08 30 04 05 00 05 00 05 00 05 00", options: ParseOptions(maxNodes: 3))
        #expect(tree.nodes.map(\.offset) == [0, 2, 4, 6, 8, 10])
        #expect(tree.nodes.map(\.kind) == [.tlv, .tlv, .tlv, .unparsed, .unparsed, .unparsed])
        #expect(tree.nodes.map(\.depth) == [0, 1, 2, 2, 1, 0])
        #expect(tree.roots == [0, 5])
        #expect(tree[1].subtreeEnd == 4 && tree[0].subtreeEnd == 5)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.tooManyElements.code])
        #expect(tree.diagnostics.first?.range == 6..<12)
        #expect(tree.coverageViolations().isEmpty, "\(tree.coverageViolations())")
    }

    /// The indefinite SEQUENCE has an escape entry (its extent is not in its length octets), so it
    /// counts twice: a budget of 3 is it and the first NULL.
    @Test func anIndefiniteLengthRunsToItsLimitWithoutAMissingMarker() {
        let tree = parse("30 80 05 00 05 00 00 00", options: ParseOptions(maxNodes: 3))
        #expect(tree.count == 3)
        #expect(tree[0].isIndefinite && tree[0].eocLength == 0 && tree[0].contentLength == 6)
        #expect(tree[2].kind == .unparsed && tree[2].byteRange == 4..<8)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.indefiniteLength.code, ParserCode.tooManyElements.code])
        #expect(tree.diagnostics.last?.range == 4..<8)
        #expect(tree.coverageViolations().isEmpty, "\(tree.coverageViolations())")
    }

    /// A node with an escape entry (12 + 16 bytes) counts twice against the budget, and the
    /// report says how many did: the arena never takes more than 16 bytes per budgeted node.
    @Test func anEscapedNodeCountsTwice() throws {
        let tree = parse("30 80 05 00 05 00 00 00", options: ParseOptions(maxNodes: 2))
        #expect(tree.count == 2 && tree.nodes.escapeTableBytes == 2 * MemoryLayout<NodeEscape>.stride)
        #expect(tree[1].kind == .unparsed && tree[1].byteRange == 2..<8 && tree[0].contentLength == 6)
        let diagnostic = try #require(tree.diagnostics.last)
        #expect(diagnostic.message == "1 elements built (1 counted twice: their extent or header does not fit in a 12-byte node), the limit set for this parse; the remaining 6 byte(s) from offset 2 are shown unparsed and not checked")
        #expect(diagnostic.range == 2..<8 && diagnostic.node == NodeIndex(1))
        #expect(tree.coverageViolations().isEmpty, "\(tree.coverageViolations())")
    }

    @Test func aGuessThatWouldPassTheBudgetIsUndoneNotCut() {
        // OCTET STRING { SEQUENCE { NULL } } then NULL: the guess needs 2 nodes more than the
        // budget of 2 leaves; it is undone (the string shown whole), and the NULL after it still fits.
        let tree = parse("30 08 04 04 30 02 05 00 05 00", options: ParseOptions(maxNodes: 3))
        #expect(tree.nodes.map(\.offset) == [0, 2, 8])
        #expect(!tree[1].isEncapsulated)
        #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics)")
    }

    @Test func aBudgetOfNothingLeavesOneRegion() {
        let tree = parse(Self.threeNulls, options: ParseOptions(maxNodes: 0))
        #expect(tree.count == 1 && tree[0].kind == .unparsed && tree[0].byteRange == 0..<8)
        #expect(tree.roots == [0])
        #expect(tree.diagnostics.first?.range == 0..<8)
    }

    @Test func theFastAndGeneralPathsStopAtTheSameNode() {
        var general = ParseOptions(maxNodes: 4)
        general.generalPathOnly = true
        let hex = "30 0C " + String(repeating: "02 01 01 ", count: 4)
        let fast = parse(hex, options: ParseOptions(maxNodes: 4)), slow = parse(hex, options: general)
        #expect(fast.nodes == slow.nodes)
        #expect(fast.diagnostics == slow.diagnostics)
        #expect(fast.diagnostics.first?.range == 11..<14)
    }

    /// The default budget: one node per 8 bytes plus 1,048,576. A SEQUENCE of 2-byte NULLs
    /// sized so the budget ends inside it, counted exactly.
    @Test func theDefaultBudgetFollowsTheInputSize() throws {
        let pairs = 1_600_000
        let content = pairs * 2
        let bytes: [UInt8] = [0x30, 0x83, UInt8(content >> 16), UInt8(content >> 8 & 0xFF), UInt8(content & 0xFF)]
            + [UInt8](repeating: 0, count: content).enumerated().map { $0.offset % 2 == 0 ? 0x05 : 0x00 }
        let budget = ParseOptions.nodeBudget(inputBytes: bytes.count)
        #expect(budget == 3_200_005 / 8 + 1_048_576)
        let tree = ASN1Parser.parse(bytes)
        #expect(tree.count == budget + 1)
        let stop = 5 + (budget - 1) * 2
        #expect(tree[budget].kind == .unparsed && tree[budget].byteRange == stop..<bytes.count)
        let diagnostic = try #require(tree.diagnostics.first { $0.code == ParserCode.tooManyElements.code })
        #expect(diagnostic.range == stop..<bytes.count)
        #expect(diagnostic.message == "\(budget) elements built, the most for 3200005 bytes: one per 8 bytes plus 1048576; the remaining \(bytes.count - stop) byte(s) from offset \(stop) are shown unparsed and not checked")
        #expect(tree.coverageViolations().isEmpty)
    }
}
