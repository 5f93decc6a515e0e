import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient

/// Random byte flips, insertions and truncations of valid inputs: the parser must never crash,
/// every range must stay within the input, and the coverage invariant must hold.
@Suite struct MutationTests {
    static func seeds() -> [[UInt8]] {
        var rng = SeededRandom(state: 7)
        var inputs = (0..<20).map { _ in randomElement(depth: 6, using: &rng).encoded }
        // Four real receipts when the corpus is there; the random elements above either way.
        for url in CorpusTests.receiptFiles().prefix(4) {
            if let data = try? Data(contentsOf: url) { inputs.append(Array(data)) }
        }
        inputs.append(DER.hex("30 80 04 80 04 02 41 42 00 00 31 80 02 01 01 00 00 00 00"))
        return inputs
    }

    @Test func mutatedInputsKeepTheInvariants() {
        var rng = SeededRandom(state: 2026)
        for (seedIndex, seed) in Self.seeds().enumerated() {
            for round in 0..<60 {
                var input = seed
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    mutate(&input, using: &rng)
                }
                let tree = ASN1Parser.parse(input)
                let violations = tree.coverageViolations()
                #expect(violations.isEmpty, "seed \(seedIndex) round \(round): \(violations)")
                for node in tree.nodes {
                    #expect(node.end <= input.count)
                }
                for d in tree.diagnostics {
                    #expect(d.offset >= 0 && d.length >= 0 && d.offset + d.length <= input.count,
                            "seed \(seedIndex) round \(round): \(d)")
                    if let n = d.node?.index { #expect(n < tree.count) }
                }
                for index in tree.nodes.indices.prefix(200) { _ = tree.value(of: index) }
                if violations.isEmpty == false { return }
            }
        }
    }

    func mutate(_ input: inout [UInt8], using rng: inout SeededRandom) {
        guard !input.isEmpty else { input = [0x30]; return }
        let at = Int.random(in: 0..<input.count, using: &rng)
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: input[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
        case 1: input[at] = UInt8.random(in: 0...255, using: &rng)
        case 2: input.insert(contentsOf: [0x00, 0x80, 0xFF, 0x1F, 0x30][Int.random(in: 0..<5, using: &rng)...].prefix(2), at: at)
        default: input.removeSubrange(at...)
        }
    }
}

/// Inputs built to hurt: deep nesting, absurd lengths.
@Suite struct HostileStructureTests {
    @Test func millionNestedIndefiniteHeadersStopAtTheDepthLimit() {
        let input: [UInt8] = (0..<2_000_000).map { $0 % 2 == 0 ? 0x30 : 0x80 }
        let tree = ASN1Parser.parse(input)
        #expect(tree.count == 258)  // SEQUENCEs at depths 0...256 plus the unparsed content of the deepest
        let deep = tree.diagnostics.filter { $0.code == ParserCode.nestingTooDeep.code }
        #expect(deep.count == 1 && deep[0].offset == 512 && deep[0].length == 2)
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func millionNestedDefiniteHeaders() {
        // Each level: 30 84 <4-byte length>; lengths nest exactly.
        let levels = 1_000_000
        var input = [UInt8]()
        input.reserveCapacity(levels * 6)
        for level in 0..<levels {
            let remaining = UInt32((levels - level - 1) * 6)
            input += [0x30, 0x84, UInt8(remaining >> 24), UInt8((remaining >> 16) & 0xFF), UInt8((remaining >> 8) & 0xFF), UInt8(remaining & 0xFF)]
        }
        let tree = ASN1Parser.parse(input)
        #expect(tree.diagnostics.filter { $0.severity == .error }.map(\.code) == [ParserCode.nestingTooDeep.code])
        #expect(tree.coverageViolations().isEmpty)
    }

    @Test func absurdLengthDoesNotAllocate() {
        // 2^63 - 1 claimed, 3 bytes present: the content is clamped, nothing is sized by the claim.
        let tree = parse("04 88 7F FF FF FF FF FF FF FF 41 42 43")
        #expect(tree.diagnostics.map(\.code) == [ParserCode.truncatedContent.code])
        #expect(tree[0].contentLength == 3)
        let overflow = parse("04 88 80 00 00 00 00 00 00 00 41")
        #expect(overflow.diagnostics.map(\.code) == [ParserCode.lengthOverflow.code])
    }
}
