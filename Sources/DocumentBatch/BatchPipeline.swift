import ASN1Lenient
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DocumentCore

/// Runs a batch: one producer thread reads inputs, `jobs` worker threads check them, and the
/// calling thread writes the outcomes in input order. At most `window` inputs are in flight (read
/// and not yet written), so memory stays bounded however many inputs there are: the reorder buffer
/// holds outcomes that finished ahead of an earlier, slower one, and is part of that window.
///
/// Read lines in flight also stay under 16 MB (a longer line goes alone), so memory does not grow
/// with the window either. Threads are woken in batches, not once an input: the reader when half
/// the window is free, the writer when a quarter of it is ready or the workers have nothing left to do (so a line arriving
/// alone on a pipe is still written as soon as it is checked). Waking them once an input cost
/// 6 context switches an input, 10 % of a batch `verify`'s time; with 64 places a worker, 0.1 (about
/// 1 % of the time, and CPU the second worker of `--jobs 2` could not use), with 256 a worker 0.03.
public enum BatchPipeline {
    /// `write` runs on the calling thread only, once per input, in input order.
    public static func run(inputs: BatchInputs, jobs: Int, window: Int? = nil,
                           evaluate: @escaping @Sendable (BatchItem) -> BatchOutcome,
                           write: (BatchOutcome) -> Void) {
        run(inputs: inputs, jobs: jobs, window: window, evaluate: { item, _ in evaluate(item) },
            output: { _ in }, flush: {}, write: write)
    }

    /// As above, and an input may write its own output in its turn (`BatchTurn`): to `output`, from
    /// its worker's thread, once every earlier outcome went through `write` and `flush` was called.
    public static func run(inputs: BatchInputs, jobs: Int, window: Int? = nil,
                           evaluate: @escaping @Sendable (consuming BatchItem, BatchTurn) -> BatchOutcome,
                           output: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
                           flush: () -> Void, write: (BatchOutcome) -> Void) {
        let state = SharedState(window: max(window ?? jobs * 256, 1))
        startThread {
            inputs.produce { item in state.submit(item) }
            state.finishInput()
        }
        for _ in 0..<max(jobs, 1) {
            // 8 MB, as the main thread's: opening a document recurses on nested input.
            startThread(stackSize: 8 << 20) {
                while let item = state.nextItem() {
                    // Handed over: a line's bytes can go once read (`BatchCheck.evaluate`).
                    let turn = BatchTurn(sequence: item.sequence, state: state, output: output)
                    state.finished(evaluate(consume item, turn))
                }
            }
        }
        while let next = state.nextOutcome() {
            switch next {
            case .outcome(let outcome):
                write(outcome)
                state.written()
            case .turn:
                flush()
                state.grantTurn()
            }
        }
    }
}

/// An input's turn to write its output itself, for an output too large to make whole (a 50 MB
/// receipt's `json` line is 104 MB; made whole it sat beside the document, issue 32). `write`
/// waits until every earlier input's output is written and flushed, then hands `body` the output;
/// the input's outcome then carries no bytes. Earlier inputs never wait for later ones, so the
/// earliest waiting input always gets its turn.
public struct BatchTurn: Sendable {
    let sequence: Int
    fileprivate let state: SharedState
    let output: @Sendable (UnsafeRawBufferPointer) -> Void

    fileprivate init(sequence: Int, state: SharedState, output: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        self.sequence = sequence
        self.state = state
        self.output = output
    }

    public func write(_ body: ((UnsafeRawBufferPointer) -> Void) -> Void) {
        state.awaitTurn(sequence)
        body(output)
    }
}

/// The one piece of state the threads share. Every stored property is read and written only with
/// `condition` locked, and everything that crosses threads through it (`BatchItem`, `BatchOutcome`)
/// is a Sendable value; that is what `@unchecked` asserts here.
fileprivate final class SharedState: @unchecked Sendable {
    /// One lock; each kind of waiter has its own channel, so a hand-off wakes only the thread that
    /// can use it (one broadcast to all four woke the reader, both workers and the writer every
    /// time: 5 context switches an input, and `--jobs 2` spent 18 % more CPU than `--jobs 1`).
    private let condition = Condition(channels: 4)
    private static let itemReady = 0, outcomeReady = 1, roomFree = 2, turnGranted = 3
    private let window: Int
    /// Bytes of read lines in flight beyond which the reader waits (one longer line still goes
    /// alone): 256 places a worker must not mean 256 long lines held at once.
    private static let byteBudget = 16 << 20
    /// The byte count of every input in flight, oldest first (they are written in that order).
    private var sizes: [Int] = []
    private var sizesHead = 0
    private var bytesInFlight = 0
    /// Free places in the window that wake a waiting reader.
    private let refill: Int
    /// Outcomes ready that wake a waiting writer while the workers are still busy.
    private let writeBatch: Int
    /// Read, not yet taken by a worker (FIFO: `queue[queueHead...]`); a taken item's place is
    /// emptied, so that the queue does not keep its line's bytes.
    private var queue: [BatchItem?] = []
    private var queueHead = 0
    /// Checked, waiting for every earlier input to be written (the reorder buffer).
    private var done: [Int: BatchOutcome] = [:]
    /// Read and not yet written: never more than `window`.
    private var inFlight = 0
    private var submitted = 0
    private var nextToWrite = 0
    private var inputEnded = false
    /// Inputs whose workers wait to write their own output (`BatchTurn`), and the one whose turn it is.
    private var turnsWanted: Set<Int> = []
    private var turn = -1

    enum Next {
        case outcome(BatchOutcome)
        /// The next input writes its own output: flush what is held, then `grantTurn`.
        case turn
    }

    init(window: Int) {
        self.window = window
        refill = max(1, window / 2)
        writeBatch = max(1, window / 4)
    }

    func submit(_ item: BatchItem) {
        condition.lock()
        defer { condition.unlock() }
        while inFlight >= window || bytesInFlight >= Self.byteBudget { condition.wait(Self.roomFree) }
        if queueHead > 1024 && queueHead * 2 > queue.count {  // keep the FIFOs' storage bounded
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        if sizesHead > 1024 && sizesHead * 2 > sizes.count {
            sizes.removeFirst(sizesHead)
            sizesHead = 0
        }
        queue.append(item)
        let size = if case .line(let bytes) = item.payload { bytes.count } else { 0 }
        sizes.append(size)
        bytesInFlight += size
        inFlight += 1
        submitted += 1
        condition.signal(Self.itemReady)
    }

    func finishInput() {
        condition.lock()
        inputEnded = true
        condition.broadcast(Self.itemReady)
        condition.signal(Self.outcomeReady)
        condition.unlock()
    }

    /// The next input for a worker; nil when the input has ended and the queue is empty.
    func nextItem() -> BatchItem? {
        condition.lock()
        defer { condition.unlock() }
        while queueHead == queue.count && !inputEnded { condition.wait(Self.itemReady) }
        guard queueHead < queue.count else { return nil }
        let item = queue[queueHead].take()
        queueHead += 1
        return item
    }

    func finished(_ outcome: BatchOutcome) {
        condition.lock()
        done[outcome.sequence] = outcome
        // The writer waits for the next outcome in input order, and is woken for a batch of them,
        // or for whatever is ready once the workers run dry (the last input, a slow pipe), or at
        // once while an input waits for its turn to write.
        let idle = queueHead == queue.count
        if done[nextToWrite] != nil && (idle || done.count >= writeBatch || !turnsWanted.isEmpty || outcome.sequence == turn) {
            condition.signal(Self.outcomeReady)
        }
        condition.unlock()
    }

    /// The next outcome in input order, or the next input's turn; nil once every input has been written.
    func nextOutcome() -> Next? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome = done.removeValue(forKey: nextToWrite) { return .outcome(outcome) }
            if turn != nextToWrite && turnsWanted.contains(nextToWrite) { return .turn }
            if inputEnded && nextToWrite == submitted { return nil }
            condition.wait(Self.outcomeReady)
        }
    }

    /// The next input writes now: every earlier one is written and flushed.
    func grantTurn() {
        condition.lock()
        turn = nextToWrite
        condition.broadcast(Self.turnGranted)
        condition.unlock()
    }

    /// Waits until input `sequence` may write its own output.
    func awaitTurn(_ sequence: Int) {
        condition.lock()
        defer { condition.unlock() }
        turnsWanted.insert(sequence)
        condition.signal(Self.outcomeReady)
        while turn != sequence { condition.wait(Self.turnGranted) }
        turnsWanted.remove(sequence)
    }

    func written() {
        condition.lock()
        nextToWrite += 1
        inFlight -= 1
        bytesInFlight -= sizes[sizesHead]
        sizesHead += 1
        if window - inFlight >= refill && bytesInFlight < Self.byteBudget { condition.signal(Self.roomFree) }
        condition.unlock()
    }
}
