import ASN1Lenient
import DocumentCore
import Testing
import TestSupport
@testable import ExplorerUI
@testable import TerminalAdapter

/// Slow work is an effect whose result comes back as a message (issue 19, item 5): `d` asks for
/// the comparison and the overlay opens when `.documentsCompared` arrives; meanwhile the header
/// says what is running, across other keys. The tests run the work at once (`Effect.work`), as
/// the adapter runs it on a worker thread.
@Suite struct BackgroundEffectTests {
    @Test func diffIsAnEffectWhoseResultComesBackAsAMessage() throws {
        var s = DiffViewTests.state()
        let effect = reduce(&s, .character("d"))
        guard case .compareDocuments(let job)? = effect else { Issue.record("no diff job: \(String(describing: effect))"); return }
        #expect(s.diffView == nil)
        #expect(s.status == StatusMessage("comparing the two documents…"))
        // Other keys still work, and the header keeps saying what runs.
        let selection = s.outlineView.selection
        reduce(&s, .down)
        #expect(s.outlineView.selection != selection)
        #expect(s.status == StatusMessage("comparing the two documents…"))
        // A second d while the first runs is refused, never queued silently.
        let again = reduce(&s, .character("d"))
        #expect(again == nil)
        #expect(s.status == StatusMessage("still comparing the two documents: the list opens when it is ready", isError: true))

        let work = try #require(effect?.work)
        let result = work()
        guard case .documentsCompared(let list) = result else { Issue.record("not a diff result: \(result)"); return }
        var stale = s
        reduce(&stale, .documentsCompared(DiffResult(id: job.id + 1, entries: list.entries, left: list.left, right: list.right)))
        #expect(stale.diffView == nil)
        reduce(&s, result)
        #expect(s.diffView?.entries.map(\.title) == ["root differs", "only in 2: BOOLEAN"])
        #expect(s.status == StatusMessage("2 differences"))
        reduce(&s, .down)
        #expect(s.status == nil)
    }

    /// The comparison follows the user across a document switch: the result still opens the list.
    @Test func aDiffResultAfterASwitchStillOpensTheList() throws {
        var s = DiffViewTests.state()
        let effect = reduce(&s, .character("d"))
        let job = try #require(effect?.work)
        reduce(&s, .character("}"))
        #expect(s.documents.current == 1)
        reduce(&s, job())
        #expect(s.diffView?.entries.count == 2)
    }

    /// A lab edit's status stays while the re-open runs, whatever else is pressed.
    @Test func theLabSaysItIsRecheckingAcrossOtherKeys() throws {
        var s = try LabJWSTests.state("jws/transaction.jws")
        let original = s.layered.document.fileLayer.bytes
        s.selectOutlineRow(try JWSOutlineTests.row(s, "r"))
        press(&s, .character("b"), .tab, .character("e"))
        let effect = reduce(&s, .character(LabJWSTests.other(original[4470])))
        #expect(s.status == StatusMessage("re-checking the edited bytes…"))
        reduce(&s, .right)
        #expect(s.status == StatusMessage("re-checking the edited bytes…"))
        let work = try #require(effect?.work)
        reduce(&s, work())
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
        reduce(&s, .right)
        #expect(s.status == nil)
    }
    /// A view chosen while the re-open runs is still shown when its result comes (the result
    /// used to rebuild the state on the tree view, losing the key).
    @Test func aViewChosenWhileRecheckingStays() throws {
        var s = try LabJWSTests.state("jws/transaction.jws")
        let original = s.layered.document.fileLayer.bytes
        s.selectOutlineRow(try JWSOutlineTests.row(s, "r"))
        press(&s, .character("b"), .tab, .character("e"))
        let effect = reduce(&s, .character(LabJWSTests.other(original[4470])))
        reduce(&s, .character("2"))
        #expect(s.mode == .summary)
        let work = try #require(effect?.work)
        reduce(&s, work())
        #expect(s.mode == .summary)
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
        #expect(render(s, size: GridSize(width: 120, height: 40)).text.contains("ES256 signature: failed"))
    }
}

/// The adapter's worker: the work runs on another thread and its message is collected by the loop.
@Suite struct BackgroundWorkTests {
    @Test func workRunsOffTheCallingThreadAndItsMessageIsCollected() async throws {
        let work = BackgroundWork()
        var s = DiffViewTests.state()
        let effect = reduce(&s, .character("d"))
        let job = try #require(effect?.work)
        work.start(job)
        #expect(work.outstanding == 1)
        var collected: [Message] = []
        for _ in 0..<1000 where collected.isEmpty {
            collected = work.collect()
            if collected.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(work.outstanding == 0)
        #expect(collected == [job()])
        for message in collected { reduce(&s, message) }
        #expect(s.diffView?.entries.count == 2)
    }
}
