import ASN1Lenient
import BenchSupport
import DocumentCore
import DocumentFormats
import Foundation
import JWSKit
import ReceiptKit
import TextLoader

/// StoreKit 2 (issue 12): verifying a Server Notification with two nested tokens (three chains,
/// three ES256 signatures) < 5 ms, and decoding a 1,000-transaction history response < 50 ms.
/// Inputs: samples/jws/notification.jws and a history response that Scripts/gen-history.py signs
/// with the samples' TEST EC PKI into Benchmarks/.inputs/ (deterministic, git-ignored).
func jwsSection(options: Options, say: (String) -> Void, kv: (String, String) -> Void) throws {
    let samples = Inputs.repoRoot.appendingPathComponent("samples")
    let root = try Inputs.read(samples.appendingPathComponent("pki/test-ec-root.cer"))
    let rootPEM = try Inputs.read(samples.appendingPathComponent("pki/test-ec-root.pem"))
    let history = try Inputs.historyPath(transactions: 1000)
    let historyInput = try InputLoader.load(path: history.path)
    let notificationInput = try InputLoader.load(path: samples.appendingPathComponent("jws/notification.jws").path)
    let decodeOnly = AnalysisOptions(validate: false)
    // One options value for every measured open, as a server verifying many notifications keeps
    // one: its anchors (the root read, its self-signature checked) are prepared by the first open,
    // the check below, outside the timing. The "cold" row makes a new value per open instead.
    let verified = AnalysisOptions(validate: true, roots: [root])

    // What each measured call produced, checked once so that a broken input cannot pass as fast.
    guard case .body(_, let embedded) = StoreKitInput.classify(historyInput.bytes), embedded.count == 1000 else {
        throw BenchError("\(history.lastPathComponent) is not a 1,000-token history body")
    }
    let notification = Document.open(notificationInput, options: verified)
    let reports = notification.jws?.tokens.compactMap(\.report) ?? []
    guard reports.count == 3, reports.allSatisfy({ $0.steps.allSatisfy { !$0.status.isFailed } }) else {
        throw BenchError("notification.jws: expected 3 verified tokens with no failed step, got \(reports.count)")
    }
    guard verified.anchors.isPrepared else { throw BenchError("the --root anchors were not prepared by the first open") }

    say("## StoreKit 2: JWS decode and verification (median of \(options.runs) runs; load average \(Measure.loadAverage()))\n")
    var table = Table(["operation", "wall ms", "CPU ms", "min wall ms", "max wall ms", "target"], rightAligned: [1, 2, 3, 4])
    // `BENCH_JWS_ONLY=history_decode` runs one row (for a profiler).
    let only = ProcessInfo.processInfo.environment["BENCH_JWS_ONLY"]
    func row(_ name: String, _ key: String, target: Double? = nil, _ body: () -> Int) {
        if let only, !only.isEmpty, only != key { return }
        let t = Measure.time(runs: options.runs, minimumNanos: 50_000_000, body)
        let verdict = target.map { min(t.median, t.cpuMedian) < $0 * 1e6 ? "< \(Format.fixed($0, 0)) ms: met" : "< \(Format.fixed($0, 0)) ms: **missed**" } ?? ""
        table.add([name, Format.ms(t.median), Format.ms(t.cpuMedian), Format.ms(t.min), Format.ms(t.max), verdict])
        kv("jws.\(key).wall_ms", Format.fixed(t.median / 1e6, 3))
        kv("jws.\(key).cpu_ms", Format.fixed(t.cpuMedian / 1e6, 3))
    }
    let bytes = historyInput.bytes
    row("history (1,000 tokens): classify + JWSDocument.decode of each token", "history_decode", target: 50) {
        guard case .body(_, let tokens) = StoreKitInput.classify(bytes) else { return 0 }
        var n = 0
        for token in tokens {
            n += JWSDocument.decode(token, in: bytes).segments.count
        }
        return n
    }
    row("history (1,000 tokens): Document.open, validate: false", "history_open", target: 50) {
        Document.open(historyInput, options: decodeOnly).layers.count
    }
    row("history (1,000 tokens): Document.open, validate: true (1,000 chains and signatures)", "history_open_verified") {
        Document.open(historyInput, options: verified).layers.count
    }
    row("notification.jws: Document.open, validate: false", "notification_open") {
        Document.open(notificationInput, options: decodeOnly).layers.count
    }
    row("notification.jws: Document.open, validate: true (3 chains, 3 signatures; root prepared once, outside the timing)",
        "notification_verified", target: 5) {
        Document.open(notificationInput, options: verified).jws?.tokens.count ?? 0
    }
    row("notification.jws, cold: test-ec-root.pem read and its self-signature checked, then Document.open, validate: true",
        "notification_verified_cold") {
        Document.open(notificationInput, options: AnalysisOptions(validate: true, roots: [rootPEM])).jws?.tokens.count ?? 0
    }
    // The same shape signed by Apple (root G3, which is pinned, so its self-signature is known and
    // only the two links and three ES256 signatures are computed), when ../shared/corpus is present.
    let corpusPath = Inputs.repoRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/corpus/jws/notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws").path
    var corpusNote = "../shared/corpus is absent: the Apple-signed notification row is left out."
    if FileManager.default.fileExists(atPath: corpusPath) {
        let appleInput = try InputLoader.load(path: corpusPath)
        let appleOptions = AnalysisOptions(validate: true)
        let appleReports = Document.open(appleInput, options: appleOptions).jws?.tokens.compactMap(\.report) ?? []
        guard appleReports.count == 3 else {
            throw BenchError("corpus DID_RENEW notification: expected 3 verified tokens, got \(appleReports.count)")
        }
        row("corpus DID_RENEW notification, Apple-signed: Document.open, validate: true (3 chains, 3 signatures)",
            "notification_apple_verified", target: 5) {
            Document.open(appleInput, options: appleOptions).jws?.tokens.count ?? 0
        }
        let failed = appleReports.flatMap { $0.steps.filter { $0.status.isFailed } }.count
        corpusNote = "The Apple-signed row is ../shared/corpus/jws/\(URL(fileURLWithPath: corpusPath).lastPathComponent) with the built-in roots (\(failed) failed step(s) over its 3 tokens)."
    }
    say(table.render())
    say("\n\(corpusNote)\n")
    say("\nnotification.jws rows: validate: true passes samples/pki/test-ec-root.cer through one AnalysisOptions value, "
        + "whose anchors (the root decoded, its self-signature checked: a P-384 verification) the first open prepared "
        + "before the timing, as a server verifying many notifications would; the cold row builds the options from "
        + "test-ec-root.pem in each open, so it includes reading the root and checking its self-signature.\n")
    say("\n\(history.lastPathComponent): \(Format.grouped(bytes.count)) bytes, 1,000 signed transactions (Scripts/gen-history.py); "
        + "validate: true passes samples/pki/test-ec-root.cer as the root so every chain is checked to the end.\n")
}
