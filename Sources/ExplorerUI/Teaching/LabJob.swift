import DocumentCore
import DocumentTour

/// The slow half of a tamper-lab edit, as an effect (`Effect.reopenLab`): the edits applied to a
/// copy of the session, each re-opening the document (parse, locate, decode, verify every token
/// and certificate). The adapter runs it and sends the result back as `Message.labReopened`; the
/// reducer only decides what to edit and then shows the result.
public struct LabJob: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        case replace(offset: Int, byte: UInt8)
        case insert(offset: Int, byte: UInt8)
        case delete(offset: Int)
        /// Undo this many byte edits (one key press).
        case undo(count: Int)
    }

    /// Which request this is: a result for an older one is dropped.
    public let id: Int
    let session: LabSession
    public let steps: [Step]

    /// Applies the steps to the session: the slow part (one re-open per byte edit).
    public func run() -> LabResult {
        var session = session
        var applied = 0
        for step in steps {
            let done: Bool
            switch step {
            case .replace(let offset, let byte): done = session.replace(at: offset, with: byte)
            case .insert(let offset, let byte): done = session.insert(byte, at: offset)
            case .delete(let offset): done = session.delete(at: offset)
            case .undo(let count):
                var undone = 0
                while undone < count, session.undo() { undone += 1 }
                done = undone > 0
            }
            if done { applied += 1 }
        }
        return LabResult(id: id, session: session, applied: applied)
    }

    /// Jobs are told apart by `id` (a session is not compared byte by byte).
    public static func == (a: LabJob, b: LabJob) -> Bool { a.id == b.id && a.steps == b.steps }
}

/// What a `LabJob` made: the session with its re-opened document.
public struct LabResult: Sendable, Equatable {
    public let id: Int
    let session: LabSession
    /// How many of the job's byte edits applied (an edit outside the bytes does not).
    let applied: Int

    public static func == (a: LabResult, b: LabResult) -> Bool { a.id == b.id && a.applied == b.applied }
}

/// A lab request the reducer sent and has not seen the result of: what to restore when it comes.
struct PendingLab: Sendable {
    let id: Int
    /// The document before the edit group (what the status line compares against: an edit of a
    /// derived layer writes several bytes, each re-opened).
    let previous: Document
    /// The byte edits a replace / insert / delete made (the undo group), 0 for an undo.
    let editCount: Int
    /// An edit of a derived layer: the layer and offset the panes come back to.
    let keep: (layer: LayerID, offset: Int, role: LayerRole)?
    /// The file offset the byte cursor goes to.
    let cursor: Int
}
