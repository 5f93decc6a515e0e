import Testing
import TestSupport
import ASN1Lenient
@testable import ExplorerUI

/// Exact screens (text + style mask) of samples/typical.receipt (the demo the tool embeds, analysed with the
/// samples' TEST root and a fixed "now"). Re-record with `RECORD_SNAPSHOTS=1` after a deliberate change.
@Suite struct SnapshotTests {
    static let small = GridSize(width: 80, height: 24)
    static let large = GridSize(width: 120, height: 40)

    @Test func treeAt80x24() {
        let s = Fixtures.sample(size: Self.small)
        Snapshot.assert(render(s, size: Self.small), named: "sample-tree-80x24")
    }

    @Test func treeAt120x40() {
        let s = Fixtures.sample(size: Self.large)
        Snapshot.assert(render(s, size: Self.large), named: "sample-tree-120x40")
    }

    @Test func attributeSelectedWithHexFocusAt120x40() {
        var s = Fixtures.sample(size: Self.large)
        press(&s, .down, .right, .right, .down, .down, .tab)   // into attribute 10's value
        Snapshot.assert(render(s, size: Self.large), named: "sample-attribute-hexfocus-120x40")
    }

    @Test func summaryAt120x40() {
        var s = Fixtures.sample(size: Self.large)
        press(&s, .character("2"))
        Snapshot.assert(render(s, size: Self.large), named: "sample-summary-120x40")
    }

    @Test func purchasesAt80x24And120x40() {
        var s = Fixtures.sample(size: Self.large)
        press(&s, .character("3"), .down)
        Snapshot.assert(render(s, size: Self.large), named: "sample-purchases-120x40")
        press(&s, .resize(Self.small))
        Snapshot.assert(render(s, size: Self.small), named: "sample-purchases-80x24")
    }

    @Test func helpAt80x24() {
        var s = Fixtures.sample(size: Self.small)
        press(&s, .character("?"))
        Snapshot.assert(render(s, size: Self.small), named: "sample-help-80x24")
    }

    @Test func asciiAt80x24() {
        var s = Fixtures.sample(size: Self.small)
        s.preferences.ascii = true
        Snapshot.assert(render(s, size: Self.small), named: "sample-ascii-80x24")
    }

    @Test func searchPromptAt80x24() {
        var s = Fixtures.sample(size: Self.small)
        press(&s, .character("/"))
        type(&s, "monthly")
        Snapshot.assert(render(s, size: Self.small), named: "sample-search-prompt-80x24")
    }

    @Test func malformedErrorAt120x40() throws {
        var s = try #require(Fixtures.sampleState("malformed-length-past-parent.receipt", size: Self.large))
        press(&s, .character("]"))
        Snapshot.assert(render(s, size: Self.large), named: "malformed-length-past-parent-120x40")
    }

    @Test func tooSmall() {
        let s = Fixtures.sample(size: GridSize(width: 59, height: 16))
        Snapshot.assert(render(s, size: GridSize(width: 59, height: 16)), named: "too-small-59x16")
    }
}
