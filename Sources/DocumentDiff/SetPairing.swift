/// How the elements of two SETs pair, where order carries no meaning: by equal content first, what
/// is left by its first element's content (a receipt attribute's type), the rest by position.
/// Equal keys pair in order (the lowest unused index of B first).
///
/// It holds 4 bytes a element of A and about 20 of B (a sorted key list and a cursor), not a
/// dictionary of arrays: a hostile SET of millions of distinct elements made that a few hundred
/// bytes an element (issue 32: memory bounded by the input).
struct SetPairing {
    /// For each element of A, the element of B it pairs with, or -1.
    private(set) var partnerOfA: [Int32]
    /// The elements of B that pair with nothing, ascending.
    private(set) var unpairedB: [Int32] = []

    init(countA: Int, countB: Int, hashA: (Int) -> UInt64, hashB: (Int) -> UInt64,
         keyA: (Int) -> UInt64?, keyB: (Int) -> UInt64?) {
        partnerOfA = [Int32](repeating: -1, count: countA)
        var usedB = [Bool](repeating: false, count: countB)
        // Equal content in the same places pairs in place (lowest unused index first gives the
        // same), so only what follows the first difference needs the queue.
        var same = 0
        while same < min(countA, countB), hashA(same) == hashB(same) {
            partnerOfA[same] = Int32(same)
            usedB[same] = true
            same += 1
        }
        var leftA: [Int32] = []
        do {
            var queue = KeyQueue(same..<countB) { hashB($0) }
            for i in same..<countA {
                if let j = queue.take(hashA(i)) { partnerOfA[i] = j; usedB[Int(j)] = true } else { leftA.append(Int32(i)) }
            }
        }
        var restA: [Int32] = []
        do {
            var queue = KeyQueue(same..<countB) { usedB[$0] ? nil : keyB($0) }
            for i in leftA {
                if let key = keyA(Int(i)), let j = queue.take(key) {
                    partnerOfA[Int(i)] = j
                    usedB[Int(j)] = true
                } else {
                    restA.append(i)
                }
            }
        }
        var k = 0
        for j in 0..<countB where !usedB[j] {
            if k < restA.count { partnerOfA[Int(restA[k])] = Int32(j) } else { unpairedB.append(Int32(j)) }
            k += 1
        }
    }

    /// Keys with the indices that carry them, taken lowest index first per key.
    private struct KeyQueue {
        private var entries: [(key: UInt64, index: Int32)]
        /// At the first entry of each key: the next entry of that key not yet taken.
        private var next: [Int32]

        /// The keys of `indices` (nil: the index takes no part).
        init(_ indices: Range<Int>, key: (Int) -> UInt64?) {
            entries = []
            entries.reserveCapacity(indices.count)
            for index in indices { if let k = key(index) { entries.append((k, Int32(index))) } }
            entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
            next = (0..<Int32(entries.count)).map { $0 }
        }

        mutating func take(_ key: UInt64) -> Int32? {
            var low = 0, high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if entries[mid].key < key { low = mid + 1 } else { high = mid }
            }
            guard low < entries.count, entries[low].key == key else { return nil }
            let cursor = Int(next[low])
            guard cursor < entries.count, entries[cursor].key == key else { return nil }
            next[low] = Int32(cursor + 1)
            return entries[cursor].index
        }
    }
}
