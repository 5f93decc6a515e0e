import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// Issue 32: `verify --lines` in text and `--quiet` prints the verdict alone, so the token report it
/// builds leaves out the steps in words (with their ranges and certificates), the notes, the x5c list
/// and the headline (`VerificationDetail.verdict`). Every step is still checked: the verdicts, subjects,
/// findings and nested reports must be the full report's, for every token sample and corpus token,
/// passing and failing (a failed step's reason is the verdict's either way).
/// (The batch run's pools give the reports they give without them: `ChainPoolTests`, `BatchPipelineTests`.)
@Suite
struct VerdictDetailTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01: most corpus leaves have expired

    /// Every token sample, the StoreKit JSON bodies beside them, Apple's documented bodies (Server API
    /// responses, Retention Messaging, whose formats word their own reports), and the corpus tokens
    /// when present: those the loader reads (a Retention reply alone is no input `verify` reads).
    static func inputs() throws -> [URL] {
        var files = try ["jws", "apple"].flatMap {
            try FileManager.default.contentsOfDirectory(at: Paths.samples.appendingPathComponent($0), includingPropertiesForKeys: nil)
        }
        if Paths.jwsCorpusAvailable {
            files += try FileManager.default.contentsOfDirectory(at: Paths.jws, includingPropertiesForKeys: nil)
        }
        return files.filter { ["jws", "json"].contains($0.pathExtension) }.sorted { $0.path < $1.path }.filter {
            (try? InputLoader.decode(try Paths.bytes($0), name: $0.lastPathComponent)) != nil
        }
    }

    static func reports(_ url: URL, bundleID: String?) throws -> (full: VerificationReport, verdict: VerificationReport) {
        let roots = [try Paths.sample("pki/test-ec-root.cer"), try Paths.sample("pki/test-ec-xcode.cer")]
        let input = try InputLoader.decode(try Paths.bytes(url), name: url.lastPathComponent)
        let options = AnalysisOptions(roots: roots, bundleID: bundleID, now: now)
        let document = Document.open(input, options: options, reading: .always)
        return (VerificationReport(verifying: document, now: now, jws: JWSOptions(), bundleID: bundleID),
                VerificationReport(verifying: document, now: now, jws: JWSOptions(), bundleID: bundleID, detail: .verdict))
    }

    /// The full report with what `.verdict` leaves out taken out.
    static func withoutDetail(_ report: VerificationReport) -> VerificationReport {
        var r = report
        r.certificates = []
        r.subject.headline = []
        r.subject.note = ""
        r.steps = []
        r.nested = NestedReports(r.nested.map(withoutDetail))
        return r
    }

    static func expectSame(_ url: URL, bundleID: String?) throws {
        let (full, verdict) = try reports(url, bundleID: bundleID)
        let name = url.lastPathComponent
        #expect(verdict.verdict == full.verdict, "\(name)")
        if url.pathExtension == "jws" {
            #expect(verdict == withoutDetail(full), "\(name)")
            #expect(verdict.steps.isEmpty && verdict.nested.allSatisfy(\.steps.isEmpty), "\(name)")
        } else {
            // A body of tokens is verified token by token; a format that words its own report
            // (a Server API response, a Retention request) gives the full one either way.
            #expect(verdict == withoutDetail(full) || verdict == full, "\(name)")
        }
    }

    @Test("the full report, asked for with or without a detail, is the format's own report")
    func fullIsTheFormatsOwn() throws {
        let roots = [try Paths.sample("pki/test-ec-root.cer")]
        for url in try Self.inputs() {
            let input = try InputLoader.decode(try Paths.bytes(url), name: url.lastPathComponent)
            let document = Document.open(input, options: AnalysisOptions(roots: roots, now: Self.now), reading: .always)
            #expect(VerificationReport(verifying: document, now: Self.now, jws: JWSOptions(), detail: .full)
                    == VerificationReport(verifying: document, now: Self.now), "\(url.lastPathComponent)")
        }
    }

    @Test("the verdict-only report is the full one without steps, notes, certificates and headline")
    func sameStepsAndVerdict() throws {
        let inputs = try Self.inputs()
        #expect(inputs.count >= 20)
        var sawFailure = false, sawValid = false
        for url in inputs {
            try Self.expectSame(url, bundleID: nil)
            // An expectation the tokens do not meet: the claim steps fail, and the verdict says why.
            try Self.expectSame(url, bundleID: "com.example.not-this-app")
            let (full, _) = try Self.reports(url, bundleID: nil)
            sawValid = sawValid || full.verdict.valid
            sawFailure = sawFailure || !full.verdict.valid
        }
        #expect(sawValid && sawFailure)
        // The full report still has what the verdict report leaves out.
        let (full, _) = try Self.reports(Paths.samples.appendingPathComponent("jws/notification.jws"), bundleID: nil)
        #expect(full.steps.contains { !$0.ranges.isEmpty })
        #expect(full.certificates.count == 3)
        #expect(!full.subject.headline.isEmpty)
        #expect(full.nested.count == 2)
    }
}
