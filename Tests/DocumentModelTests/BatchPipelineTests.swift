import DocumentCore
import DocumentBatch
import Foundation
import ReceiptKit
import Testing
import TestSupport
import X509Trust

/// `BatchPipeline` in-process, as `verify` runs it in batch mode: a producer thread, worker threads
/// sharing the process-wide caches (verified paths, header memo, trust anchors, decoded-certificate
/// pool), and the writer on the calling thread. Scripts/sanitize.sh thread runs this suite under
/// ThreadSanitizer, so the threads and the caches they share are checked for races there.
/// Serialized: it switches the process-wide certificate pool on, as a batch run does, and off again.
@Suite(.serialized)
struct BatchPipelineTests {
    static let moment = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01T12:00:00Z

    /// Each sample with whether it verifies against both test roots at `moment` (VerifiedPathCacheTests).
    static let samples: [(file: String, status: BatchOutcome.Status)] = [
        ("typical.receipt", .valid), ("jws/notification.jws", .valid),
        ("malformed-tampered.receipt", .invalid), ("jws/malformed-x5c-wrong-order.jws", .invalid),
    ]
    static let repeats = 6

    static func check() throws -> BatchCheck {
        let roots = [try Paths.sample("pki/test-root.cer"), try Paths.sample("pki/test-ec-root.cer")]
        return BatchCheck(format: .verifyText, options: AnalysisOptions(roots: roots, now: moment))
    }

    /// Every sample `repeats` times, interleaved, then a file that does not exist.
    static func paths() -> [String] {
        var paths: [String] = []
        for _ in 0..<repeats { paths += samples.map { Paths.samples.appendingPathComponent($0.file).path } }
        return paths + [Paths.samples.appendingPathComponent("no-such-file.receipt").path]
    }

    static func run(jobs: Int, window: Int?) throws -> [BatchOutcome] {
        let check = try check()
        var outcomes: [BatchOutcome] = []
        BatchPipeline.run(inputs: BatchInputs(paths: paths(), lines: false), jobs: jobs, window: window,
                          evaluate: { check.evaluate($0) }) { outcomes.append($0) }
        return outcomes
    }

    @Test("four workers write the same outcomes, in input order, as one worker", arguments: [nil, 2])
    func workersAgreeWithOneWorker(window: Int?) throws {
        DecodedCertificatePool.shared.isEnabled = true
        defer { DecodedCertificatePool.shared.isEnabled = false }
        let serial = try Self.run(jobs: 1, window: nil)
        let parallel = try Self.run(jobs: 4, window: window)
        let count = Self.samples.count * Self.repeats + 1
        #expect(serial.map(\.sequence) == Array(0..<count))
        #expect(parallel.map(\.sequence) == Array(0..<count))
        #expect(parallel.map(\.text) == serial.map(\.text))
        #expect(parallel.map(\.status) == serial.map(\.status))
        #expect(parallel.map(\.reasonCode) == serial.map(\.reasonCode))
        let expected = Array(repeating: Self.samples.map(\.status), count: Self.repeats).flatMap { $0 } + [.ioError]
        #expect(parallel.map(\.status) == expected)
        #expect(parallel.last?.reasonCode == "io-error")
        for (outcome, path) in zip(parallel, Self.paths()) {
            #expect(outcome.text.hasPrefix(path + ": "), "\(outcome.text)")
        }
    }

    /// Outcomes are handed to the writer in batches, but a line that arrives alone (a pipe fed
    /// slowly) is written as soon as it is checked, before the next line is even sent.
    @Test("a lone line on a pipe is written before the next one arrives", arguments: [1, 2])
    func aLoneLineIsWrittenWithoutWaitingForMore(jobs: Int) throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("batch-fifo-\(getpid())-\(jobs)").path
        unlink(fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let check = try Self.check()
        let firstWritten = DispatchSemaphore(value: 0)
        let sawFirstInTime = Flag()
        let feeder = Thread {
            let fd = open(fifo, O_WRONLY)
            _ = "not a receipt\n".withCString { write(fd, $0, 14) }
            // Without the early hand-off this waits for the timeout: the line is held until EOF.
            let inTime = firstWritten.wait(timeout: .now() + 20) == .success
            sawFirstInTime.set(inTime)
            _ = "still not one\n".withCString { write(fd, $0, 14) }
            close(fd)
        }
        feeder.start()
        var outcomes: [BatchOutcome] = []
        BatchPipeline.run(inputs: BatchInputs(paths: [fifo], lines: true), jobs: jobs,
                          evaluate: { check.evaluate($0) }) { outcome in
            outcomes.append(outcome)
            if outcome.sequence == 0 { firstWritten.signal() }
        }
        #expect(sawFirstInTime.value)
        #expect(outcomes.map(\.sequence) == [0, 1])
    }
}

/// A Bool one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ newValue: Bool) { lock.withLock { stored = newValue } }
}
