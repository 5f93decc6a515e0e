import Foundation
import Testing
import ByteText
@testable import TextLoader

/// `OffsetList`, the per-character offsets of found data kept as runs: every sequence reads back
/// exactly, consecutive offsets cost one run, and a 50 MB paste's offsets cost a few runs.
@Suite struct OffsetListTests {
    @Test func readsBackAnySequence() {
        let offsets = [5, 6, 7, 9, 10, 3, 4, 100, 101, 102, 103, 0]
        let list = OffsetList(offsets)
        #expect(Array(list) == offsets)
        #expect(list.count == 12)
        #expect(list.runCount == 5)
        #expect(list.runs.map { [$0.start, $0.origin, $0.length] } == [[0, 5, 3], [3, 9, 2], [5, 3, 2], [7, 100, 4], [11, 0, 1]])
        #expect(list.first == 5 && list.last == 0 && list[8] == 101)
        #expect(list.firstIndex(of: 100) == 7)
    }

    @Test func identityIsOneRunWhateverItsLength() {
        let list = OffsetList(identity: 62..<50_000_062)
        #expect(list.count == 50_000_000 && list.runCount == 1)
        #expect(list[0] == 62 && list[49_999_999] == 50_000_061)
        #expect(OffsetList(identity: 3..<3).isEmpty && OffsetList(identity: 3..<3) == OffsetList())
    }

    @Test func appendAndRemoveLastKeepOneSpelling() {
        var list = OffsetList()
        list.append(contentsOf: [1, 2, 3])
        list.append(7)
        #expect(list.runCount == 2)
        #expect(list.removeLast() == 7)
        #expect(list.runCount == 1)
        // Equal lists are equal whichever way they were built.
        #expect(list == OffsetList(identity: 1..<4) && list == [1, 2, 3])
        #expect(list.hashValue == OffsetList(identity: 1..<4).hashValue)
        #expect(list.removeLast() == 3 && list == [1, 2])
    }

    @Test func sliceKeepsTheOffsets() {
        let list = OffsetList([5, 6, 7, 9, 10, 3, 4])
        #expect(Array(list.slice(2..<6)) == [7, 9, 10, 3])
        #expect(list.slice(2..<6).runCount == 3)
        #expect(list.slice(0..<0).isEmpty)
        #expect(list.slice(0..<7) == list)
    }
}
