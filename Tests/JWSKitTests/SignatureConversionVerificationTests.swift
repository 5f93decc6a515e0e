import Foundation
import JWSKit
import Testing
import TestSupport

/// ES256 raw r‖s → DER ECDSA-Sig-Value on hand values, signature shapes, and the header/x5c checks
/// that need no sample file.
struct SignatureConversionVerificationTests {
    static func raw(r: [UInt8], s: [UInt8]) -> [UInt8] { r + s }
    static let r1 = [UInt8](repeating: 0x11, count: 32)
    static let s1 = [UInt8](repeating: 0x22, count: 32)

    @Test("plain values: two 32-byte INTEGERs in a 68-byte SEQUENCE")
    func plain() {
        let der = ES256Signature.der(fromRaw: Self.raw(r: Self.r1, s: Self.s1))
        #expect(der == [0x30, 0x44, 0x02, 0x20] + Self.r1 + [0x02, 0x20] + Self.s1)
    }

    @Test("high bit set: a 0x00 is prepended so the INTEGER stays positive")
    func highBit() {
        let r = [0x80] + [UInt8](repeating: 0x01, count: 31)
        let s = [0xFF] + [UInt8](repeating: 0x02, count: 31)
        let der = ES256Signature.der(fromRaw: r + s)
        #expect(der == [0x30, 0x46, 0x02, 0x21, 0x00] + r + [0x02, 0x21, 0x00] + s)
    }

    @Test("leading zero bytes are dropped (minimal INTEGER), then 0x00 only if the next byte's high bit is set")
    func leadingZeros() {
        let r = [0x00, 0x00, 0x7F] + [UInt8](repeating: 0x03, count: 29)
        let s = [0x00, 0x90] + [UInt8](repeating: 0x04, count: 30)
        let der = ES256Signature.der(fromRaw: r + s)
        #expect(der == [0x30, 0x42, 0x02, 0x1E] + r.dropFirst(2) + [0x02, 0x20, 0x00] + s.dropFirst(1))
    }

    @Test("an all-zero half becomes INTEGER 0 (02 01 00)")
    func zero() {
        let der = ES256Signature.der(fromRaw: [UInt8](repeating: 0, count: 32) + Self.s1)
        #expect(der == [0x30, 0x25, 0x02, 0x01, 0x00, 0x02, 0x20] + Self.s1)
    }

    @Test("only 64 bytes convert; DER, short, long and empty signatures are told apart")
    func shapes() throws {
        let der = try #require(ES256Signature.der(fromRaw: Self.raw(r: Self.r1, s: Self.s1)))
        #expect(ES256Signature.der(fromRaw: Array(der.prefix(63))) == nil)
        #expect(ES256Signature.looksLikeDER(der))
        #expect(!ES256Signature.looksLikeDER(Self.raw(r: Self.r1, s: Self.s1)))
        #expect(ES256Signature.shapeProblem(der) == .signatureIsDER(length: 70))
        #expect(ES256Signature.shapeProblem(Array(Self.r1 + Self.s1.prefix(31))) == .signatureTruncated(length: 63))
        #expect(ES256Signature.shapeProblem(Self.r1 + Self.s1 + [0]) == .signatureTooLong(length: 65))
        #expect(ES256Signature.shapeProblem([]) == .signatureEmpty)
        #expect(ES256Signature.shapeProblem(Self.r1 + Self.s1) == nil)
    }

    @Test("alg: ES256 only; none, HS*, RS256, lowercase es256 and absence are refused, each by name")
    func algorithms() {
        func status(_ alg: String?) -> JWSStepStatus? {
            JWSVerifier.verify(JWSVerificationInput(signingInput: [], signature: [], alg: alg, x5c: [], signedDate: nil))
                .status(.algorithm)
        }
        #expect(status("ES256") == .passed)
        #expect(status("none") == .failed(.algorithmNone))
        #expect(status("None") == .failed(.algorithmNone))
        #expect(status("HS512") == .failed(.algorithmSymmetric("HS512")))
        #expect(status("RS256") == .failed(.algorithmNotES256("RS256")))
        #expect(status("es256") == .failed(.algorithmNotES256("es256")))
        #expect(status(nil) == .failed(.algorithmMissing))
    }

    @Test("no x5c: the chain fails and every certificate step says why it did not run")
    func noCertificates() {
        let report = JWSVerifier.verify(JWSVerificationInput(signingInput: ArraySlice("a.b".utf8), signature: [],
                                                             alg: "ES256", x5c: [], signedDate: Date()))
        #expect(report.chainKind == .missing)
        #expect(report.status(.chain) == .failed(.x5cMissing))
        for step in [JWSStep.root, .leafMarker, .intermediateMarker, .validityAtSignedDate, .validityToday, .signature] {
            #expect(report.status(step) == .notChecked(.noCertificates), "\(step)")
        }
        #expect(report.firstFailure?.step == .chain)
        #expect(report.status(.revocation) == .notChecked(.revocationOffline))
    }

    @Test("every prefix of a certificate and of a signature is refused by reason, never a crash")
    func hostilePrefixes() throws {
        let pem = String(decoding: try Paths.sample("pki/test-ec-signer.pem"), as: UTF8.self)
        let leaf = [UInt8](try #require(Data(base64Encoded: pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined())))
        for cut in stride(from: 0, to: leaf.count, by: 7) {
            let report = JWSVerifier.verify(JWSVerificationInput(
                signingInput: ArraySlice("h.p".utf8), signature: Array(Self.r1.prefix(cut % 65)), alg: "ES256",
                x5c: [Array(leaf.prefix(cut)), leaf, leaf], signedDate: Date()))
            #expect(report.status(.chain) == .failed(.certificateUnreadable(index: 0)), "cut \(cut)")
            #expect(report.status(.signature) == .notChecked(.leafUnreadable), "cut \(cut)")
            #expect(report.status(.validityAtSignedDate) == .passed, "the two whole copies are judged, cut \(cut)")
        }
    }

    @Test("two certificates, an unreadable entry, a link whose signature fails")
    func chainStructure() throws {
        func der(_ name: String) throws -> [UInt8] {
            let pem = String(decoding: try Paths.sample("pki/\(name).pem"), as: UTF8.self)
            let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            return [UInt8](try #require(Data(base64Encoded: body)))
        }
        func chain(_ x5c: [[UInt8]]) -> JWSStepStatus? {
            JWSVerifier.verify(JWSVerificationInput(signingInput: [], signature: [], alg: "ES256", x5c: x5c,
                                                    signedDate: nil)).status(.chain)
        }
        let leaf = try der("test-ec-signer"), mid = try der("test-ec-intermediate"), root = try der("test-ec-root")
        #expect(chain([leaf, mid]) == .failed(.certificateCount(2)))
        #expect(chain([leaf, [0x30, 0x00], root]) == .failed(.certificateUnreadable(index: 1)))
        #expect(chain([leaf, mid, root]) == .passed)
        #expect(chain([leaf, root, mid]) == .failed(.wrongOrder(expected: [0, 2, 1])))
        // A self-signed certificate that did not issue the intermediate: the names do not link in any order.
        let otherRoot = try der("test-ec-xcode")
        guard case .failed(.issuerMismatch(child: 1, _, _))? = chain([leaf, mid, otherRoot]) else {
            Issue.record("expected an issuer mismatch at x5c[1]")
            return
        }
        // Names link but the leaf's certificate signature is damaged (one bit near its end).
        var forged = leaf
        forged[forged.count - 5] ^= 0x01
        #expect(chain([forged, mid, root]) == .failed(.linkSignatureInvalid(child: 0)))
    }
}
