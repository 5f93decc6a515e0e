import ArgumentParser
import DocumentModel
import Foundation
import ReceiptKit

/// `--lines`, `--jobs N`, `--summary`: many inputs in one process (`verify`, `json`).
struct BatchOptions: ParsableArguments {
    @Flag(help: "Read one input per line of each FILE ('-': standard input): a receipt in base64, a token or a JSON body.")
    var lines = false

    @Option(help: ArgumentHelp("Inputs checked at once in batch mode (default: every core).", valueName: "N"))
    var jobs: Int?

    @Flag(help: "Print the batch summary on stderr even when it is not a terminal (on a terminal it always is).")
    var summary = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more (got \(jobs))") }
    }

    /// Batch mode: several FILEs, --lines, --jobs or --summary. A single FILE without them keeps
    /// the command's full single-input output.
    func isBatch(fileCount: Int) -> Bool { fileCount > 1 || lines || jobs != nil || summary }

    /// The documented discussion paragraph shared by `verify` and `json`.
    static let discussion = """
        Batch mode (several FILEs, --lines, --jobs or --summary): one line per input, in input \
        order, each naming its source (FILE, or FILE:LINE with --lines); JSON formats print one \
        object per line (NDJSON) with "source" and, for lines, "line". --jobs N checks N inputs at \
        once (default: every core); memory stays bounded however many inputs. On a terminal, stderr \
        shows progress and, at the end, a summary (summary: lines, easy to add up across runs); \
        --summary prints the summary when stderr is not a terminal. An input that cannot be loaded \
        (an empty line, undecodable base64) is INVALID; a FILE that cannot be read gets an ERROR \
        line (a JSON "error" object), the rest still run, and the exit status is 2.
        """
}

/// Runs a batch and returns the exit status: 0 every input valid, 1 any invalid, 2 any I/O error.
enum BatchRunner {
    static func run(files: [String], options: BatchOptions, check: BatchCheck) -> Int32 {
        let inputs = BatchInputs(paths: files, lines: options.lines)
        let jobs = options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        // Every input of a batch tends to carry the same certificates: decode each once per run.
        DecodedCertificatePool.shared.isEnabled = true
        let onTerminal = isatty(2) == 1
        var tally = BatchTally()
        var progress = BatchProgress(total: inputs.knownTotal, enabled: onTerminal)
        let out = FileHandle.standardOutput
        var buffer: [UInt8] = []
        BatchPipeline.run(inputs: inputs, jobs: jobs, evaluate: { check.evaluate($0) }) { outcome in
            buffer += outcome.text.utf8
            // Flush in blocks, and at once when the output might be watched (a terminal, or a slow stream).
            if buffer.count >= 1 << 16 || progress.shouldFlushEachLine {
                out.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
            tally.add(outcome)
            progress.advance()
        }
        if !buffer.isEmpty { out.write(Data(buffer)) }
        progress.clear()
        if onTerminal || options.summary {
            FileHandle.standardError.write(Data(tally.summary().utf8))
        }
        if tally.ioErrors > 0 { return ExitStatus.usageOrIO }
        return tally.invalid > 0 ? ExitStatus.inputHasErrors : ExitStatus.ok
    }
}

/// What the summary counts.
struct BatchTally {
    var valid = 0, invalid = 0, ioErrors = 0
    var reasons: [String: Int] = [:]
    var kinds: [String: Int] = [:]

    mutating func add(_ outcome: BatchOutcome) {
        switch outcome.status {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .ioError: ioErrors += 1
        }
        if let code = outcome.reasonCode { reasons[code, default: 0] += 1 }
        if let kind = outcome.kind { kinds[kind, default: 0] += 1 }
    }

    /// "summary: inputs 3" … one fact per line, "summary: KEY… COUNT", so summaries of several
    /// runs add up with awk (README, "More than one machine").
    func summary() -> String {
        var lines = ["summary: inputs \(valid + invalid + ioErrors)", "summary: valid \(valid)",
                     "summary: invalid \(invalid)", "summary: error \(ioErrors)"]
        lines += reasons.sorted { $0.key < $1.key }.map { "summary: reason \($0.key) \($0.value)" }
        lines += kinds.sorted { $0.key < $1.key }.map { "summary: kind \($0.key) \($0.value)" }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The progress line on a terminal's stderr: done / total, rate, ETA; redrawn at most 10 times a second.
struct BatchProgress {
    let total: Int?
    let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var done = 0

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// A watched output (progress on, so a terminal is there) is flushed per input.
    var shouldFlushEachLine: Bool { enabled && isatty(1) == 1 }

    mutating func advance() {
        done += 1
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let seconds = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(done) / seconds
        var text = "\(done)"
        if let total {
            text += " / \(total)"
            if rate > 0 { text += ", ETA \(Int((Double(total - done) / rate).rounded())) s" }
        }
        text += String(format: ", %.0f/s", rate)
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
    }

    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
