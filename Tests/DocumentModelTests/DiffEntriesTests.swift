import DocumentDiff
import Testing

/// A diff's entries kept and made when read, in one list.
@Suite struct DiffEntriesTests {
    static func entry(_ n: Int) -> DiffEntry { DiffEntry(kind: .purchaseRemoved, subject: "p\(n)", key: String(n)) }

    @Test
    func keptAndMadeRunsReadInOrder() {
        var list: DiffEntries = [DiffEntry(kind: .attributeChanged, subject: "bundle id (attribute 2)")]
        list.append(count: 3) { Self.entry(10 + $0) }
        list.append(count: 0) { _ in fatalError("an empty run is never read") }
        list.append(DiffEntry(kind: .resigned, subject: "receipt"))
        list += [DiffEntry(kind: .signatureChanged, subject: "signature")]
        #expect(list.count == 6)
        #expect(list.map(\.subject) == ["bundle id (attribute 2)", "p10", "p11", "p12", "receipt", "signature"])
        #expect(list[2].key == "11")
        #expect(list[4].kind == .resigned)
        #expect(Array(list[3...]).map(\.subject) == ["p12", "receipt", "signature"])
    }

    @Test
    func equalWhenTheyReadTheSame() {
        var made = DiffEntries()
        made.append(count: 2) { Self.entry($0) }
        let kept: DiffEntries = [Self.entry(0), Self.entry(1)]
        #expect(made == kept)
        #expect(made != [Self.entry(0)])
        #expect(made != [Self.entry(0), Self.entry(2)])
        #expect(DiffEntries().isEmpty)
    }

    /// A made entry is made anew on each read, from what its run keeps, not kept.
    @Test
    func aMadeEntryIsMadeOnEachRead() {
        final class Counter: @unchecked Sendable { var reads = 0 }
        let counter = Counter()
        var list = DiffEntries()
        list.append(count: 2) { counter.reads += 1; return Self.entry($0) }
        _ = list[1]
        _ = list[1]
        #expect(counter.reads == 2)
        #expect(list.map(\.subject) == ["p0", "p1"])
        #expect(counter.reads == 4)
    }
}
