import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

@Suite struct TreeKeyTests {
    @Test func smallFixtureShape() {
        let s = Fixtures.small()
        #expect(s.tree.count == 9)
        #expect(s.tree.nodes.map { Int($0.offset) } == [0, 2, 5, 7, 9, 16, 19, 21, 27])
        #expect(allVisible(s) == [0, 1, 2, 8])
    }

    @Test(arguments: [InputEvent.down, .character("j")])
    func moveDown(_ key: InputEvent) {
        var s = Fixtures.small()
        var seen: [Int] = []
        for _ in 0..<5 { press(&s, key); seen.append(s.outlineView.selection) }
        #expect(seen == [1, 2, 8, 8, 8])
    }

    @Test(arguments: [InputEvent.up, .character("k")])
    func moveUp(_ key: InputEvent) {
        var s = Fixtures.small()
        s.outlineView.expanded[2] = true
        s.selectOutlineRow(8)
        var seen: [Int] = []
        for _ in 0..<5 { press(&s, key); seen.append(s.outlineView.selection) }
        #expect(seen == [6, 3, 2, 1, 0])  // 3 and 6 are collapsed: their children are hopped over
        press(&s, key)
        #expect(s.outlineView.selection == 0)
    }

    @Test func moveUpSkipsIntoExpandedSubtreeEnd() {
        var s = Fixtures.small()
        s.outlineView.expanded.fill(0..<9, true)
        s.selectOutlineRow(8)
        press(&s, .up)
        #expect(s.outlineView.selection == 7)   // the last row of the expanded SET
    }

    @Test(arguments: [InputEvent.right, .character("l")])
    func expandThenFirstChild(_ key: InputEvent) {
        var s = Fixtures.small()
        s.selectOutlineRow(2)
        press(&s, key)
        #expect(s.outlineView.selection == 2 && s.outlineView.expanded[2])
        #expect(allVisible(s) == [0, 1, 2, 3, 6, 8])
        press(&s, key)
        #expect(s.outlineView.selection == 3)
        s.selectOutlineRow(1)
        press(&s, key)   // a leaf: nothing to expand
        #expect(s.outlineView.selection == 1 && s.status?.text == "no children")
    }

    @Test(arguments: [InputEvent.left, .character("h")])
    func collapseThenParent(_ key: InputEvent) {
        var s = Fixtures.small()
        s.outlineView.expanded[2] = true
        s.selectOutlineRow(3)
        press(&s, key)                 // 3 is collapsed: go to the parent
        #expect(s.outlineView.selection == 2 && s.outlineView.expanded[2])
        press(&s, key)                 // 2 is expanded: collapse it
        #expect(s.outlineView.selection == 2 && !s.outlineView.expanded[2])
        #expect(allVisible(s) == [0, 1, 2, 8])
        press(&s, key)                 // collapsed: parent
        #expect(s.outlineView.selection == 0)
        press(&s, key)                 // root expanded: collapse
        #expect(!s.outlineView.expanded[0] && allVisible(s) == [0])
        press(&s, key)                 // root collapsed, no parent: stays
        #expect(s.outlineView.selection == 0)
    }

    @Test(arguments: [InputEvent.enter, .character(" ")])
    func toggle(_ key: InputEvent) {
        var s = Fixtures.small()
        s.selectOutlineRow(2)
        press(&s, key)
        #expect(s.outlineView.expanded[2] && allVisible(s) == [0, 1, 2, 3, 6, 8])
        press(&s, key)
        #expect(!s.outlineView.expanded[2] && allVisible(s) == [0, 1, 2, 8])
        s.selectOutlineRow(1)
        press(&s, key)
        #expect(allVisible(s) == [0, 1, 2, 8])
    }

    @Test func expandSubtree() {
        var s = Fixtures.small()
        s.selectOutlineRow(2)
        press(&s, .character("*"))
        #expect(allVisible(s) == [0, 1, 2, 3, 4, 5, 6, 7, 8])
        #expect(s.outlineView.expanded.members == [0, 2, 3, 4, 5, 6, 7])  // [2, 9) filled, 0 was open
        #expect(s.outlineView.selection == 2)
    }

    @Test func expandAllAndCollapseAll() {
        var s = Fixtures.small()
        press(&s, .character("E"))
        #expect(allVisible(s) == Array(0..<9))
        s.selectOutlineRow(5)
        press(&s, .character("C"))
        #expect(allVisible(s) == [0])
        #expect(s.outlineView.selection == 0 && s.outlineView.top == 0)
        #expect(s.outlineView.expanded.population == 0)
    }

    @Test func pageDownAndUp() {
        var s = wide()   // 151 rows, tree pane 10 rows at 80×24: a page is 9 rows
        #expect(s.layout.tree?.height == 10)
        press(&s, .pageDown)
        #expect(s.outlineView.selection == 9)
        press(&s, .pageDown)
        #expect(s.outlineView.selection == 18)
        #expect(s.outlineView.top <= 18 && forward(s, s.outlineView.top, 9) >= 18)
        press(&s, .pageUp)
        #expect(s.outlineView.selection == 9)
        press(&s, .pageUp, .pageUp)
        #expect(s.outlineView.selection == 0 && s.outlineView.top == 0)
    }

    @Test(arguments: [(InputEvent.character("G"), InputEvent.character("g")), (.end, .home)])
    func lastAndFirst(_ last: InputEvent, _ first: InputEvent) {
        var s = wide()
        press(&s, last)
        #expect(s.outlineView.selection == 150)
        #expect(forward(s, s.outlineView.top, 9) == 150)   // the last row sits at the bottom of the pane
        press(&s, first)
        #expect(s.outlineView.selection == 0 && s.outlineView.top == 0)
        press(&s, .character("C"), last)
        #expect(s.outlineView.selection == 0)                 // everything collapsed: the root is the last row
    }
}
