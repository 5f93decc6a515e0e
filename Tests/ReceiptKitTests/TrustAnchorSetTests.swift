import Foundation
import Testing
import TestSupport
@testable import ReceiptKit
@testable import X509Trust

/// `TrustAnchorSet`: the user's root files read once, each certificate's facts (its self-signature
/// included) the same as reading the file on its own gives, the pinned G2 exception unchanged.
@Suite("Trust anchor set: supplied roots prepared once")
struct TrustAnchorSetTests {
    @Test("prepared facts are parseCertificates' facts: good, forged and not-self-signed roots, DER and PEM")
    func preparedFactsMatchAFreshRead() throws {
        let root = try Paths.sample("pki/test-ec-root.cer")
        let forged = DecodedCertificateTests.forged(root)
        let files: [[UInt8]] = [
            root, try Paths.sample("pki/test-ec-root.pem"), forged, DecodedCertificateTests.pem(forged),
            try Paths.sample("pki/test-ec-intermediate.pem"), try Paths.sample("pki/test-root.pem"),
        ]
        let anchors = TrustAnchorSet(files: files)
        #expect(!anchors.isPrepared)
        let prepared = anchors.prepared()
        #expect(anchors.isPrepared)
        let fresh = try files.flatMap { try CertificateInfo.parseCertificates(fileBytes: $0) }
        #expect(prepared.certificates.map(\.info) == fresh)
        #expect(prepared.certificates.map(\.info.isSelfSigned) == [true, true, false, false, false, true])
        #expect(prepared.firstUnreadable == nil)
        // The DER and PEM copies of one certificate are one object; six files, four certificates.
        #expect(prepared.certificates[0] === prepared.certificates[1])
        #expect(prepared.certificates[2] === prepared.certificates[3])
        #expect(prepared.decodeCount == 6)
        // Asked again: the same objects, nothing read again.
        #expect(zip(anchors.prepared().certificates, prepared.certificates).allSatisfy { $0 === $1 })
        #expect(anchors.files == files)
    }

    @Test("an unreadable file is named by its index; the readable ones are still prepared")
    func unreadableFiles() throws {
        let anchors = TrustAnchorSet(files: [try Paths.sample("pki/test-ec-root.cer"), [], Array("hello".utf8)])
        #expect(anchors.prepared().firstUnreadable == 1)
        // The reason is the file reader's own: the one a fresh read of that file throws.
        #expect(anchors.prepared().unreadable.map(\.index) == [1, 2])
        #expect(anchors.prepared().unreadable.map(\.reason) == [CertificateParseError(description: "the file is empty"),
                                                               try #require(Self.readError(Array("hello".utf8)))])
        #expect(anchors.prepared().certificates.count == 1)
        #expect(TrustAnchorSet().prepared().certificates.isEmpty)
        #expect(TrustAnchorSet().prepared().firstUnreadable == nil)
        #expect(TrustAnchorSet().prepared().unreadable.isEmpty)
    }

    /// What reading `bytes` on their own throws.
    static func readError(_ bytes: [UInt8]) -> CertificateParseError? {
        do { _ = try CertificateInfo.parseCertificates(fileBytes: bytes); return nil } catch { return error as? CertificateParseError }
    }

    @Test("a receipt's chain and verdict read the run's set: prepared by the first receipt, the same report as the files' bytes give")
    func receiptsReadThePreparedSet() throws {
        let receipt = try Paths.sample("typical.receipt")
        let root = try Paths.sample("pki/test-root.cer")
        let moment = try #require(ReceiptDate.parseUserDate("2024-03-05")).date
        let anchors = TrustAnchorSet(files: [root, []])
        #expect(!anchors.isPrepared)
        let viaSet = SignatureValidation.validate(pkcs7: receipt, creationDate: moment, now: moment, anchors: anchors)
        #expect(anchors.isPrepared)
        let viaBytes = SignatureValidation.validate(pkcs7: receipt, creationDate: moment, now: moment, extraRoots: [root, []])
        #expect(viaSet.steps == viaBytes.steps)
        #expect(viaSet.steps.first { $0.id == .chain }?.status == .passed)
        #expect(viaSet.steps.first { $0.id == .chain }?.details.contains("supplied root #2 ignored: the file is empty") == true)
        #expect(viaSet.anchorSuppliedByUser)

        // The analysis (chain step and verdict) prepares the options' set, not a copy of its files.
        var options = AnalysisOptions(validate: true, at: moment, now: moment)
        options.anchors = TrustAnchorSet(files: [root])
        let analysis = ReceiptAnalyzer.analyze(bytes: receipt, options: options)
        #expect(options.anchors.isPrepared)
        #expect(analysis.signature?.anchorSuppliedByUser == true)
    }

    @Test("a session cache that adopts the prepared roots hands them out for their bytes, without decoding")
    func cacheAdoptsPreparedRoots() throws {
        let root = try Paths.sample("pki/test-ec-root.cer")
        let prepared = TrustAnchorSet(files: [try Paths.sample("pki/test-ec-root.pem")]).prepared()
        let cache = CertificateCache()
        cache.adopt(prepared.certificates)
        #expect(cache.certificate(der: root) === prepared.certificates[0])
        #expect(cache.decodeCount == 0)
        // One already known keeps its object.
        let other = CertificateCache()
        let own = try #require(other.certificate(der: root))
        other.adopt(prepared.certificates)
        #expect(other.certificate(der: root) === own)
    }

    @Test("pinned roots from the corpus, supplied: self-signed; forged copies: not; G2 still not listed as known",
          .enabled(if: Paths.corpusAvailable))
    func pinnedRootsSupplied() throws {
        let files = try DecodedCertificateTests.pinnedFiles.map { try Paths.bytes(Paths.corpus.appendingPathComponent($0)) }
        let prepared = TrustAnchorSet(files: files + files.map(DecodedCertificateTests.forged)).prepared()
        #expect(prepared.certificates.map(\.info.isSelfSigned) == [true, true, true, false, false, false])
        #expect(prepared.certificates.map(\.info) == files.map { CertificateInfo(der: $0) } + files.map { CertificateInfo(der: DecodedCertificateTests.forged($0)) })
        #expect(TrustAnchors.pinned.filter { !TrustAnchors.knownSelfSigned.contains($0.sha256) }.map(\.kind) == [.appleRootCAG2])
    }
}
