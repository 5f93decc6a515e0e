import ASN1Lenient
import DocumentCore
import DocumentDiff
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// Diff of mutated inputs never crashes, and every node and range it reports lies in the document
/// it names. Seeded mutations, so a failure replays.
@Suite struct DiffRobustnessTests {
    /// xorshift64*: reproducible without Foundation's random sources.
    struct Rng {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2685821657736338717
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    }

    func checkSide(_ side: DiffSide?, _ document: Document) {
        guard let side else { return }
        #expect(side.rangeLayer.index < document.layers.count)
        if let node = side.node {
            let layer = document.layer(node.layer)
            #expect(node.index < (layer.tree?.count ?? layer.json?.count ?? 0))
        }
        if let r = side.range { #expect(r.lowerBound >= 0 && r.upperBound <= document.layer(side.rangeLayer).bytes.count) }
        if let r = side.fileRange { #expect(r.lowerBound >= 0 && r.upperBound <= document.fileLayer.bytes.count) }
    }

    func mutate(_ bytes: [UInt8], _ rng: inout Rng) -> [UInt8] {
        var out = bytes
        for _ in 0..<(1 + rng.below(4)) {
            switch rng.below(4) {
            case 0 where !out.isEmpty: out[rng.below(out.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 1 where !out.isEmpty: out.removeSubrange(rng.below(out.count)..<out.count)  // truncate
            case 2 where !out.isEmpty: out.insert(UInt8(truncatingIfNeeded: rng.next()), at: rng.below(out.count))
            default: out[rng.below(out.count)] ^= 0x80
            }
            if out.isEmpty { out = [0x30] }
        }
        return out
    }

    @Test(arguments: ["base.receipt", "base-ber.receipt", "refund.receipt"])
    func mutatedReceiptsNeverCrash(_ name: String) throws {
        let original = try Paths.bytes(Paths.samples.appendingPathComponent("diff").appendingPathComponent(name))
        let a = DiffFixtures.open(bytes: original)
        var rng = Rng(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(name.utf8.count))
        var differing = 0
        for _ in 0..<60 {
            let b = DiffFixtures.open(bytes: mutate(original, &rng))
            for (x, y, diff) in [(a, b, DocumentDiff.compare(a, b, structuralLimit: 10)), (b, a, DocumentDiff.compare(b, a, structuralLimit: 10))] {
                #expect(diff.structural.count <= 10)
                for e in diff.entries {
                    checkSide(e.a, x); checkSide(e.b, y)
                    for f in e.fields { checkSide(f.a, x); checkSide(f.b, y) }
                }
                _ = DiffText.render(diff, nameA: "a", nameB: "b", kindA: "", kindB: "", color: false)
            }
            if !DocumentDiff.compare(a, b).isEquivalent { differing += 1 }
        }
        // Nearly every mutation changes content; a few hit bytes a re-encoding can absorb.
        #expect(differing > 40)
    }

    @Test
    func mutatedTokensNeverCrash() throws {
        let original = try Paths.bytes(Paths.samples.appendingPathComponent("diff/transaction-a.jws"))
        let a = try DiffFixtures.open(diff: "transaction-a.jws")
        var rng = Rng(state: 42)
        for _ in 0..<80 {
            let mutated = mutate(original, &rng)
            let b = Document.open((try? InputLoader.decode(mutated, name: "m")) ?? LoadedInput(bytes: mutated, name: "m", encoding: .binary, note: ""),
                                  options: AnalysisOptions(validate: false))
            let diff = DocumentDiff.compare(a, b)
            for e in diff.entries { checkSide(e.a, a); checkSide(e.b, b) }
        }
    }

    /// Plain ASN.1 (not receipts): a SET whose elements moved is the same content; an INTEGER
    /// with a non-minimal length is a re-encoding named as such; a changed value is a change.
    @Test func handBuiltASN1() {
        let x = DER.seq(DER.set(DER.int(1), DER.int(2)), DER.utf8("a"))
        let moved = DER.seq(DER.set(DER.int(2), DER.int(1)), DER.utf8("a"))
        let longLength = DER.seq(DER.set(DER.int(1), DER.int(2)), [0x0C, 0x81, 0x01, 0x61])
        let changed = DER.seq(DER.set(DER.int(1), DER.int(2)), DER.utf8("b"))
        let open = { (bytes: [UInt8]) in DiffFixtures.open(bytes: bytes) }
        let diffMoved = DocumentDiff.compare(open(x), open(moved))
        #expect(diffMoved.comparison == .asn1)
        #expect(diffMoved.isEquivalent)
        #expect(diffMoved.structural.isEmpty)
        let diffLong = DocumentDiff.compare(open(x), open(longLength))
        #expect(diffLong.structural.map(\.kind) == [.reencoded])
        #expect(diffLong.structural.first?.subject == "SEQUENCE > UTF8String[1]")
        #expect(diffLong.structural.first?.note == "same content, different encoding: length in 1 vs 2 octets")
        #expect(diffLong.isEquivalent)
        let diffChanged = DocumentDiff.compare(open(x), open(changed))
        #expect(diffChanged.structural.map(\.kind) == [.contentChanged])
        #expect(diffChanged.structural.first?.a?.range == 10..<13)
        #expect(!diffChanged.isEquivalent)
    }
}
