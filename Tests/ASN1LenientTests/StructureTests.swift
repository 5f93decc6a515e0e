import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient

@Suite struct StructureTests {
    @Test func nodeRecordsEveryExtent() {
        // SEQUENCE { INTEGER 5, [0] { NULL } } with a long-form length on the outer SEQUENCE.
        let tree = parse("30 81 07 02 01 05 A0 02 05 00")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.lengthNotMinimal.code])
        let outer = tree[0]
        #expect(outer.offset == 0 && outer.identifierLength == 1 && outer.lengthLength == 2)
        #expect(outer.contentLength == 7 && outer.contentRange == 3..<10 && outer.subtreeEnd == 4)
        #expect(Array(tree.children(of: 0)) == [1, 2])
        #expect(tree[2].tagClass == .contextSpecific && tree[2].tagNumber == 0 && tree[2].isConstructed)
        #expect(tree[3].depth == 2 && tree.parent(of: 3) == 2)
        #expect(tree.tagName(of: 2) == "[0]")
        #expect(tree.path(to: 3) == [0, 2, 3])
        #expect(tree.deepestNode(containing: 9) == 3)
        #expect(tree.deepestNode(containing: 1) == 0)
    }

    @Test func definiteEmptySequenceIsNotIndefinite() {
        let tree = parse("30 00")
        #expect(tree.diagnostics.isEmpty)
        #expect(!tree[0].isIndefinite && tree[0].contentLength == 0 && tree[0].end == 2)
    }

    @Test func indefiniteLengthRecordsEndOfContents() {
        let tree = parse("30 80 02 01 01 00 00")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.indefiniteLength.code])
        #expect(tree[0].isIndefinite && tree[0].contentLength == 3 && tree[0].eocRange == 5..<7)
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func longTagNumbersAndClasses() {
        let tree = parse("5F 81 00 00 DF 20 00 9F 1F 00")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.trailingData.code])
        #expect(tree[0].tagClass == .application && tree[0].tagNumber == 128 && tree[0].identifierLength == 3)
        #expect(tree.tagName(of: 0) == "[APPLICATION 128]")
        #expect(tree.tagName(of: 1) == "[PRIVATE 32]")
        #expect(tree.tagName(of: 2) == "[31]")
    }

    @Test func octetStringHoldingOneElementIsEncapsulated() {
        let tree = parse("04 05 30 03 02 01 07")
        #expect(tree[0].isEncapsulated)
        #expect(Array(tree.children(of: 0)) == [1])
        #expect(tree.value(of: 2) == .integer(decimal: "7", hex: nil))
        #expect(tree.diagnostics.isEmpty && tree.coverageViolations().isEmpty)
    }

    @Test func bitStringEncapsulationSkipsUnusedBitsOctet() {
        let truncated = parse("03 04 00 30 00")
        #expect(!truncated[0].isEncapsulated)  // claims 4 octets, holds 3: no guess on truncated content
        #expect(truncated.diagnostics.map(\.code) == [ParserCode.truncatedContent.code])
        let ok = parse("03 03 00 30 00")
        #expect(ok[0].isEncapsulated && ok[1].offset == 3 && ok.coverageViolations().isEmpty)
    }

    @Test func failedGuessLeavesNoTraceAndNoDiagnostic() {
        // The inner SEQUENCE claims exactly the rest but its content is a broken INTEGER.
        let tree = parse("04 05 30 03 02 02 07")
        #expect(!tree[0].isEncapsulated)
        #expect(tree.count == 1)
        #expect(tree.diagnostics.isEmpty)
    }

    @Test func onPurposeEncapsulationReportsDefects() {
        let bytes = DER.hex("04 05 30 03 02 02 07")
        let tree = ASN1Parser.parse(bytes, options: ParseOptions(encapsulateOnPurpose: [0]))
        #expect(tree[0].isEncapsulated)
        #expect(tree.diagnostics.map(\.code) == [ParserCode.truncatedContent.code])
        #expect(tree.diagnostics[0].range == 5..<6)
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func nestedGuessUndoesOnlyTheInnermost() {
        // Outer OCTET STRING holds a SEQUENCE { OCTET STRING "30 01 FF" (a bad guess), INTEGER 1 }.
        let tree = parse("04 0A 30 08 04 03 30 01 FF 02 01 01")
        #expect(tree[0].isEncapsulated)
        #expect(!tree[2].isEncapsulated)
        #expect(tree.count == 4)
        #expect(tree.diagnostics.isEmpty)
    }

    @Test func randomTreesRoundTrip() {
        var rng = SeededRandom(state: 42)
        for _ in 0..<300 {
            let element = randomElement(depth: 5, using: &rng)
            let encoded = element.encoded
            let tree = ASN1Parser.parse(encoded)
            #expect(tree.diagnostics.isEmpty)
            #expect(tree.count == element.nodeCount)
            #expect(rebuild(tree, 0) == element)
            #expect(tree.coverageViolations().isEmpty)
        }
    }

    func rebuild(_ tree: Tree, _ index: Int) -> TestElement {
        let node = tree[index]
        let tag = tree.bytes[Int(node.offset)]
        if node.isConstructed {
            return .constructed(tag: tag, children: tree.children(of: index).map { rebuild(tree, $0) })
        }
        return .primitive(tag: tag, content: Array(tree.content(of: index)))
    }

    @Test func bigValuesDecode() {
        #expect(parse("02 09 01 00 00 00 00 00 00 00 00").value(of: 0) == .integer(decimal: "18446744073709551616", hex: nil))
        #expect(parse("02 01 80").value(of: 0) == .integer(decimal: "-128", hex: nil))
        #expect(parse("06 09 2A 86 48 86 F7 0D 01 07 02").value(of: 0)
                == .objectIdentifier(dotted: "1.2.840.113549.1.7.2", name: "signedData"))
        #expect(parse("06 03 88 37 03").value(of: 0) == .objectIdentifier(dotted: "2.999.3", name: nil))
        // 2 * 128^9 + 1 = 2^64 + 1: an arc beyond 64 bits.
        #expect(parse("06 0B 2B 82 80 80 80 80 80 80 80 80 01").value(of: 0)
                == .objectIdentifier(dotted: "1.3.18446744073709551617", name: nil))
        if case .time(_, let t?) = parse("17 0D 31 35 30 35 32 33 31 32 31 38 30 39 5A").value(of: 0) {
            #expect(t.iso8601 == "2015-05-23T12:18:09Z")
            #expect(t.epochSeconds == 1_432_383_489)
        } else {
            Issue.record("UTCTime did not decode")
        }
    }
}
