/// The offsets a parse encapsulates on purpose (`ParseOptions.encapsulateOnPurpose`), kept sorted
/// in one array, 8 bytes each, and found by binary search: a receipt's purposeful parse names every
/// attribute value (360,000 for 20,000 purchases), which as a `Set<Int>` took 6.4 MB while it grew,
/// beside the tree being parsed (issue 32).
public struct OffsetSet: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    private var sorted: [Int]

    public init() { sorted = [] }

    public init(arrayLiteral offsets: Int...) { self.init(offsets) }

    /// The offsets of `offsets`, in any order, repeats once: the array itself is kept (sorted in
    /// place when it is not already), not copied.
    public init(_ offsets: [Int]) {
        sorted = offsets
        if !sorted.isEmpty && zip(sorted, sorted.dropFirst()).contains(where: { $0 >= $1 }) {
            sorted.sort()
            var kept = 0
            for offset in sorted where kept == 0 || sorted[kept - 1] != offset {
                sorted[kept] = offset
                kept += 1
            }
            sorted.removeLast(sorted.count - kept)
        }
    }

    public var isEmpty: Bool { sorted.isEmpty }
    public var count: Int { sorted.count }

    public func contains(_ offset: Int) -> Bool {
        let at = position(of: offset)
        return at < sorted.count && sorted[at] == offset
    }

    /// Adds `offset` where it sorts (at the end, in constant time, for offsets added in order).
    public mutating func insert(_ offset: Int) {
        if let last = sorted.last, last < offset { return sorted.append(offset) }
        let at = position(of: offset)
        if at < sorted.count && sorted[at] == offset { return }
        sorted.insert(offset, at: at)
    }

    public func makeIterator() -> IndexingIterator<[Int]> { sorted.makeIterator() }

    /// The first position whose offset is `offset` or more.
    private func position(of offset: Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
