@testable import DocumentDiff
import Testing
import TestSupport

/// The SET pairing of the structural diff: equal content first (lowest unused index of B), then
/// by first element, then by position; pairs listed in A's order, then B's leftovers.
@Suite struct SetPairingTests {
    /// The pairs the way the diff lists them: A's elements in order with their partners, then B's unpaired.
    static func pairs(_ hashA: [UInt64], _ hashB: [UInt64], keyA: [UInt64?]? = nil, keyB: [UInt64?]? = nil) -> [(Int?, Int?)] {
        let p = SetPairing(countA: hashA.count, countB: hashB.count, hashA: { hashA[$0] }, hashB: { hashB[$0] },
                           keyA: { keyA?[$0] ?? nil }, keyB: { keyB?[$0] ?? nil })
        return p.pairs.map { ($0.a, $0.b) }
    }

    static func text(_ pairs: [(Int?, Int?)]) -> String {
        pairs.map { "\($0.0.map(String.init) ?? "-"):\($0.1.map(String.init) ?? "-")" }.joined(separator: " ")
    }

    @Test func equalContentPairsAcrossReordering() {
        #expect(Self.text(Self.pairs([1, 2, 3], [3, 1, 2])) == "0:1 1:2 2:0")
    }

    @Test func repeatedContentTakesTheLowestUnusedIndex() {
        #expect(Self.text(Self.pairs([7, 7, 7], [7, 5, 7])) == "0:0 1:2 2:1")
    }

    @Test func leftoversPairByFirstElementThenByPosition() {
        // A[1] and B[0] differ but share a first element (key 40); A[2] and B[2] pair by position.
        let pairs = Self.pairs([1, 2, 3, 4], [9, 1, 8],
                               keyA: [nil, 40, 50, nil], keyB: [40, nil, 60])
        #expect(Self.text(pairs) == "0:1 1:0 2:2 3:-")
    }

    @Test func bLeftOverComesLastInOrder() {
        #expect(Self.text(Self.pairs([5], [6, 5, 7])) == "0:1 -:0 -:2")
    }

    /// A same-place prefix is paired in place; after it, the queue gives what the first difference leaves.
    @Test func samePrefixThenQueue() {
        #expect(Self.text(Self.pairs([1, 1, 2, 1], [1, 1, 1, 2])) == "0:0 1:1 2:3 3:2")
        #expect(Self.text(Self.pairs([], [4, 4])) == "-:0 -:1")
        #expect(Self.text(Self.pairs([4, 4], [])) == "0:- 1:-")
    }

    /// Against the first implementation's rules, written out plainly, on many small random SETs.
    @Test func matchesThePlainRules() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let a = (0..<Int.random(in: 0...9, using: &generator)).map { _ in UInt64.random(in: 0...4, using: &generator) }
            let b = (0..<Int.random(in: 0...9, using: &generator)).map { _ in UInt64.random(in: 0...4, using: &generator) }
            let ka = a.map { $0 == 0 ? nil : Optional($0 % 2) }, kb = b.map { $0 == 0 ? nil : Optional($0 % 2) }
            #expect(Self.text(Self.pairs(a, b, keyA: ka, keyB: kb)) == Self.text(Self.plain(a, b, ka, kb)), "\(a) \(b)")
        }
    }

    /// The same on SETs made of runs of equal elements (what runs are kept for), longer ones.
    @Test func matchesThePlainRulesOnRuns() {
        var generator = SystemRandomNumberGenerator()
        func runs() -> [UInt64] {
            (0..<Int.random(in: 0...6, using: &generator)).flatMap { _ in
                [UInt64](repeating: UInt64.random(in: 0...3, using: &generator), count: Int.random(in: 1...9, using: &generator))
            }
        }
        for _ in 0..<400 {
            let a = runs(), b = runs()
            let ka = a.map { $0 == 0 ? nil : Optional($0 % 2) }, kb = b.map { $0 == 0 ? nil : Optional($0 % 2) }
            #expect(Self.text(Self.pairs(a, b, keyA: ka, keyB: kb)) == Self.text(Self.plain(a, b, ka, kb)), "\(a) \(b)")
        }
    }

    /// A SET of 100,000 equal elements whose first one changed in B (the dense receipt shape): A's
    /// elements pair with B's one place on, A's last with B's first by position; two runs of pairs.
    @Test func equalElementsWithTheFirstChangedAreTwoRuns() {
        let n = 100_000
        let a = [UInt64](repeating: 7, count: n), b = [9] + [UInt64](repeating: 7, count: n - 1)
        let p = SetPairing(countA: n, countB: n, hashA: { a[$0] }, hashB: { b[$0] }, keyA: { _ in nil }, keyB: { _ in nil })
        let pairs = Array(p.pairs)
        #expect(pairs.count == n)
        #expect(pairs.allSatisfy { $0.a! == n - 1 ? $0.b == 0 : $0.b == $0.a! + 1 })
        #expect(p.runs.count == 2)
    }

    /// The same shape through the diff, with a SET's children found from checkpoints rather than a
    /// list: one entry, A's last element against B's first, at their places.
    @Test func aDenseSetDiffNamesTheOnePairThatDiffers() {
        let n = 20_000
        let a = DER.tlv(0x31, [UInt8](repeating: 0, count: 2 * n).enumerated().map { $0.offset % 2 == 0 ? 0x30 : 0 })
        var b = a
        b[4] = 0x31  // 31 82 9C 40, then the first element
        let diff = DocumentDiff.compare(DiffFixtures.open(bytes: a, name: "a"), DiffFixtures.open(bytes: b, name: "b"))
        #expect(diff.structural.count == 1)
        let entry = diff.structural.first
        #expect(entry?.kind == .contentChanged)
        #expect(entry?.note == "different tags")
        #expect(entry?.a?.path == "SET > SEQUENCE[19999]")
        #expect(entry?.a?.range == 40_002..<40_004)
        #expect(entry?.b?.path == "SET > SET[0]")
        #expect(entry?.b?.range == 4..<6)
    }

    static func plain(_ a: [UInt64], _ b: [UInt64], _ ka: [UInt64?], _ kb: [UInt64?]) -> [(Int?, Int?)] {
        var pairs: [(Int?, Int?)] = []
        var usedB = [Bool](repeating: false, count: b.count)
        var leftA: [Int] = []
        for i in a.indices {
            if let j = b.indices.first(where: { !usedB[$0] && b[$0] == a[i] }) { pairs.append((i, j)); usedB[j] = true } else { leftA.append(i) }
        }
        var restA: [Int] = []
        for i in leftA {
            if let key = ka[i], let j = b.indices.first(where: { !usedB[$0] && kb[$0] == key }) {
                pairs.append((i, j))
                usedB[j] = true
            } else {
                restA.append(i)
            }
        }
        let restB = b.indices.filter { !usedB[$0] }
        for k in 0..<max(restA.count, restB.count) {
            pairs.append((k < restA.count ? restA[k] : nil, k < restB.count ? restB[k] : nil))
        }
        return pairs.sorted { ($0.0 ?? Int.max, $0.1 ?? Int.max) < ($1.0 ?? Int.max, $1.1 ?? Int.max) }
    }
}
