import Foundation
import ReceiptKit
import Testing
@testable import JWSKit
import TestSupport
import X509Trust

/// A `--root` is a trust decision made once: its self-signature is checked when its `TrustAnchorSet`
/// is prepared, and every verification reads that fact. The reports must be what checking it in each
/// verification gives: the same steps, the same failure, the same words, on a good root, a forged one
/// and a pinned one.
@Suite("Prepared trust anchors: a supplied root's self-signature checked once")
struct PreparedAnchorTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    /// The notification and its two nested tokens (one chain: TEST leaf, intermediate, root).
    static func notificationTokens() throws -> [SplitToken] {
        let outer = SplitToken(String(decoding: try Paths.sample("jws/notification.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        let data = try #require(outer.payload?["data"] as? [String: Any])
        return [outer] + ["signedTransactionInfo", "signedRenewalInfo"].map { SplitToken(data[$0] as? String ?? "") }
    }

    /// Each token's report with the same anchors, in one session per token (as one document each).
    static func reports(_ tokens: [SplitToken], x5c: [[UInt8]]? = nil, options: JWSVerificationOptions) -> [JWSVerificationReport] {
        tokens.map { token in
            var input = token.input(signedDate: token.signedDate, claims: JWSClaims(), options: options)
            if let x5c { input.x5c = x5c }
            return JWSVerifier.verify(input, session: JWSVerificationSession())
        }
    }

    /// Reports with anchors prepared once before any verification, and with a fresh set per
    /// verification (read and checked inside it, as every verification did before): equal.
    static func expectSameReports(_ tokens: [SplitToken], x5c: [[UInt8]]? = nil, roots: [[UInt8]],
                                  sourceLocation: SourceLocation = #_sourceLocation) -> [JWSVerificationReport] {
        let anchors = TrustAnchorSet(files: roots)
        _ = anchors.prepared()
        let prepared = reports(tokens, x5c: x5c, options: JWSVerificationOptions(anchors: anchors, now: now))
        let fresh = tokens.indices.flatMap { i in
            reports([tokens[i]], x5c: x5c, options: JWSVerificationOptions(roots: roots, now: now))
        }
        #expect(prepared.map(\.steps) == fresh.map(\.steps), sourceLocation: sourceLocation)
        #expect(prepared.map(\.chainKind) == fresh.map(\.chainKind), sourceLocation: sourceLocation)
        #expect(prepared.map(\.certificates) == fresh.map(\.certificates), sourceLocation: sourceLocation)
        #expect(prepared.map(\.anchor) == fresh.map(\.anchor), sourceLocation: sourceLocation)
        return prepared
    }

    @Test("a good root, DER or PEM: valid, anchored at it, read once for three tokens in three sessions")
    func goodRoot() throws {
        let tokens = try Self.notificationTokens()
        let x5c = tokens[0].x5c
        for file in ["pki/test-ec-root.cer", "pki/test-ec-root.pem"] {
            let roots = [try Paths.sample(file)]
            let reports = Self.expectSameReports(tokens, roots: roots)
            #expect(reports.map(\.isValid) == [true, true, true], "\(file)")
            #expect(reports.map(\.anchor) == Array(repeating: .userSupplied(sha256: fingerprintHex(x5c[2])), count: 3), "\(file)")
            #expect(reports[0].status(.chain) == .passed)

            let anchors = TrustAnchorSet(files: roots)
            #expect(!anchors.isPrepared)
            let options = JWSVerificationOptions(anchors: anchors, now: Self.now)
            let sessions = (0..<2).map { _ in JWSVerificationSession() }
            for session in sessions {
                let check = session.chain(x5c, anchors: anchors)
                // x5c[2] is the prepared root itself: only the leaf and the intermediate are decoded.
                #expect(check.decoded[2] === anchors.prepared().certificates[0], "\(file)")
                #expect(session.certificates.decodeCount == 2, "\(file)")
                #expect(check.linksFromPathCheck)
            }
            #expect(anchors.isPrepared)
            #expect(anchors.prepared().decodeCount == 1)
            #expect(options.roots == roots)
        }
    }

    @Test("a forged root (one signature bit flipped) passed as the root: chain fails, not self-signed, same words")
    func forgedRootSupplied() throws {
        let tokens = try Self.notificationTokens()
        let x5c = tokens[0].x5c
        let forged = SessionCertificateTests.forged(x5c[2])
        let anchors = TrustAnchorSet(files: [forged])
        #expect(anchors.prepared().certificates.map(\.info.isSelfSigned) == [false])
        #expect(anchors.prepared().certificates.map(\.info) == [CertificateInfo(der: forged)])
        for roots in [[forged], [DecodedCertificateTestsPEM.pem(forged)]] {
            let reports = Self.expectSameReports(tokens, x5c: [x5c[0], x5c[1], forged], roots: roots)
            for report in reports {
                #expect(report.status(.chain) == .failed(.rootNotSelfSigned(index: 2)))
                #expect(report.status(.root) == .notChecked(.chainStructureFailed))
                #expect(report.firstFailure?.step == .chain)
                #expect(report.failureCode == "root-not-self-signed")
                #expect(report.anchor == nil)
            }
        }
    }

    @Test("a forged root supplied while the token carries the genuine one: the token's root is checked itself")
    func forgedRootGenuineChain() throws {
        let tokens = try Self.notificationTokens()
        let forged = SessionCertificateTests.forged(tokens[0].x5c[2])
        let reports = Self.expectSameReports(tokens, roots: [forged])
        // Same name and key: OpenSSL ends the path at the supplied bytes; x5c's own root is self-signed.
        #expect(reports.map(\.isValid) == [true, true, true])
        #expect(reports[0].status(.chain) == .passed)
        #expect(reports[0].anchor == .userSupplied(sha256: fingerprintHex(forged)))
    }

    @Test("an unreadable root file before a good one: the root step names it, as before")
    func unreadableRootFile() throws {
        let tokens = try Self.notificationTokens()
        let roots = [Array("not a certificate".utf8), try Paths.sample("pki/test-ec-root.cer")]
        let anchors = TrustAnchorSet(files: roots)
        #expect(anchors.prepared().firstUnreadable == 0)
        #expect(anchors.prepared().certificates.count == 1)
        let reports = Self.expectSameReports(tokens, roots: roots)
        #expect(reports[0].status(.root) == .passed)  // the readable root still anchors the path
        let onlyBad = Self.expectSameReports(tokens, roots: [Array("not a certificate".utf8)])
        #expect(onlyBad[0].status(.root) == .failed(.userRootUnreadable(index: 0)))
    }

    @Test("the Apple-signed corpus notification: pinned G3 from the token, a supplied G3, a forged G3",
          .enabled(if: Paths.jwsCorpusAvailable))
    func pinnedRoot() throws {
        let text = String(decoding: try Paths.bytes(Paths.corpus.appendingPathComponent(
            "jws/notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws")), as: UTF8.self)
        let outer = SplitToken(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let g3 = try Paths.bytes(Paths.corpus.appendingPathComponent("certs/AppleRootCA-G3.cer"))
        #expect(outer.x5c[2] == g3)
        let builtIn = Self.expectSameReports([outer], roots: [])
        #expect(builtIn[0].anchor == .appleRootCAG3)
        #expect(builtIn[0].status(.chain) == .passed)
        let supplied = Self.expectSameReports([outer], roots: [g3])
        #expect(supplied[0].anchor == .appleRootCAG3)
        #expect(supplied[0].steps == builtIn[0].steps)
        let forged = SessionCertificateTests.forged(g3)
        let forgedReports = Self.expectSameReports([outer], x5c: [outer.x5c[0], outer.x5c[1], forged], roots: [forged])
        #expect(forgedReports[0].status(.chain) == .failed(.rootNotSelfSigned(index: 2)))
    }
}

enum DecodedCertificateTestsPEM {
    static func pem(_ der: [UInt8]) -> [UInt8] {
        Array("-----BEGIN CERTIFICATE-----\n\(Data(der).base64EncodedString(options: .lineLength64Characters))\n-----END CERTIFICATE-----\n".utf8)
    }
}
