import ByteText
import DocumentCore

/// How a purchase is recognised on both sides of a diff: a receipt's in-app purchase and a StoreKit 2
/// transaction alike are matched by transaction id, else by original transaction id and purchase date.
package struct PurchaseIdentity {
    package var transactionID: String?
    package var originalTransactionID: String?
    /// Milliseconds since 1970.
    package var purchaseDate: Int64?

    /// Whether the transaction id is missing, so the fallback key matches.
    package var isFallback: Bool { transactionID?.isEmpty ?? true }

    /// The transaction id, or "original@milliseconds" when it is missing.
    package var key: String {
        if let id = transactionID, !id.isEmpty { return id }
        return "\(originalTransactionID ?? "?")@\(purchaseDate.map { String($0) } ?? "?")"
    }

    /// What an entry matched by the fallback key says about it.
    package static let fallbackNote = "matched by original transaction id and purchase date (no transaction id)"
    package init(transactionID: String? = nil, originalTransactionID: String? = nil, purchaseDate: Int64? = nil) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.purchaseDate = purchaseDate
    }
}

/// Two lists of purchases paired by key (a repeated key pairs in order), and the unmatched ones of
/// side B told apart: a renewal continues a subscription chain of side A (same original
/// transaction id, purchased after the chain's latest purchase on A), anything else was added.
package struct PurchasePairing {
    /// For each purchase of A, in A's order: its counterpart on B, nil when it was removed.
    package var counterpartOfA: [Int?] = []
    /// The purchases of B without a counterpart, in B's order, each with the chain it continues.
    package var unmatchedB: [(index: Int, continuesChain: String?)] = []

    package init(_ a: [PurchaseIdentity], _ b: [PurchaseIdentity]) {
        self.init(countA: a.count, countB: b.count, a: { a[$0] }, b: { b[$0] })
    }

    /// The same pairing, with the i-th purchase's identity on A made when asked (`a(i)`, likewise
    /// `b(j)`): it keeps a hash and an index a purchase, not its ids' strings (two 20,000-purchase
    /// receipts' identities and key table took 10 MB beside the two documents, issue 32). Keys
    /// with one hash are told apart by the keys themselves, so a collision pairs nothing wrongly.
    package init(countA: Int, countB: Int, a: (Int) -> PurchaseIdentity, b: (Int) -> PurchaseIdentity) {
        self.init(countA: countA, countB: countB, a: a, b: b, hash: Self.hash)
    }

    /// `hash` given: tests make keys collide with it.
    init(countA: Int, countB: Int, a: (Int) -> PurchaseIdentity, b: (Int) -> PurchaseIdentity,
         hash: (String) -> UInt64) {
        // B's keys sorted by hash, then index: the purchases of B with one key are a run, in B's order.
        var keysB = (0..<countB).map { Keyed(hash: hash(b($0).key), index: Int32($0)) }
        keysB.sort()
        var taken = FreeList(count: countB)
        var matchedB = [Bool](repeating: false, count: countB)
        counterpartOfA.reserveCapacity(countA)
        for i in 0..<countA {
            let key = a(i).key, keyHash = hash(key)
            var position = taken.firstFree(from: Self.firstPosition(of: keyHash, in: keysB))
            var found: Int?
            while position < countB, keysB[position].hash == keyHash {
                let j = Int(keysB[position].index)
                if b(j).key == key {
                    found = j
                    taken.take(position)
                    matchedB[j] = true
                    break
                }
                position = taken.firstFree(from: position + 1)
            }
            counterpartOfA.append(found)
        }
        let chains = ChainEnds(count: countA, a, hash: hash)
        for j in 0..<countB where !matchedB[j] {
            let q = b(j)
            var chain: String?
            if let original = q.originalTransactionID, let date = q.purchaseDate,
               let end = chains.latest(original, a, hash: hash), date > end {
                chain = original
            }
            unmatchedB.append((j, chain))
        }
    }

    static func hash(_ text: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(text)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// The first position in `sorted` whose hash is `hash` or more.
    static func firstPosition(of hash: UInt64, in sorted: [Keyed]) -> Int {
        SortedSearch.partition(sorted.count) { sorted[$0].hash < hash }
    }

    /// A purchase's index under the hash of its key (or original transaction id), ordered by both.
    struct Keyed: Comparable {
        var hash: UInt64
        var index: Int32
        static func < (x: Keyed, y: Keyed) -> Bool { (x.hash, x.index) < (y.hash, y.index) }
    }

    /// Positions not taken yet: `firstFree(from:)` skips the taken ones, with path halving, so a key
    /// repeated thousands of times (a missing id's fallback key) does not rescan its taken run.
    struct FreeList {
        private var next: [Int32]
        init(count: Int) { next = (0...count).map { Int32($0) } }
        mutating func firstFree(from position: Int) -> Int {
            var p = position
            while Int(next[p]) != p {
                next[p] = next[Int(next[p])]
                p = Int(next[p])
            }
            return p
        }
        mutating func take(_ position: Int) { next[position] = Int32(position + 1) }
    }

    /// The latest purchase date on A of each original transaction id: one entry an id, sorted by
    /// its hash, with one purchase that bears it (the id is read from there when asked, not kept).
    /// Ids with one hash have an entry each, told apart by the ids themselves.
    struct ChainEnds {
        private var chains: [(hash: UInt64, member: Int32, latest: Int64)] = []

        init(count: Int, _ a: (Int) -> PurchaseIdentity, hash: (String) -> UInt64) {
            var dated: [(keyed: Keyed, date: Int64)] = []
            for i in 0..<count {
                let p = a(i)
                guard let chain = p.originalTransactionID, let date = p.purchaseDate else { continue }
                dated.append((Keyed(hash: hash(chain), index: Int32(i)), date))
            }
            dated.sort { $0.keyed < $1.keyed }
            var sameHash = 0  // the first entry with the current hash
            for (keyed, date) in dated {
                if chains.last?.hash != keyed.hash { sameHash = chains.count }
                let chain = a(Int(keyed.index)).originalTransactionID
                if let k = (sameHash..<chains.count).first(where: { a(Int(chains[$0].member)).originalTransactionID == chain }) {
                    chains[k].latest = max(chains[k].latest, date)
                } else {
                    chains.append((keyed.hash, keyed.index, date))
                }
            }
        }

        /// The latest purchase date on A with original transaction id `chain`, nil when none.
        func latest(_ chain: String, _ a: (Int) -> PurchaseIdentity, hash: (String) -> UInt64) -> Int64? {
            let chainHash = hash(chain)
            var k = SortedSearch.partition(chains.count) { chains[$0].hash < chainHash }
            while k < chains.count, chains[k].hash == chainHash {
                if a(Int(chains[k].member)).originalTransactionID == chain { return chains[k].latest }
                k += 1
            }
            return nil
        }
    }

    /// "continues subscription chain …" for a renewal.
    package static func renewalNote(_ chain: String) -> String { "continues subscription chain \(chain)" }

    /// Notes joined: a refund's or renewal's note, and the fallback note when the key was not an id.
    package static func note(_ parts: String?...) -> String? {
        let present = parts.compactMap { $0 }
        return present.isEmpty ? nil : present.joined(separator: "; ")
    }
}
