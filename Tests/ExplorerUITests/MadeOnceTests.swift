import Testing
@testable import ExplorerUI

/// The slot behind the search indexes and the diagnostics' rows: made on first use, then kept.
struct MadeOnceTests {
    @Test func computesOnceAndKeepsTheFirstValue() {
        let slot = MadeOnce<[Int]>()
        var calls = 0
        #expect(!slot.isMade)
        #expect(slot.value { calls += 1; return [1, 2] } == [1, 2])
        #expect(slot.isMade)
        #expect(slot.value { calls += 1; return [3] } == [1, 2])
        #expect(calls == 1)
    }
}
