/// How the elements of two SETs pair, where order carries no meaning: by equal content first, what
/// is left by its first element's content (a receipt attribute's type), the rest by position.
/// Equal keys pair in order (the lowest unused index of B first): the m-th element of A with a key
/// pairs with the m-th element of B with that key.
///
/// It keeps runs, not an entry an element: B's keys as runs of consecutive elements with the same
/// key, the pairs as runs of consecutive elements of A paired with consecutive elements of B, and
/// a bit an element of B for "used". A hostile SET of millions of equal elements, one changed, is a
/// few runs; millions of distinct elements cost about what a sorted key list an element did
/// (issue 32: memory bounded by the input).
struct SetPairing {
    /// The pairs as runs, ascending and disjoint in A.
    private(set) var runs: [Run] = []
    /// The elements of B that pair with nothing, ascending.
    private var unpairedB = IndexRuns()
    let countA: Int

    init(countA: Int, countB: Int, hashA: (Int) -> UInt64, hashB: (Int) -> UInt64,
         keyA: (Int) -> UInt64?, keyB: (Int) -> UInt64?) {
        self.countA = countA
        var usedB = BitSet(count: countB)
        var byContent = RunList()
        // Equal content in the same places pairs in place (lowest unused index first gives the
        // same), so only what follows the first difference needs the queue.
        var same = 0
        while same < min(countA, countB), hashA(same) == hashB(same) {
            byContent.add(same, same)
            usedB.insert(same)
            same += 1
        }
        var leftA = IndexRuns()
        do {
            var queue = KeyQueue(same..<countB) { hashB($0) }
            for i in same..<countA {
                if let j = queue.take(hashA(i)) {
                    byContent.add(i, j)
                    usedB.insert(j)
                } else {
                    leftA.append(i)
                }
            }
        }
        var byKey = RunList(), restA = IndexRuns()
        do {
            var queue = KeyQueue(same..<countB) { usedB.contains($0) ? nil : keyB($0) }
            for i in leftA {
                if let key = keyA(i), let j = queue.take(key) {
                    byKey.add(i, j)
                    usedB.insert(j)
                } else {
                    restA.append(i)
                }
            }
        }
        var byPosition = RunList()
        var rest = restA.makeIterator()
        for j in 0..<countB where !usedB.contains(j) {
            if let i = rest.next() { byPosition.add(i, j) } else { unpairedB.append(j) }
        }
        runs = byContent.runs
        if !byKey.runs.isEmpty || !byPosition.runs.isEmpty {
            runs += byKey.runs + byPosition.runs
            runs.sort { $0.a < $1.a }
        }
    }

    /// The pairs in the order the diff lists them: A's elements in order with their partners (nil:
    /// none), then B's unpaired elements.
    var pairs: Pairs { Pairs(runs: runs, countA: countA, unpairedB: unpairedB.makeIterator()) }

    struct Pairs: Sequence, IteratorProtocol {
        let runs: [Run]
        let countA: Int
        var unpairedB: IndexRuns.Iterator
        var i = 0, run = 0

        init(runs: [Run], countA: Int, unpairedB: IndexRuns.Iterator) {
            self.runs = runs
            self.countA = countA
            self.unpairedB = unpairedB
        }

        mutating func next() -> (a: Int?, b: Int?)? {
            guard i < countA else { return unpairedB.next().map { (nil, $0) } }
            defer { i += 1 }
            while run < runs.count, runs[run].end <= i { run += 1 }
            guard run < runs.count, Int(runs[run].a) <= i else { return (i, nil) }
            return (i, Int(runs[run].b) + i - Int(runs[run].a))
        }
    }

    /// A's `a ..< a + length` paired with B's `b ..< b + length`, element by element.
    struct Run {
        var a: Int32, b: Int32, length: Int32
        var end: Int { Int(a) + Int(length) }
    }

    /// Pairs added in A's order, consecutive ones joined into a run.
    private struct RunList {
        var runs: [Run] = []

        mutating func add(_ i: Int, _ j: Int) {
            if let last = runs.last, last.end == i, Int(last.b) + Int(last.length) == j {
                runs[runs.count - 1].length += 1
            } else {
                runs.append(Run(a: Int32(i), b: Int32(j), length: 1))
            }
        }
    }

    /// Keys with the indices that carry them, as runs of consecutive indices with one key, sorted by
    /// key then index; taken lowest index first per key, a run shrinking from its start.
    private struct KeyQueue {
        private struct Entry {
            var key: UInt64
            var start: Int32, end: Int32
        }
        private var entries: [Entry] = []

        /// The keys of `indices` (nil: the index takes no part).
        init(_ indices: Range<Int>, key: (Int) -> UInt64?) {
            for index in indices {
                guard let k = key(index) else { continue }
                if let last = entries.last, last.key == k, Int(last.end) == index {
                    entries[entries.count - 1].end += 1
                } else {
                    entries.append(Entry(key: k, start: Int32(index), end: Int32(index + 1)))
                }
            }
            entries.sort { $0.key != $1.key ? $0.key < $1.key : $0.start < $1.start }
        }

        mutating func take(_ key: UInt64) -> Int? {
            // A key's runs are used up in index order, so its first run not used up is found by
            // the same binary search as the key.
            var low = 0, high = entries.count
            while low < high {
                let mid = (low + high) / 2
                let entry = entries[mid]
                if entry.key < key || (entry.key == key && entry.start == entry.end) { low = mid + 1 } else { high = mid }
            }
            guard low < entries.count, entries[low].key == key else { return nil }
            defer { entries[low].start += 1 }
            return Int(entries[low].start)
        }
    }

    /// Ascending indices kept as runs of consecutive ones.
    struct IndexRuns: Sequence {
        private var runs: [(start: Int32, end: Int32)] = []

        mutating func append(_ index: Int) {
            if let last = runs.last, Int(last.end) == index {
                runs[runs.count - 1].end += 1
            } else {
                runs.append((Int32(index), Int32(index + 1)))
            }
        }

        func makeIterator() -> Iterator { Iterator(runs: runs) }

        struct Iterator: IteratorProtocol {
            let runs: [(start: Int32, end: Int32)]
            var run = 0, next_: Int32 = -1

            mutating func next() -> Int? {
                guard run < runs.count else { return nil }
                if next_ < runs[run].start { next_ = runs[run].start }
                let index = next_
                next_ += 1
                if next_ == runs[run].end { run += 1 }
                return Int(index)
            }
        }
    }

    /// A bit an index.
    private struct BitSet {
        private var words: [UInt64]

        init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

        func contains(_ index: Int) -> Bool { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
        mutating func insert(_ index: Int) { words[index >> 6] |= 1 << UInt64(index & 63) }
    }
}
