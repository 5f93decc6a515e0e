import DocumentCore
import Platform

/// The slow half of `d`, as an effect (`Effect.compareDocuments`): the diff engine run over the
/// two documents. The adapter runs it off the key-press path and sends the result back as
/// `Message.documentsCompared`; the reducer only asks and then shows the list.
public struct DiffJob: Sendable, Equatable {
    /// Which request this is: a result for an older one is dropped.
    public let id: Int
    let left: Document
    let right: Document
    let provider: DiffProvider

    public func run() -> DiffResult {
        let entries = provider(left, right)
        // The comparison's working memory (the pairing, each entry made once to count its rows) is
        // handed back before the list is shown beside the two documents (issue 32).
        FreedHeap.returnToSystem()
        return DiffResult(id: id, entries: entries, left: left, right: right)
    }

    /// Jobs are told apart by `id` (documents and engines are not compared).
    public static func == (a: DiffJob, b: DiffJob) -> Bool { a.id == b.id }
}

/// What a `DiffJob` made: the list, with the two documents it compares.
public struct DiffResult: Sendable, Equatable {
    public let id: Int
    public let entries: DiffList
    let left: Document
    let right: Document

    public static func == (a: DiffResult, b: DiffResult) -> Bool { a.id == b.id && a.entries == b.entries }
}

/// The diff request in flight and the id of the next one; carried across document switches and
/// lab rebuilds with the rest of the diff state.
struct DiffJobs: Sendable {
    var pending: Int?
    var next = 1
}
