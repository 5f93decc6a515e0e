import ByteText

/// The offsets a parse encapsulates on purpose (`ParseOptions.encapsulateOnPurpose`), kept sorted
/// in one array, 4 bytes each (a node's offset is 32 bits: `PackedNode`), and found by binary
/// search: a receipt's purposeful parse names every attribute value (2.4 million for 81,000
/// purchases), which as a `Set<Int>` took 6.4 MB a 20,000 while it grew, and as `[Int]` 19 MB,
/// beside the tree being parsed (issue 32).
public struct OffsetSet: Sendable, Equatable, Sequence, ExpressibleByArrayLiteral {
    private var sorted: [UInt32]

    public init() { sorted = [] }

    public init(arrayLiteral offsets: Int...) { self.init(offsets) }

    /// The offsets of `offsets`, in any order, repeats once. One past 32 bits names no node and is left out.
    public init(_ offsets: [Int]) {
        self.init(offsets32: offsets.compactMap { UInt32(exactly: $0) })
    }

    /// The offsets of `offsets`, in any order, repeats once: the array itself is kept (sorted in
    /// place when it is not already), not copied.
    public init(offsets32 offsets: [UInt32]) {
        sorted = offsets
        if zip(sorted, sorted.dropFirst()).contains(where: { $0 >= $1 }) { SortedSearch.sortKeepingOneOfEach(&sorted) }
    }

    public var isEmpty: Bool { sorted.isEmpty }
    public var count: Int { sorted.count }

    public func contains(_ offset: Int) -> Bool {
        guard let offset = UInt32(exactly: offset) else { return false }
        return SortedSearch.contains(sorted, offset)
    }

    /// Adds `offset` where it sorts (at the end, in constant time, for offsets added in order).
    public mutating func insert(_ offset: Int) {
        guard let offset = UInt32(exactly: offset) else { return }
        if let last = sorted.last, last < offset { return sorted.append(offset) }
        let at = SortedSearch.partition(sorted.count) { sorted[$0] < offset }
        if at < sorted.count && sorted[at] == offset { return }
        sorted.insert(offset, at: at)
    }

    /// Adds `offsets`: when the set is empty (the usual case), `offsets` itself becomes its array,
    /// so a receipt's 2.4 million value offsets are not copied.
    public mutating func formUnion(_ offsets: [UInt32]) {
        if isEmpty { return self = OffsetSet(offsets32: offsets) }
        for offset in offsets { insert(Int(offset)) }
    }

    public func makeIterator() -> LazyMapSequence<[UInt32], Int>.Iterator { sorted.lazy.map { Int($0) }.makeIterator() }
}
