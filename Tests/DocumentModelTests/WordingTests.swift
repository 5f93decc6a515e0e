import ASN1Lenient
import DocumentModel
import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// The one wording layer of verification (DocumentModel/Report/Wording): JWSKit's typed token
/// results in words, exactly as the explorer and `verify` print them.
@Suite struct WordingTests {
    static let today = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    static func tokenReport(_ name: String, roots: [String], bundleID: String? = nil) throws -> JWSVerificationReport {
        let options = AnalysisOptions(roots: try roots.map { try Paths.sample($0) }, bundleID: bundleID, now: today)
        let input = try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path)
        let document = Document.open(input, options: options, reading: .always)
        return try #require(document.jws?.tokens.first?.report)
    }

    @Test("a leaf that expired before signedDate, judged today = 2026-01-01: every step's line and the verdict")
    func expiredLeafLines() throws {
        let root = try #require(CertificateInfo(der: try Paths.sample("pki/test-ec-root.cer"))).sha256Fingerprint
        let report = try Self.tokenReport("jws/malformed-expired-at-signed-date.jws", roots: ["pki/test-ec-root.cer"],
                                          bundleID: "com.example.receiptexplorer")
        let leaf = "x5c[0] receipt-explorer TEST ECC StoreKit Signing (expired 2016) expired 2016-01-01T00:00:00Z"
        #expect(report.lines == [
            "Header algorithm (ES256): passed",
            "x5c certificate chain: passed",
            "Trust anchor (root): passed",
            "Leaf marker extension: passed",
            "Intermediate marker extension: passed",
            "Validity at signedDate: failed — at 2024-03-01T12:00:00Z: \(leaf)",
            "Validity today: failed — at 2026-01-01T00:00:00Z: \(leaf) (for information: the verdict judges the certificates at signedDate)",
            "ES256 signature: passed",
            "Bundle identifier: passed",
            "Environment: not checked — no expected value was given",
            "App Apple ID: not checked — no expected value was given",
            "Revocation (OCSP): not checked — asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here",
            "Anchored at a user-supplied root, not Apple (SHA-256 \(root))",
            "Verdict: invalid (Validity at signedDate)",
        ])
    }

    @Test("an Xcode StoreKit Testing token trusted with its own certificate: named as local testing, not Apple")
    func xcodeLines() throws {
        let report = try Self.tokenReport("jws/xcode-transaction.jws", roots: ["pki/test-ec-xcode.cer"])
        let root = try #require(CertificateInfo(der: try Paths.sample("pki/test-ec-xcode.cer"))).sha256Fingerprint
        #expect(report.lines.suffix(3) == [
            "Signed by Xcode StoreKit Testing — local testing only, not the App Store",
            "Anchored at a user-supplied root, not Apple (SHA-256 \(root))",
            "Verdict: valid, but not signed by Apple",
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
