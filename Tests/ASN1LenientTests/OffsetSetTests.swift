import Testing
@testable import ASN1Lenient

/// `OffsetSet`: the on-purpose offsets as one sorted array, whatever order they come in.
@Suite struct OffsetSetTests {
    @Test func keepsEachOffsetOnceInOrder() {
        var set: OffsetSet = [40, 7, 19, 7]
        #expect(Array(set) == [7, 19, 40] && set.count == 3)
        for offset in [50, 3, 19, 20, 50] { set.insert(offset) }
        #expect(Array(set) == [3, 7, 19, 20, 40, 50])
        #expect([3, 7, 19, 20, 40, 50].allSatisfy(set.contains))
        #expect(![0, 4, 21, 41, 51, -1].contains(where: set.contains))
        #expect(OffsetSet().isEmpty && !OffsetSet().contains(0) && OffsetSet([5, 5, 5]) == [5])
        // A union into an empty set takes the offsets as they are; into a set, each where it sorts.
        var empty = OffsetSet()
        empty.formUnion([9, 2, 9])
        set.formUnion([1, 40, 60])
        #expect(Array(empty) == [2, 9] && Array(set) == [1, 3, 7, 19, 20, 40, 50, 60])
    }

    /// The same as a `Set<Int>` on random offsets, asked about every offset up to past the largest.
    @Test func answersAsASetDoes() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let offsets = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in Int.random(in: 0..<300, using: &generator) }
            var inserted = OffsetSet()
            for offset in offsets { inserted.insert(offset) }
            let given = OffsetSet(offsets), plain = Set(offsets)
            #expect(Array(given) == plain.sorted() && inserted == given)
            #expect((0..<310).allSatisfy { given.contains($0) == plain.contains($0) })
        }
    }
}
