import Foundation
import Testing
import TestSupport
@testable import ReceiptKit
import X509Trust

/// A large payload goes to `CMS_verify` in place, as detached content cut out of the container
/// (`CMSWithoutContent`): the report must be the one the whole container gives. Serialized with the
/// pooled suite: one case switches the process-wide pool on.
@Suite(.serialized) struct CMSWithoutContentTests {
    static let now = CMSWithoutCertificatesTests.now

    @Test func cutsTheEncapsulatedContentAndLocatesItsOctets() throws {
        let der = try Paths.bytes(Paths.samples.appendingPathComponent("typical.receipt"))
        let cut = try #require(CMSWithoutContent(der))
        let analysis = ReceiptAnalyzer.analyze(bytes: der, options: AnalysisOptions(validate: false))
        let chunks = try #require(analysis.container?.payloadChunks)
        #expect(chunks.count == 1)
        let payload = Array(analysis.tree.content(of: chunks[0]))
        #expect(payload.count > 1000)
        #expect(Array(der[cut.content]) == payload)
        #expect(cut.consumed == der.count)
        // Gone: the octets, their OCTET STRING and [0] headers; the four enclosing lengths shrink with them.
        let removed = der.count - cut.stripped.count
        #expect(removed >= payload.count + 4 && removed <= payload.count + 2 * 5 + 4 * 2)
        #expect(CMSWithoutContent(cut.stripped) == nil, "a container without eContent has nothing to cut")
        #expect(CMSWithoutContent(Array(der.dropLast())) == nil)
        var indefinite = der
        indefinite[1] = 0x80
        #expect(CMSWithoutContent(indefinite) == nil)
    }

    /// Every receipt of samples/ and the corpus, cut whenever it can be (threshold 0), alone and
    /// with the batch pool's certificate cut on top: the same steps, certificates, signer and
    /// signed content as the whole container.
    @Test func cutValidationGivesTheWholeContainersReport() throws {
        let roots = [try Paths.bytes(Paths.samples.appendingPathComponent("pki/test-root.cer"))]
        var cutCount = 0
        for url in try CMSWithoutCertificatesTests.receipts() {
            let der = try Paths.bytes(url)
            let name = url.lastPathComponent
            func validate(cutFrom: Int) -> SignatureReport {
                SignatureValidation.validate(pkcs7: der, payload: nil, creationDate: nil, now: Self.now, extraRoots: roots,
                                             contentCutFrom: cutFrom)
            }
            let whole = validate(cutFrom: .max)
            let cut = validate(cutFrom: 0)
            DecodedCertificatePool.shared.isEnabled = true
            let cutAndPooled = validate(cutFrom: 0)
            DecodedCertificatePool.shared.isEnabled = false
            for report in [cut, cutAndPooled] {
                #expect(report.steps == whole.steps, "\(name)")
                #expect(report.certificates.map(\.der) == whole.certificates.map(\.der), "\(name)")
                #expect(report.signer?.der == whole.signer?.der, "\(name)")
                #expect(report.signedContent == whole.signedContent, "\(name)")
            }
            if CMSWithoutContent(der) != nil { cutCount += 1 }
        }
        #expect(cutCount >= 5, "receipts cut: \(cutCount)")
    }

    /// A signature over other octets still fails when the content is cut out: one byte of the
    /// payload changed in place.
    @Test func aChangedPayloadStillFailsTheSignature() throws {
        var der = try Paths.bytes(Paths.samples.appendingPathComponent("typical.receipt"))
        let cut = try #require(CMSWithoutContent(der))
        der[cut.content.upperBound - 1] ^= 0x01
        let report = SignatureValidation.validate(pkcs7: der, payload: nil, creationDate: nil, now: Self.now, extraRoots: [],
                                                  contentCutFrom: 0)
        let whole = SignatureValidation.validate(pkcs7: der, payload: nil, creationDate: nil, now: Self.now, extraRoots: [],
                                                 contentCutFrom: .max)
        #expect(report.step(.signature)?.status.isFailed == true)
        #expect(report.steps == whole.steps)
    }
}
