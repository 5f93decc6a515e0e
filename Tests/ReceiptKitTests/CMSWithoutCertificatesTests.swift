import Foundation
import Testing
import TestSupport
@testable import ReceiptKit
import X509Trust

/// In a batch run a receipt's PKCS#7 goes to OpenSSL without its certificates, which come decoded
/// from `DecodedCertificatePool` (`CMSWithoutCertificates`): the report must be the one the whole
/// container gives. Serialized: it switches the process-wide pool on and off.
@Suite(.serialized) struct CMSWithoutCertificatesTests {
    static let now = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01T12:00:00Z

    /// Every DER receipt in samples/ and the corpus (negative ones included).
    static func receipts() throws -> [URL] {
        var folders = [Paths.samples]
        if Paths.corpusAvailable { folders += [Paths.receipts, Paths.receipts.appendingPathComponent("negative")] }
        return try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
                .filter { ["receipt", "der", "p7"].contains($0.pathExtension) }
        }.sorted { $0.path < $1.path }
    }

    @Test func cutsTheCertificateSetAndKeepsTheRest() throws {
        let der = try Paths.bytes(Paths.samples.appendingPathComponent("typical.receipt"))
        let cut = try #require(CMSWithoutCertificates(der))
        let report = SignatureValidation.validate(pkcs7: der, creationDate: nil, now: Self.now)
        #expect(cut.certificates == report.certificates.map(\.der))
        #expect(cut.certificates.count == 3)
        #expect(cut.consumed == der.count)
        // Gone: the certificates and the [0] set's header; the three enclosing lengths shrink with them.
        let removed = der.count - cut.stripped.count
        let certificateBytes = cut.certificates.map(\.count).reduce(0, +)
        #expect(removed >= certificateBytes + 2 && removed <= certificateBytes + 4 + 3 * 2)
    }

    @Test func leavesIndefiniteLengthsAndTruncationToTheWholeContainer() throws {
        let der = try Paths.bytes(Paths.samples.appendingPathComponent("typical.receipt"))
        #expect(CMSWithoutCertificates(Array(der.dropLast())) == nil)
        var indefinite = der
        indefinite[1] = 0x80  // the outer SEQUENCE's length made indefinite
        #expect(CMSWithoutCertificates(indefinite) == nil)
        #expect(CMSWithoutCertificates([]) == nil)
    }

    @Test func pooledValidationGivesTheWholeContainersReport() throws {
        let roots = [try Paths.bytes(Paths.samples.appendingPathComponent("pki/test-root.cer"))]
        var compared = 0
        for url in try Self.receipts() {
            let der = try Paths.bytes(url)
            let whole = SignatureValidation.validate(pkcs7: der, creationDate: nil, now: Self.now, extraRoots: roots)
            DecodedCertificatePool.shared.isEnabled = true
            let first = SignatureValidation.validate(pkcs7: der, creationDate: nil, now: Self.now, extraRoots: roots)
            let again = SignatureValidation.validate(pkcs7: der, creationDate: nil, now: Self.now, extraRoots: roots)
            DecodedCertificatePool.shared.isEnabled = false
            for pooled in [first, again] {
                #expect(pooled.steps == whole.steps, "\(url.lastPathComponent)")
                #expect(pooled.certificates.map(\.der) == whole.certificates.map(\.der), "\(url.lastPathComponent)")
                #expect(pooled.signer?.der == whole.signer?.der && pooled.signedContent == whole.signedContent)
            }
            if CMSWithoutCertificates(der) != nil { compared += 1 }
        }
        #expect(compared >= 5, "receipts that went the pooled way: \(compared)")
    }
}
