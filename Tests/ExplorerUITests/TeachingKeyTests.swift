import ASN1Lenient
import DocumentCore
import Testing
import TestSupport
@testable import ExplorerUI

/// The tour's keys (t, n / →, p / ←, q / Esc, a-c) and the tamper lab's (e, i, d, u, w) through
/// the one reducer.
@Suite struct TeachingKeyTests {
    @Test func tourStartsStepsAndLeaves() {
        var s = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&s, .character("t"))
        #expect(s.teaching.tour?.index == 0 && s.teaching.tour?.active == true)
        #expect(s.activeContext == .tour)
        #expect(s.selectedFileNode == 0 && s.outlineView.cursor == 1)   // ContentInfo, its long-form length at 1
        #expect(s.status?.text == "tour 1/17: ContentInfo: the PKCS#7 wrapper")
        press(&s, .character("n"), .right)
        #expect(s.teaching.tour?.index == 2)
        #expect(s.selectedFileNode == 2 && s.outlineView.cursor == 15)  // [0] EXPLICIT, its identifier
        press(&s, .character("p"))
        #expect(s.teaching.tour?.index == 1 && s.selectedFileNode == 1 && s.outlineView.cursor == 6)
        press(&s, .left)
        #expect(s.teaching.tour?.index == 0)
        press(&s, .left)
        #expect(s.teaching.tour?.index == 0 && s.status?.text == "the first step")
        // q leaves the tour at the current node (it does not quit); the tree keys are back.
        let effect = press(&s, .character("q"))
        #expect(effect == nil)
        #expect(s.teaching.tour?.active == false && s.activeContext == .tree && s.selectedFileNode == 0)
        #expect(s.status?.text == "left the tour at step 1: browse freely, t resumes")
        press(&s, .down, .down)
        #expect(s.selectedFileNode != 0)
        press(&s, .character("t"))
        #expect(s.teaching.tour?.index == 0 && s.selectedFileNode == 0 && s.activeContext == .tour)
        press(&s, .escape)
        #expect(s.teaching.tour?.active == false)
    }

    @Test func selfCheckAnswers() {
        var s = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&s, .character("t"), .character("c"))
        #expect(s.status == StatusMessage("not quite: that reads 1E 02 backwards: lengths are big-endian, the first octet is the most significant", isError: true))
        press(&s, .character("b"))
        #expect(s.status == StatusMessage("right: 0x82 has bit 8 set, so its low 7 bits (2) count the length octets; 1E 02 big-endian is 7,682"))
        #expect(s.teaching.tour?.reply == "right: 0x82 has bit 8 set, so its low 7 bits (2) count the length octets; 1E 02 big-endian is 7,682")
    }

    @Test func tourLessonLeadsTheDetailPane() {
        var s = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&s, .character("t"))
        let lines = DetailContent.lines(s, width: 200).map(\.text)
        #expect(lines.first == "Step 1/17: ContentInfo: the PKCS#7 wrapper")
        #expect(lines.contains("check: The length octets are 82 1E 02: how many content octets follow? [a] 130  [b] 7,682  [c] 542"))
        #expect(TourOverlay.hexClass(s, 1) == .selected && TourOverlay.hexClass(s, 3) == .selected)
        #expect(TourOverlay.hexClass(s, 0) == nil && TourOverlay.hexClass(s, 4) == nil)
    }

    /// Tab to the hex pane, then the cursor to `offset` with the go-to-offset prompt.
    func hexAt(_ offset: Int) -> AppState {
        var s = Fixtures.sample(size: GridSize(width: 120, height: 40))
        press(&s, .tab)
        press(&s, .character(":"))
        type(&s, String(offset))
        press(&s, .enter)
        #expect(s.outlineView.cursor == offset && s.focus == .hex)
        return s
    }

    @Test func editThatBreaksTheSignature() {
        var s = hexAt(307)
        press(&s, .character("e"))
        #expect(s.prompt?.kind == .editByte)
        type(&s, "43")                               // two digits accept at once
        #expect(s.prompt == nil)
        #expect(s.tree.bytes[307] == 0x43)
        // A check that now fails is an error in the status line, for receipts as for tokens.
        #expect(s.status == StatusMessage("signature: passed → FAILED (signature mismatch)", isError: true))
        #expect(s.document.receipt?.step(.signature)?.status.isFailed == true)
        #expect(TourOverlay.hexClass(s, 307) == .fail && TourOverlay.hexClass(s, 308) == nil)
        #expect(s.outlineView.cursor == 307 && s.focus == .hex)
        press(&s, .character("u"))
        #expect(s.tree.bytes == (try! Paths.sample("typical.receipt")))
        #expect(s.status == StatusMessage("signature: FAILED (signature mismatch) → passed"))
        press(&s, .character("u"))
        #expect(s.status == StatusMessage("nothing to undo"))
    }

    @Test func editThatBreaksALength() {
        var s = hexAt(296)
        press(&s, .character("e"))
        type(&s, "7F")
        #expect(s.status == StatusMessage("contents: passed → FAILED (6 errors, first length-exceeds-parent); signature: passed → FAILED (signature mismatch) (+9 more)", isError: true))
        #expect(s.tree.diagnostics.contains { $0.code.rawValue == "length-exceeds-parent" && $0.offset == 335 })
    }

    @Test func insertDeleteAndABadByte() {
        var s = hexAt(10)
        press(&s, .character("i"))
        type(&s, "00")
        #expect(s.tree.bytes.count == 7687 && s.tree.bytes[10] == 0x00)
        press(&s, .character("D"))
        #expect(s.tree.bytes == (try! Paths.sample("typical.receipt")))
        press(&s, .character("e"))
        type(&s, "zz")
        #expect(s.status == StatusMessage("not a byte: \"zz\" (type two hex digits)", isError: true))
        #expect(s.teaching.lab?.history.count == 2)
    }

    @Test func writeGivesTheEditedBytesAndNeverTheInput() {
        var s = hexAt(307)
        press(&s, .character("e"))
        type(&s, "43")
        press(&s, .character("w"))
        #expect(s.prompt == Prompt(kind: .writeEdited, text: "typical.receipt.edited"))
        var expected = try! Paths.sample("typical.receipt")
        expected[307] = 0x43
        #expect(press(&s, .enter) == .writeFile(path: "typical.receipt.edited", bytes: expected))
        press(&s, .character("w"))
        for _ in 0..<"typical.receipt.edited".count { press(&s, .backspace) }
        type(&s, "typical.receipt")
        #expect(press(&s, .enter) == nil)
        #expect(s.status == StatusMessage("typical.receipt is the input: the lab never writes over it; choose a new name", isError: true))
    }
}
