import ASN1Lenient
import DocumentCore
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// `q` / `Esc` with unsaved tamper-lab edits ask first: y quits, n stays; written or undone edits
/// quit at once.
@Suite struct QuitConfirmTests {
    /// typical.receipt with byte 307 (the bundle id's first character) changed to 0x43 in the hex pane.
    static func edited(size: GridSize = GridSize(width: 80, height: 24)) -> AppState {
        var s = Fixtures.sample(size: size)
        press(&s, .tab, .character(":"))
        type(&s, "307")
        press(&s, .enter, .character("e"))
        type(&s, "43")
        return s
    }

    @Test func quitWithUnsavedEditsAsksFirst() {
        var s = Self.edited()
        #expect(s.teaching.lab?.isEdited == true)
        #expect(press(&s, .character("q")) == nil)
        #expect(s.prompt == Prompt(kind: .confirmQuit))
        Snapshot.assert(render(s, size: GridSize(width: 80, height: 24)), named: "quit-confirm-unsaved-lab-80x24")
        // n stays and says how to keep the edits; other keys ask again.
        #expect(press(&s, .character("n")) == nil)
        #expect(s.prompt == nil && s.status == StatusMessage("not quitting: w in the byte pane writes the edited bytes to a new file"))
        press(&s, .character("q"))
        #expect(press(&s, .character("x")) == nil && s.prompt == Prompt(kind: .confirmQuit))
        #expect(s.status == StatusMessage("y quits and drops the tamper-lab edits; n stays", isError: true))
        #expect(press(&s, .escape) == nil && s.prompt == nil)
        // Esc (in the tree view) asks the same; y quits.
        press(&s, .backTab)
        #expect(press(&s, .escape) == nil && s.prompt == Prompt(kind: .confirmQuit))
        #expect(press(&s, .character("y")) == .quit)
    }

    @Test func writtenOrUndoneEditsQuitAtOnce() {
        var s = Self.edited()
        press(&s, .character("w"))
        let effect = press(&s, .enter)
        guard case .writeFile(let path, let bytes)? = effect else { Issue.record("no write: \(String(describing: effect))"); return }
        reduce(&s, .effectFinished(.writeFile(path: path, bytes: bytes), error: nil))
        #expect(press(&s, .character("q")) == .quit)
        // A failed write leaves the edits unsaved.
        var failed = Self.edited()
        press(&failed, .character("w"))
        if case .writeFile(let path, let bytes)? = press(&failed, .enter) {
            reduce(&failed, .effectFinished(.writeFile(path: path, bytes: bytes), error: "File exists"))
        }
        #expect(press(&failed, .character("q")) == nil && failed.prompt == Prompt(kind: .confirmQuit))
        // An edit undone: the bytes are the input's again.
        var undone = Self.edited()
        press(&undone, .character("u"))
        #expect(press(&undone, .character("q")) == .quit)
    }

    /// An edit keeps the other open documents (the lab rebuilds only its own), and q asks while
    /// any of them, shown or not, has unsaved edits.
    @Test func editsInAnotherOpenDocumentStillAsk() throws {
        let open = { (name: String) in
            Document.open(LoadedInput(bytes: try Paths.sample(name), name: name, encoding: .binary, note: ""), options: Fixtures.options)
        }
        var s = AppState.opening([try open("typical.receipt"), try open("minimal.receipt")])
        press(&s, .tab, .character("e"))
        type(&s, "00")
        #expect(s.teaching.lab?.isEdited == true && s.documents.count == 2)
        press(&s, .character("}"))
        #expect(s.file.name == "minimal.receipt" && s.status == StatusMessage("document 2 of 2: minimal.receipt"))
        #expect(press(&s, .character("q")) == nil && s.prompt == Prompt(kind: .confirmQuit))
    }
}
