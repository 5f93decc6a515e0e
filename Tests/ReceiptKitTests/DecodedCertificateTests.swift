import Foundation
import Testing
import TestSupport
@testable import ReceiptKit
@testable import X509Trust

/// `DecodedCertificate` and `CertificateCache` (one decode per certificate per session), the pinned
/// roots' known self-signatures, and path checks that reuse the facts their certificates already have.
@Suite("Decoded certificates and the certificate cache")
struct DecodedCertificateTests {
    static let pinnedFiles = ["certs/AppleRootCA-G3.cer", "certs/AppleIncRootCertificate.cer", "certs/StoreKitTestCertificate.cer"]

    static func pem(_ der: [UInt8]) -> [UInt8] {
        Array("-----BEGIN CERTIFICATE-----\n\(Data(der).base64EncodedString(options: .lineLength64Characters))\n-----END CERTIFICATE-----\n".utf8)
    }

    static func forged(_ certificate: [UInt8]) -> [UInt8] {
        var copy = certificate
        copy[copy.count - 5] ^= 0x01  // inside the signature value
        return copy
    }

    @Test("the pinned roots that skip the self-signature check: each one's signature does verify with its own key",
          .enabled(if: Paths.corpusAvailable))
    func knownSelfSignedRootsVerify() throws {
        var fingerprints: Set<String> = []
        for file in Self.pinnedFiles {
            let der = try Paths.bytes(Paths.corpus.appendingPathComponent(file))
            let root = try #require(DecodedCertificate(der: der))
            #expect(root.isSigned(by: root), "\(file)")  // the check the pin stands in for
            #expect(root.info.subject == root.info.issuer, "\(file)")
            #expect(root.info.isSelfSigned, "\(file)")
            fingerprints.insert(root.info.sha256Fingerprint)
        }
        #expect(fingerprints == TrustAnchors.knownSelfSigned)
        #expect(TrustAnchors.pinned.filter { !TrustAnchors.knownSelfSigned.contains($0.sha256) }.map(\.kind) == [.appleRootCAG2])
    }

    @Test("a pinned root with one signature bit flipped is no longer pinned, and is checked: not self-signed",
          .enabled(if: Paths.corpusAvailable))
    func forgedPinnedRootIsChecked() throws {
        for file in Self.pinnedFiles {
            let forged = Self.forged(try Paths.bytes(Paths.corpus.appendingPathComponent(file)))
            let info = try #require(CertificateInfo(der: forged))
            #expect(TrustAnchors.kind(of: info) == nil, "\(file)")
            #expect(!info.isSelfSigned, "\(file)")
        }
    }

    @Test("the cache decodes a DER once, remembers an unreadable one, and hands out the same object")
    func cacheDecodesOnce() throws {
        let root = try Paths.sample("pki/test-ec-root.cer")
        let cache = CertificateCache()
        let first = try #require(cache.certificate(der: root))
        #expect(cache.certificate(der: root) === first)
        #expect(cache.decodeCount == 1)
        #expect(cache.certificate(der: [0x30, 0x00]) == nil)
        #expect(cache.certificate(der: [0x30, 0x00]) == nil)
        #expect(cache.decodeCount == 2)
        // A DER file with those bytes is that certificate, not decoded again; a PEM file is read, then shared.
        #expect(try cache.certificates(fileBytes: root).map { $0 === first } == [true])
        #expect(cache.decodeCount == 2)
        #expect(try cache.certificates(fileBytes: Self.pem(root)).map { $0 === first } == [true])
        #expect(cache.decodeCount == 3)
        #expect(first.info == CertificateInfo(der: root))
    }

    @Test("the cache reads root files as parseCertificates does: the same certificates and the same errors")
    func cacheReadsFilesLikeParseCertificates() throws {
        let files: [[UInt8]] = [
            try Paths.sample("pki/test-ec-root.cer"), try Paths.sample("pki/test-ec-root.pem"),
            try Paths.sample("pki/test-ec-signer.pem") + (try Paths.sample("pki/test-ec-intermediate.pem")),
            [], Array("hello".utf8), Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8),
            try Paths.sample("pki/test-ec-root.cer") + [0x00],
        ]
        for (i, file) in files.enumerated() {
            let expected = Result { try CertificateInfo.parseCertificates(fileBytes: file) }
            let cached = Result { try CertificateCache().certificates(fileBytes: file).map(\.info) }
            switch (expected, cached) {
            case (.success(let a), .success(let b)): #expect(a == b, "file \(i)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "file \(i)")
            default: Issue.record("file \(i): \(expected) but the cache gave \(cached)")
            }
        }
    }

    @Test("a path check reports the very facts its certificates were decoded with")
    func pathCheckReusesFacts() throws {
        func der(_ name: String) throws -> [UInt8] {
            try #require(CertificateInfo.parseCertificates(fileBytes: try Paths.sample("pki/\(name).pem")).first).der
        }
        let cache = CertificateCache()
        let chain = try ["test-ec-signer", "test-ec-intermediate", "test-ec-root"].map { try #require(cache.certificate(der: try der($0))) }
        let outcome = X509PathVerification.verify(leaf: chain[0], untrusted: Array(chain.dropFirst()), anchors: [chain[2]],
                                                  at: nil, partialChain: false)
        #expect(outcome.ok)
        #expect(outcome.chain == chain.map(\.info))
        #expect(outcome.chain == chain.map { CertificateInfo(der: $0.info.der) })
        // Judged in 2050, after every notAfter (2045): the certificate OpenSSL names carries the decoded facts.
        let late = X509PathVerification.verify(leaf: chain[0], untrusted: Array(chain.dropFirst()), anchors: [chain[2]],
                                               at: Date(timeIntervalSince1970: 2_524_608_000), partialChain: false)
        #expect(!late.ok)
        #expect(late.error == "certificate has expired")
        #expect(late.errorCertificate == chain[late.depth].info)
    }
}
