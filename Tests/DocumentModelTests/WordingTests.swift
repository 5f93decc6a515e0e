import ASN1Lenient
import DocumentCore
import DocumentFormats
import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// The one wording layer of verification (DocumentCore/Report/Wording): JWSKit's typed token
/// results in words, exactly as the explorer and `verify` print them.
@Suite struct WordingTests {
    static let today = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    /// The settled report of a sample token (the one verdict rule applied), verified at `today`.
    static func tokenReport(_ name: String, roots: [String], bundleID: String? = nil, at: Date? = nil) throws -> VerificationReport {
        let options = AnalysisOptions(roots: try roots.map { try Paths.sample($0) }, bundleID: bundleID, at: at, now: today)
        let input = try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path)
        let document = Document.open(input, options: options, reading: .always)
        return VerificationReport(verifying: document, now: today, jws: JWSOptions(), bundleID: bundleID)
    }

    /// Each step as `verify` prints it after its mark, then the verdict line and its reasons.
    static func lines(_ report: VerificationReport) -> [String] {
        report.steps.map { VerifyReport.Style().mark($0.status) + " " + VerificationText.stepLine($0) }
            + [VerificationText.verdictLine(report)] + report.verdict.reasons.map { "• " + $0.message }
    }

    @Test("a leaf that expired before signedDate, judged today = 2026-01-01: every step's line and the verdict")
    func expiredLeafLines() throws {
        let root = try #require(CertificateInfo(der: try Paths.sample("pki/test-ec-root.cer"))).sha256Fingerprint
        let report = try Self.tokenReport("jws/malformed-expired-at-signed-date.jws", roots: ["pki/test-ec-root.cer"],
                                          bundleID: "com.example.receiptexplorer")
        let leaf = "x5c[0] receipt-explorer TEST ECC StoreKit Signing (expired 2016) expired 2016-01-01T00:00:00Z"
        #expect(Self.lines(report) == [
            "✓ Header algorithm (ES256)",
            "✓ x5c certificate chain",
            "✓ Trust anchor (root)",
            "✓ Leaf marker extension",
            "✓ Intermediate marker extension",
            "✗ Validity at signedDate: at 2024-03-01T12:00:00Z: \(leaf)",
            "i Validity today: at 2026-01-01T00:00:00Z: \(leaf) (for information: the verdict judges the certificates at signedDate)",
            "✓ ES256 signature",
            "✓ Bundle identifier",
            "– Environment: not checked — no expected value was given",
            "– App Apple ID: not checked — no expected value was given",
            "i Revocation (OCSP): asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here (for information: it does not decide the verdict)",
            "Verdict: INVALID",
            "• Validity at signedDate: at 2024-03-01T12:00:00Z: \(leaf)",
            "• Revocation (OCSP): asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here",
        ])
        #expect(root.count == 64)
    }

    @Test("a token valid at its signedDate whose leaf has expired today: the expiry is information beside VALID, never a failure")
    func noFailureBesideValid() throws {
        // A leaf valid 2015-2016 and no signedDate: judged today it decides and fails; at --at 2015-06-01 it passes.
        let today = try Self.tokenReport("jws/notification-no-signed-date.jws", roots: ["pki/test-ec-root.cer"])
        #expect(!today.verdict.valid)
        #expect(today.step("time-today")?.status == .failed)
        #expect(today.step("time-signed-date")?.status == .notChecked)
        let at = try #require(ISO8601DateFormatter().date(from: "2015-06-01T00:00:00Z"))
        let then = try Self.tokenReport("jws/notification-no-signed-date.jws", roots: ["pki/test-ec-root.cer"], at: at)
        #expect(then.verdict.valid, "\(then.verdict)")
        let step = try #require(then.step("time-today"))
        #expect(step.title == "Validity at 2015-06-01 00:00:00 UTC")
        #expect(step.status == .passed && step.decides && step.judgedAt == at)
        #expect(then.dates.at == at)
        // Every valid report of the samples: no step failed beside VALID.
        for name in ["jws/transaction.jws", "jws/notification.jws", "jws/malformed-expired-at-signed-date.jws"] {
            let r = try Self.tokenReport(name, roots: ["pki/test-ec-root.cer"])
            if r.verdict.valid { #expect(!r.steps.contains { $0.status == .failed }, "\(name)") }
        }
    }

    @Test("an Xcode StoreKit Testing token trusted with its own certificate: named as local testing, not Apple")
    func xcodeLines() throws {
        let report = try Self.tokenReport("jws/xcode-transaction.jws", roots: ["pki/test-ec-xcode.cer"])
        #expect(report.subject.label == "StoreKit 2 transaction signed by Xcode StoreKit Testing (local testing only)")
        #expect(Self.lines(report).suffix(3) == [
            "Verdict: VALID — valid for local testing only",
            "• signed by Xcode StoreKit Testing — local testing only, not the App Store; accepted because its certificate was supplied as a root",
            "• Revocation (OCSP): asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here",
        ])
    }

    @Test("failure sentences name what the typed values hold")
    func failureSentences() {
        #expect(JWSFailure.algorithmSymmetric("HS256").sentence
            == "\"alg\" is \"HS256\", a shared-secret MAC; a verifier that accepted it would check it against the public certificate, which anyone can do (algorithm confusion). Apple signs with ES256")
        #expect(JWSFailure.wrongOrder(expected: [2, 1, 0]).sentence
            == "the certificates are in the wrong order: they link only as x5c[2] ← x5c[1] ← x5c[0]; x5c must list leaf, intermediate, root (RFC 7515 §4.1.6)")
        #expect(JWSFailure.rootNotSelfSigned(index: 2).sentence == "x5c[2], the last certificate, is not a self-signed root")
        #expect(JWSStepStatus.failed(.rootNotSelfSigned(index: 2)).summary
            == "failed — x5c[2], the last certificate, is not a self-signed root")
        #expect(JWSSkip.noExpectation.sentence == "no expected value was given")
        #expect(JWSStep.chain.title == "x5c certificate chain")
    }
}
