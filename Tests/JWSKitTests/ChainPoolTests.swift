import Foundation
import Testing
import TestSupport
@testable import JWSKit

/// Issue 32: in a batch run a chain is checked once per process (`JWSChainPool`), not once per
/// document. A pooled check must give every token the report a fresh check gives, and the pool
/// must hand a chain back only for the same x5c bytes and the same root files. Each test has a pool
/// of its own (the shared one is on only while a batch run switches it on).
@Suite struct ChainPoolTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    /// Every compact token in samples/jws and, when present, the corpus (malformed ones included).
    static func tokens() throws -> [(name: String, token: SplitToken)] {
        var files = try FileManager.default.contentsOfDirectory(at: Paths.samples.appendingPathComponent("jws"),
                                                                includingPropertiesForKeys: nil)
        if Paths.jwsCorpusAvailable {
            files += try FileManager.default.contentsOfDirectory(at: Paths.jws, includingPropertiesForKeys: nil)
        }
        return try files.filter { $0.pathExtension == "jws" }.sorted { $0.path < $1.path }.compactMap { url in
            let text = String(decoding: try Paths.bytes(url), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            // SplitToken wants three segments; the decoder's own tests hold the others.
            guard text.split(separator: ".", omittingEmptySubsequences: false).count == 3 else { return nil }
            return (url.lastPathComponent, SplitToken(text))
        }
    }

    /// The token's report, each time in a document's own session, as `JWSLayerBuilder` verifies it;
    /// its chain from `pool` when one is given.
    static func report(_ token: SplitToken, roots: [[UInt8]], pool: JWSChainPool? = nil) -> JWSVerificationReport {
        let options = JWSVerificationOptions(roots: roots, now: now)
        return JWSVerifier.verify(token.input(signedDate: token.signedDate, claims: JWSClaims(), options: options),
                                  session: pool.map { JWSVerificationSession(pool: $0) } ?? JWSVerificationSession())
    }

    static func expectSame(_ a: JWSVerificationReport, _ b: JWSVerificationReport, _ name: String) {
        #expect(a.steps == b.steps, "\(name)")
        #expect(a.certificates == b.certificates, "\(name)")
        #expect(a.chainKind == b.chainKind, "\(name)")
        #expect(a.anchor == b.anchor, "\(name)")
        #expect(a.signatureDER == b.signatureDER, "\(name)")
    }

    @Test("every sample and corpus token: the pooled chain gives the report a fresh check gives")
    func pooledReportsAreTheFreshOnes() throws {
        let roots = [try Paths.sample("pki/test-ec-root.cer"), try Paths.sample("pki/test-ec-xcode.cer")]
        let tokens = try Self.tokens()
        #expect(tokens.count >= 18)
        let fresh = tokens.map { Self.report($0.token, roots: roots) }
        let pool = JWSChainPool(alwaysOn: true)
        let first = tokens.map { Self.report($0.token, roots: roots, pool: pool) }
        let hitsAfterFirst = pool.hitCount
        let again = tokens.map { Self.report($0.token, roots: roots, pool: pool) }
        for i in tokens.indices {
            Self.expectSame(fresh[i], first[i], tokens[i].name)
            Self.expectSame(fresh[i], again[i], tokens[i].name)
        }
        // The second round found every chain the first one checked (tokens without x5c have one too).
        #expect(pool.hitCount - hitsAfterFirst == tokens.count)
    }

    @Test("another set of roots, or one certificate byte changed, is another chain")
    func keyIsTheBytesAndTheRoots() throws {
        let token = SplitToken(String(decoding: try Paths.sample("jws/transaction.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        let root = try Paths.sample("pki/test-ec-root.cer")
        let pool = JWSChainPool(alwaysOn: true)
        let trusted = Self.report(token, roots: [root], pool: pool)
        #expect(trusted.status(.root) == .passed)
        // Without the test root the same x5c is not trusted: the pool must not answer with the trusted check.
        let untrusted = Self.report(token, roots: [], pool: pool)
        #expect(untrusted.status(.root) != .passed)
        #expect(pool.hitCount == 0)
        // The intermediate's signature bit flipped: a different chain whose link is broken.
        var x5c = token.x5c
        x5c[1][x5c[1].count - 5] ^= 0x01
        let options = JWSVerificationOptions(roots: [root], now: Self.now)
        let base = token.input(signedDate: token.signedDate, claims: JWSClaims(), options: options)
        let forged = JWSVerificationInput(signingInput: base.signingInput, signature: base.signature, alg: base.alg, x5c: x5c,
                                          signedDate: base.signedDate, claims: base.claims, options: options)
        let pooled = JWSVerifier.verify(forged, session: JWSVerificationSession(pool: pool))
        #expect(pooled.status(.chain) == .failed(.linkSignatureInvalid(child: 1)))
        #expect(pool.hitCount == 0)
        // The same forged chain again comes from the pool, with the same broken link.
        #expect(JWSVerifier.verify(forged, session: JWSVerificationSession(pool: pool)).steps == pooled.steps)
        #expect(JWSVerifier.verify(forged, session: JWSVerificationSession()).steps == pooled.steps)
        #expect(pool.hitCount == 1)
    }
}
