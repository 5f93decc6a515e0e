@testable import DocumentDiff
import Testing
import TestSupport

/// `PurchasePairing` keeps a hash and an index a purchase and tells keys with one hash apart by
/// the keys themselves: on random lists (repeated ids, missing ids that fall back to "original@date",
/// subscription chains) it pairs exactly as the plain rules, written out here with dictionaries,
/// whatever the hash, every key colliding included.
@Suite struct PurchasePairingTests {
    /// The plain rules: a key's purchases on B taken in B's order; an unmatched purchase of B
    /// continues a chain of A when its original id is one of A's and it was bought after A's latest.
    static func plain(_ a: [PurchaseIdentity], _ b: [PurchaseIdentity]) -> (pairs: [Int?], unmatched: [String]) {
        var indexB: [String: [Int]] = [:]
        for (j, p) in b.enumerated().reversed() { indexB[p.key, default: []].append(j) }
        var matched = Set<Int>()
        let pairs: [Int?] = a.map { p in
            let j = indexB[p.key]?.popLast()
            if let j { matched.insert(j) }
            return j
        }
        var chainEnd: [String: Int64] = [:]
        for p in a {
            guard let chain = p.originalTransactionID, let date = p.purchaseDate else { continue }
            chainEnd[chain] = max(chainEnd[chain] ?? date, date)
        }
        let unmatched = b.indices.filter { !matched.contains($0) }.map { j -> String in
            let q = b[j]
            if let original = q.originalTransactionID, let end = chainEnd[original], let date = q.purchaseDate, date > end {
                return "\(j) continues \(original)"
            }
            return "\(j)"
        }
        return (pairs, unmatched)
    }

    static func randomIdentities(_ count: Int, using generator: inout some RandomNumberGenerator) -> [PurchaseIdentity] {
        (0..<count).map { _ in
            let id: String? = Int.random(in: 0..<10, using: &generator) == 0 ? nil : "10000000\(Int.random(in: 0..<40, using: &generator))"
            let original: String? = Int.random(in: 0..<8, using: &generator) == 0 ? nil : "20000000\(Int.random(in: 0..<6, using: &generator))"
            let date: Int64? = Int.random(in: 0..<8, using: &generator) == 0 ? nil : Int64.random(in: 0..<20, using: &generator)
            return PurchaseIdentity(transactionID: id, originalTransactionID: original, purchaseDate: date)
        }
    }

    @Test(arguments: ["real", "all collide", "by length"])
    func pairsAsThePlainRulesWhateverTheHash(_ hashing: String) {
        let hash: (String) -> UInt64 = switch hashing {
        case "real": PurchasePairing.hash
        case "all collide": { _ in 7 }
        default: { UInt64($0.utf8.count) }
        }
        var generator = SplitMix64(state: 42)
        for round in 0..<200 {
            let a = Self.randomIdentities(Int.random(in: 0..<30, using: &generator), using: &generator)
            let b = Self.randomIdentities(Int.random(in: 0..<30, using: &generator), using: &generator)
            let pairing = PurchasePairing(countA: a.count, countB: b.count, a: { a[$0] }, b: { b[$0] }, hash: hash)
            let expected = Self.plain(a, b)
            #expect(pairing.counterpartOfA == expected.pairs, "round \(round)")
            let unmatched = pairing.unmatchedB.map { entry in
                entry.continuesChain.map { "\(entry.index) continues \($0)" } ?? "\(entry.index)"
            }
            #expect(unmatched == expected.unmatched, "round \(round)")
        }
    }

    /// One key repeated on both sides pairs in order, the m-th with the m-th, and the rest of B is added.
    @Test func aRepeatedKeyPairsInOrder() {
        let same = PurchaseIdentity(transactionID: nil, originalTransactionID: "1", purchaseDate: 5)
        let pairing = PurchasePairing(Array(repeating: same, count: 3), Array(repeating: same, count: 5))
        #expect(pairing.counterpartOfA == [0, 1, 2])
        #expect(pairing.unmatchedB.map(\.index) == [3, 4] && pairing.unmatchedB.allSatisfy { $0.continuesChain == nil })
    }
}

