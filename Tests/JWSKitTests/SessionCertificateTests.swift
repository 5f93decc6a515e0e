import Foundation
import ReceiptKit
import Testing
@testable import JWSKit
import TestSupport
import X509Trust

/// Issue 12's notification target: in one session each distinct certificate is decoded once, and a
/// link the path check has verified is not verified again. The fast path (links taken from the
/// path check) and the slow path (links one by one) must give the same steps; every failing chain
/// must still name the same link.
@Suite("Verification session: certificates decoded once, links verified once")
struct SessionCertificateTests {
    static func der(_ name: String) throws -> [UInt8] {
        let pem = String(decoding: try Paths.sample("pki/\(name).pem"), as: UTF8.self)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return [UInt8](try #require(Data(base64Encoded: body)))
    }

    static func chain() throws -> (leaf: [UInt8], mid: [UInt8], root: [UInt8]) {
        (try der("test-ec-signer"), try der("test-ec-intermediate"), try der("test-ec-root"))
    }

    /// One bit of the certificate's signature flipped (its last bytes are the signature value).
    static func forged(_ certificate: [UInt8]) -> [UInt8] {
        var copy = certificate
        copy[copy.count - 5] ^= 0x01
        return copy
    }

    static func check(_ x5c: [[UInt8]], roots: [[UInt8]]) -> JWSChainCheck {
        JWSChainCheck(x5c: x5c, userRootFiles: roots, certificates: CertificateCache())
    }

    @Test("the notification's three tokens: three certificates decoded, reports as without a session")
    func notificationDecodesEachCertificateOnce() throws {
        let root = try Paths.sample("pki/test-ec-root.cer")
        let outer = SplitToken(String(decoding: try Paths.sample("jws/notification.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        let data = try #require(outer.payload?["data"] as? [String: Any])
        let tokens = [outer] + ["signedTransactionInfo", "signedRenewalInfo"].map { SplitToken(data[$0] as? String ?? "") }
        #expect(Set(tokens.map(\.x5c)).count == 1, "the three tokens carry one chain")
        let options = JWSVerificationOptions(roots: [root], now: Date(timeIntervalSince1970: 1_767_225_600))
        let session = JWSVerificationSession()
        for token in tokens {
            let input = token.input(signedDate: token.signedDate, claims: JWSClaims(), options: options)
            let shared = JWSVerifier.verify(input, session: session)
            let fresh = JWSVerifier.verify(input)
            #expect(shared.steps == fresh.steps)
            #expect(shared.certificates == fresh.certificates)
            #expect(shared.anchor == fresh.anchor)
            #expect(shared.signatureDER == fresh.signatureDER)
            #expect(shared.status(.signature) == .passed)
        }
        // The leaf and the intermediate; the DER root file is x5c[2]'s bytes, decoded once by the
        // options' prepared anchors (PreparedAnchorTests), so x5c[2] is not decoded in the session.
        #expect(session.certificates.decodeCount == 2)
        #expect(options.anchors.prepared().decodeCount == 1)
        #expect(session.chain(tokens[0].x5c, userRootFiles: [root]).linksFromPathCheck)
    }

    @Test("a PEM root is read once, by its anchor set, and x5c[2] is that decoded certificate")
    func pemRootSharesTheDecodedRoot() throws {
        let (leaf, mid, root) = try Self.chain()
        let cache = CertificateCache()
        let check = JWSChainCheck(x5c: [leaf, mid, root], userRootFiles: [try Paths.sample("pki/test-ec-root.pem")],
                                  certificates: cache)
        #expect(check.structure == .passed)
        #expect(check.root.status == .passed)
        #expect(check.linksFromPathCheck)
        // The PEM root is read by its prepared anchor set, which the cache adopts: x5c[2] is that root.
        #expect(cache.decodeCount == 2)
        let fromFile = try cache.certificates(fileBytes: try Paths.sample("pki/test-ec-root.pem"))
        #expect(fromFile.count == 1)
        #expect(fromFile[0] === check.decoded[2])
    }

    /// samples/pki/test-ec-root.cer's subject, as the root step names it.
    static let ecRootSubject = "CN=receipt-explorer TEST ECC Root CA,OU=TEST ONLY - not Apple,O=receipt-explorer TEST,C=US"

    @Test("fast and slow path agree: a valid chain with and without a root to check the path against")
    func fastAndSlowPathAgree() throws {
        let (leaf, mid, root) = try Self.chain()
        let fast = Self.check([leaf, mid, root], roots: [root])
        let slow = Self.check([leaf, mid, root], roots: [])
        #expect(fast.linksFromPathCheck)
        #expect(!slow.linksFromPathCheck)
        #expect(fast.structure == .passed)
        #expect(slow.structure == .passed)
        #expect(fast.certificates == slow.certificates)
        #expect(fast.root.anchor == .userSupplied(sha256: fingerprintHex(root)))
        #expect(slow.root.status == .failed(.rootNotPinned(sha256: fingerprintHex(root), subject: Self.ecRootSubject)))
    }

    @Test("a tampered leaf: the path check fails, the links are verified one by one, link 0 is named")
    func tamperedLeaf() throws {
        let (leaf, mid, root) = try Self.chain()
        let check = Self.check([Self.forged(leaf), mid, root], roots: [root])
        #expect(!check.linksFromPathCheck)
        #expect(check.structure == .failed(.linkSignatureInvalid(child: 0)))
        #expect(check.root.status == .notChecked(.chainStructureFailed))
        #expect(check.root.anchor == nil)
    }

    @Test("a tampered intermediate: link 0 still verifies (its key is intact), link 1 is named")
    func tamperedIntermediate() throws {
        let (leaf, mid, root) = try Self.chain()
        let check = Self.check([leaf, Self.forged(mid), root], roots: [root])
        #expect(!check.linksFromPathCheck)
        #expect(check.structure == .failed(.linkSignatureInvalid(child: 1)))
        #expect(check.root.status == .notChecked(.chainStructureFailed))
    }

    @Test("a tampered root: links verify, the root is not self-signed, with or without itself as a root")
    func tamperedRoot() throws {
        let (leaf, mid, root) = try Self.chain()
        let forgedRoot = Self.forged(root)
        for roots in [[forgedRoot], [root], []] {
            let check = Self.check([leaf, mid, forgedRoot], roots: roots)
            #expect(check.structure == .failed(.rootNotSelfSigned(index: 2)), "\(roots.count) roots")
            #expect(check.certificates[2]?.isSelfSigned == false)
        }
        // Trusting the forged bytes themselves: OpenSSL does not check an anchor's own signature, so
        // the path passes over exactly x5c and the links come from it; the root's is still checked.
        #expect(Self.check([leaf, mid, forgedRoot], roots: [forgedRoot]).linksFromPathCheck)
    }

    @Test("a wrong root (RSA TEST root supplied): not trusted, the links verified one by one")
    func wrongRoot() throws {
        let (leaf, mid, root) = try Self.chain()
        let check = Self.check([leaf, mid, root], roots: [try Paths.sample("pki/test-root.cer")])
        #expect(!check.linksFromPathCheck)
        #expect(check.structure == .passed)
        #expect(check.root.status == .failed(.rootNotPinned(sha256: fingerprintHex(root), subject: Self.ecRootSubject)))
    }

    @Test("an intermediate supplied as the root: a partial path, not all of x5c, so links one by one")
    func partialChain() throws {
        let (leaf, mid, root) = try Self.chain()
        let check = Self.check([leaf, mid, root], roots: [mid])
        #expect(!check.linksFromPathCheck)
        #expect(check.structure == .passed)
        #expect(check.root.anchor == .userSupplied(sha256: fingerprintHex(mid)))
    }

    @Test("an expired leaf: the path is checked without dates, so the links come from it; validity fails")
    func expiredLeaf() throws {
        let (_, mid, root) = try Self.chain()
        let expired = try Self.der("test-ec-expired-signer")
        let check = Self.check([expired, mid, root], roots: [root])
        #expect(check.linksFromPathCheck)
        #expect(check.structure == .passed)
        let at = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        guard case .failed(.certificatesNotValid(_, let problems)) = check.validity(at: at, anchor: nil) else {
            Issue.record("expected the expired leaf to fail validity")
            return
        }
        #expect(problems.map(\.x5cIndex) == [0])
        #expect(problems.map(\.kind) == [.expired])
    }

    @Test("the session's decoded certificates are freed when the session goes, reports outlive it")
    func certificatesGoWithTheSession() throws {
        let (leaf, mid, root) = try Self.chain()
        weak var decodedLeaf: DecodedCertificate?
        var report: JWSVerificationReport?
        do {
            let session = JWSVerificationSession()
            let input = JWSVerificationInput(signingInput: [], signature: [], alg: "ES256", x5c: [leaf, mid, root],
                                             signedDate: nil, options: JWSVerificationOptions(roots: [root]))
            report = JWSVerifier.verify(input, session: session)
            decodedLeaf = session.certificates.certificate(der: leaf)
            #expect(decodedLeaf != nil)
        }
        #expect(decodedLeaf == nil)
        #expect(report?.status(.chain) == .passed)
        #expect(report?.certificates.first??.der == leaf)
    }
}
