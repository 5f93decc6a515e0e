import DocumentCore
import DocumentBatch
import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import Platform
import ReceiptKit
import TextOutput
import X509Trust

/// Runs a batch and returns the exit status: 0 every input valid, 1 any invalid, 2 any I/O error.
enum BatchRunner {
    static func run(files: [String], options: BatchOptions, check: BatchCheck) -> Int32 {
        let inputs = BatchInputs(paths: files, lines: options.lines)
        let jobs = options.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        // Every input of a batch tends to carry the same certificates and chains: decode each
        // certificate, and check each token chain, once per run.
        DecodedCertificatePool.shared.isEnabled = true
        JWSChainPool.shared.isEnabled = true
        let onTerminal = isatty(2) == 1
        var tally = BatchTally()
        var progress = BatchProgress(total: inputs.knownTotal, enabled: onTerminal)
        var buffer: [UInt8] = []
        func flush() {
            if !buffer.isEmpty { OutputWriter.write(bytes: buffer, to: .standardOutput) }
            buffer.removeAll(keepingCapacity: true)
        }
        // An output too large to make whole is written by its worker in its turn (`BatchTurn`).
        BatchPipeline.run(inputs: inputs, jobs: jobs, evaluate: { check.evaluate($0, turn: $1) },
                          output: { OutputWriter.write(raw: $0, to: .standardOutput) }, flush: flush) { outcome in
            if outcome.bytes.count >= 1 << 16 {
                // A line of a block or more goes out as it is, not copied into the buffer (whose
                // room would then stay that large): a 50 MB receipt's line is 104 MB (issue 32).
                flush()
                OutputWriter.write(bytes: outcome.bytes, to: .standardOutput)
            } else {
                buffer += outcome.bytes
            }
            // Flush in blocks, and at once when the output might be watched (a terminal, or a slow stream).
            if buffer.count >= 1 << 16 || progress.shouldFlushEachLine {
                OutputWriter.write(bytes: buffer, to: .standardOutput)
                buffer.removeAll(keepingCapacity: true)
            }
            tally.add(outcome)
            progress.advance()
        }
        if !buffer.isEmpty { OutputWriter.write(bytes: buffer, to: .standardOutput) }
        progress.clear()
        if onTerminal || options.summary {
            OutputWriter.write(tally.summary(), to: .standardError)
        }
        if tally.total == 0 {
            // Empty input is not "every input valid": nothing was checked (only --lines can get here).
            let names = files.map { $0 == "-" ? "standard input" : $0 }.joined(separator: ", ")
            CommandSupport.complain("no inputs: --lines read no line from \(names)")
            return ExitStatus.usageOrIO
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

    var total: Int { valid + invalid + ioErrors }

    mutating func add(_ outcome: BatchOutcome) {
        switch outcome.status {
        case .valid: valid += 1
        case .invalid: invalid += 1
        case .ioError, .refused: ioErrors += 1  // both exit 2: "summary: error"
        }
        if let code = outcome.reasonCode { reasons[code, default: 0] += 1 }
        if let kind = outcome.kind { kinds[kind, default: 0] += 1 }
    }

    /// "summary: inputs 3" … one fact per line, "summary: KEY… COUNT", so summaries of several
    /// runs add up with awk (docs/manual/batch.md, "More than one machine").
    func summary() -> String {
        var lines = ["summary: inputs \(total)", "summary: valid \(valid)",
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
        text += ", \(Int(rate.rounded(.toNearestOrEven)))/s"  // as printf's %.0f rounds
        OutputWriter.write("\r\u{1B}[K\(text)", to: .standardError)
    }

    func clear() {
        if enabled { OutputWriter.write("\r\u{1B}[K", to: .standardError) }
    }
}
