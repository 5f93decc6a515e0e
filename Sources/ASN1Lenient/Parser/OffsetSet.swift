import ByteText

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
        if zip(sorted, sorted.dropFirst()).contains(where: { $0 >= $1 }) { SortedSearch.sortKeepingOneOfEach(&sorted) }
    }

    public var isEmpty: Bool { sorted.isEmpty }
    public var count: Int { sorted.count }

    public func contains(_ offset: Int) -> Bool { SortedSearch.contains(sorted, offset) }

    /// Adds `offset` where it sorts (at the end, in constant time, for offsets added in order).
    public mutating func insert(_ offset: Int) {
        if let last = sorted.last, last < offset { return sorted.append(offset) }
        let at = position(of: offset)
        if at < sorted.count && sorted[at] == offset { return }
        sorted.insert(offset, at: at)
    }

    /// Adds `offsets`: when the set is empty (the usual case), `offsets` itself becomes its array,
    /// so a receipt's 360,000 value offsets are not copied.
    public mutating func formUnion(_ offsets: [Int]) {
        if isEmpty { return self = OffsetSet(offsets) }
        for offset in offsets { insert(offset) }
    }

    public func makeIterator() -> IndexingIterator<[Int]> { sorted.makeIterator() }

    /// The first position whose offset is `offset` or more.
    private func position(of offset: Int) -> Int { SortedSearch.partition(sorted.count) { sorted[$0] < offset } }
}
