import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// The verified-chain cache (`VerifiedPathCache.shared`): a second input signed by the same chain
/// reuses the path check, and the report is the same with the cache, without it and on reuse.
/// Serialized: the tests switch the process-wide cache off and on (other suites still get correct
/// results meanwhile; only their reuse changes).
@Suite(.serialized)
struct VerifiedPathCacheTests {
    static let moment = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01T12:00:00Z

    static func report(_ sample: String, root: String) throws -> VerificationReport {
        let input = try InputLoader.decode(try Paths.sample(sample), name: sample)
        let options = AnalysisOptions(roots: [try Paths.sample(root)], now: moment)
        return VerificationReport(verifying: Document.open(input, options: options, reading: .always), now: moment)
    }

    @Test("the same report with and without the cache, and when the cache answers",
          arguments: [("jws/notification.jws", "pki/test-ec-root.cer"), ("typical.receipt", "pki/test-root.cer"),
                      ("jws/malformed-x5c-wrong-order.jws", "pki/test-ec-root.cer"), ("malformed-expired-cert.receipt", "pki/test-root.cer")])
    func sameResult(sample: String, root: String) throws {
        let cache = VerifiedPathCache.shared
        cache.isEnabled = false
        let uncached = try Self.report(sample, root: root)
        cache.isEnabled = true
        let first = try Self.report(sample, root: root)
        let reused = try Self.report(sample, root: root)
        #expect(uncached == first)
        #expect(first == reused)
    }

    @Test("a second notification signed by the same chain reuses the path check")
    func reuseCounts() throws {
        let cache = VerifiedPathCache.shared
        cache.isEnabled = true
        cache.reset()
        let first = try Self.report("jws/notification.jws", root: "pki/test-ec-root.cer")
        let afterFirst = cache.counts
        // Within one document the tokens' shared x5c is checked once already (the JWS session);
        // the cache carries that check to the next document. Other suites may run path checks at
        // the same time, so the counts are compared as lower bounds.
        #expect(afterFirst.verifications >= 1)
        let second = try Self.report("jws/notification.jws", root: "pki/test-ec-root.cer")
        let afterSecond = cache.counts
        #expect(afterSecond.reused - afterFirst.reused >= 1)
        #expect(first.verdict.valid && second.verdict.valid)
        #expect(first == second)
    }
}
