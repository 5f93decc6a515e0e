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
}
