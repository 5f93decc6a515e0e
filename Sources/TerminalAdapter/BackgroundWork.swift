import ExplorerUI
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Runs effects' slow work (`Effect.work`: a tamper-lab re-open, a diff) on worker threads, so a
/// key press never waits for it; the event loop collects the messages the work returns and sends
/// them into the reducer like any other message.
final class BackgroundWork: @unchecked Sendable {
    /// Guards `finished`, the only property the workers touch.
    private let lock = Lock()
    private var finished: [Message] = []
    /// Work started and not yet collected; read and written on the loop's thread only.
    private(set) var outstanding = 0

    func start(_ work: @escaping @Sendable () -> Message) {
        outstanding += 1
        // 8 MiB as the main thread's: opening a document recurses on nested input.
        startThread(stackSize: 8 << 20) { [self] in
            let message = work()
            lock.withLock { finished.append(message) }
        }
    }

    /// The messages of the work that finished since the last call, in the order it finished.
    func collect() -> [Message] {
        let done = lock.withLock {
            let done = finished
            finished = []
            return done
        }
        outstanding -= done.count
        return done
    }
}
