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

/// Inputs that write their own output in their turn (`BatchTurn`), between inputs whose outcome
/// carries it: every output in input order, whole, whatever the jobs and window.
@Suite struct BatchTurnTests {
    /// Lines "big N" write "N:" and three pieces in their turn; the others' outcome is "N\n".
    static func run(jobs: Int, window: Int?, lines: [String]) throws -> (stream: String, outcomes: [BatchOutcome]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("batch-turn-\(UUID().uuidString).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stream = Collected()
        var held: [UInt8] = []  // the writer's buffer, as BatchRunner's
        var outcomes: [BatchOutcome] = []
        BatchPipeline.run(inputs: BatchInputs(paths: [file.path], lines: true), jobs: jobs, window: window,
                          evaluate: { item, turn in
                              guard case .line(let bytes) = item.payload else { fatalError("lines only") }
                              let text = String(decoding: bytes, as: UTF8.self)
                              guard text.hasPrefix("big") else {
                                  return BatchOutcome(sequence: item.sequence, status: .valid, bytes: Array("\(item.sequence)\n".utf8))
                              }
                              turn.write { sink in
                                  for piece in ["\(item.sequence):", "a", "b", "c\n"] { Array(piece.utf8).withUnsafeBytes(sink) }
                              }
                              return BatchOutcome(sequence: item.sequence, status: .valid, bytes: [])
                          },
                          output: { stream.append($0) },
                          flush: { held.withUnsafeBytes { stream.append($0) }; held.removeAll() },
                          write: { outcome in held += outcome.bytes; outcomes.append(outcome) })
        held.withUnsafeBytes { stream.append($0) }
        return (stream.text, outcomes)
    }

    @Test("outputs written in their turn land in input order", arguments: [(1, nil), (2, nil), (4, 2), (3, 1)] as [(Int, Int?)])
    func turnsKeepInputOrder(jobs: Int, window: Int?) throws {
        let lines = (0..<40).map { $0 % 7 == 3 || $0 % 11 == 0 ? "big \($0)" : "small \($0)" } + ["big last"]
        let (stream, outcomes) = try Self.run(jobs: jobs, window: window, lines: lines)
        let expected = lines.indices.map { lines[$0].hasPrefix("big") ? "\($0):abc\n" : "\($0)\n" }.joined()
        #expect(stream == expected)
        #expect(outcomes.map(\.sequence) == Array(lines.indices))
        #expect(outcomes.filter(\.bytes.isEmpty).count == lines.filter { $0.hasPrefix("big") }.count)
    }
}

/// Bytes several threads append, one at a time.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    func append(_ piece: UnsafeRawBufferPointer) { lock.withLock { bytes += piece } }
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}

/// A Bool one thread sets and another reads.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ newValue: Bool) { lock.withLock { stored = newValue } }
}
