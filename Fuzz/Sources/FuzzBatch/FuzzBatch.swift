import ASN1Lenient
import DocumentCore
import DocumentBatch
import Foundation
import FuzzSupport
import ReceiptKit
import ByteText
import X509Trust

/// Fuzz target (f): batch mode's line reader and per-line checks, as `verify --lines` and
/// `json --lines` run them: the input is written to a file, read by `BatchInputs` (the same
/// `BatchLineReader` over a file descriptor), checked by `BatchCheck` on 2 worker threads through
/// `BatchPipeline`, and written in order. Hostile lines: binary junk, NUL, CR, CRLF, empty lines, and
/// (when bits 7, 6 and 0–3 of the first byte are all set: one input in 64) a first line blown up to
/// 1 MiB, past the reader's 1 MiB chunk. Checking such a line takes about a second, so the top bit
/// alone (half of all inputs) held the target to ~5 inputs a second. Traps when:
/// - the number of reports differs from the number of lines (an independent count: LFs, plus a last
///   line without LF), or a report comes out of order (sequence, and the line number it names),
///   a line written by its worker in its turn (`BatchTurn`) included;
/// - a report is not exactly one line ending in LF, a JSON report does not parse or names the wrong
///   line, or a report lets a control character or bidi override through;
/// - splitting the same bytes in arbitrary chunks gives other lines than splitting them whole.
let roots = [readFile(repositoryRoot + "/samples/pki/test-root.cer"),
             readFile(repositoryRoot + "/samples/pki/test-ec-root.cer")]
/// 2024-03-01T12:00:00Z, the creation date of the typical sample.
let moment = Date(timeIntervalSince1970: 1_709_294_400)
let options = AnalysisOptions(validate: true, roots: roots, bundleID: "com.example.receiptexplorer", at: nil, now: moment)
let formats: [BatchCheck.Format] = [.verifyText, .verifyJSON, .json, .verifyQuiet]
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-batch-\(getpid()).txt").path
/// As `BatchRunner` does: certificates decoded once per process, shared by the worker threads.
let pool: Void = { DecodedCertificatePool.shared.isEnabled = true }()

/// The lines by the definition `--lines` documents, computed without the reader.
func expectedLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    if lines.last?.isEmpty == true { lines.removeLast() }  // the LF that ends the input starts no line
    return lines.map { $0.last == 0x0D ? Array($0.dropLast()) : $0 }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    _ = pool
    precondition(!roots[0].isEmpty, "samples/pki/test-root.cer not found under \(repositoryRoot)")
    var bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let control = data[0]
    if control & 0xCF == 0xCF, let end = bytes.firstIndex(of: 0x0A), end > 0 {
        let line = bytes[..<end]
        var huge: [UInt8] = []
        huge.reserveCapacity(1 << 20)
        while huge.count < 1 << 20 { huge += line }
        bytes.replaceSubrange(..<end, with: huge)
    }
    let expected = expectedLines(bytes)

    // Arbitrary chunk boundaries give the same lines as one chunk.
    var splitter = BatchLineSplitter()
    var chunked: [[UInt8]] = []
    var start = 0
    var step = Int(control & 0x0F) + 1
    while start < bytes.count {
        let end = min(bytes.count, start + step)
        splitter.feed(Array(bytes[start..<end])) { chunked.append($0) }
        start = end
        step = step * 3 % 17 + 1
    }
    splitter.finish { chunked.append($0) }
    precondition(chunked == expected, "chunked splitting gave \(chunked.count) lines, expected \(expected.count)")

    guard FileManager.default.createFile(atPath: scratch, contents: Data(bytes)) else { fatalError("cannot write \(scratch)") }
    let format = formats[Int(control >> 4 & 0x03)]
    let check = BatchCheck(format: format, options: options, words: .plain)
    // As `BatchRunner` writes: outcomes held in a buffer, flushed before a line of an input of 1 MB
    // or more is written by its worker in its turn (`BatchTurn`: the blown-up first line).
    let stream = Stream()
    var held: [UInt8] = []
    var written = 0
    BatchPipeline.run(inputs: BatchInputs(paths: [scratch], lines: true), jobs: 2, window: 3,
                      evaluate: { check.evaluate($0, turn: $1) }, output: { stream.append($0) },
                      flush: { held.withUnsafeBytes { stream.append($0) }; held.removeAll() }) { outcome in
        precondition(outcome.sequence == written, "report \(outcome.sequence) written as number \(written)")
        written += 1
        held += outcome.bytes
    }
    held.withUnsafeBytes { stream.append($0) }
    let reports = stream.bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
    precondition(stream.bytes.last == 0x0A && reports.count == expected.count,
                 "\(reports.count) report lines for \(expected.count) lines")
    for (index, report) in reports.enumerated() {
        let number = index + 1, text = String(decoding: report, as: UTF8.self)
        assertTerminalSafe(text, "report of line \(number)", allowNewlines: false)
        switch format {
        case .verifyText:
            precondition(text.hasPrefix(TerminalSafe.escape("\(scratch):\(number): ")), "text report names the wrong line")
        case .verifyJSON, .json:
            guard let object = try? JSONSerialization.jsonObject(with: Data(report)) as? [String: Any] else {
                fatalError("JSON report of line \(number) does not parse")
            }
            precondition(object["line"] as? Int == number && object["source"] as? String == scratch,
                         "JSON report names the wrong line")
        case .verifyQuiet:
            precondition(text.hasPrefix("VALID") || text.hasPrefix("INVALID") || text.hasPrefix("ERROR"), "quiet line")
        }
    }
    precondition(written == expected.count, "\(written) reports for \(expected.count) lines")
    return 0
}

/// The output as written: by the writer, and by a worker in its turn.
final class Stream: @unchecked Sendable {
    private let lock = NSLock()
    private var written: [UInt8] = []
    func append(_ piece: UnsafeRawBufferPointer) { lock.withLock { written += piece } }
    var bytes: [UInt8] { lock.withLock { written } }
}

@_cdecl("FuzzBatch_main")
func fuzzBatchMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    // A closure, not `fuzzBatch` itself: converting the @_cdecl function emits a second C symbol.
    return LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzBatch(data, size) })
}
