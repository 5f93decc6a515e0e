import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit
@testable import X509Trust

@Suite("Validation of Apple-signed receipts") struct AppleSignedValidationTests {

    @Test("Apple-signed receipts: signature, chain to Apple Inc. Root, valid at creation, expired today",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: CorpusReceipt.appleSigned)
    func appleSigned(_ receipt: CorpusReceipt) throws {
        let bytes = try ValidationCorpus.receipt(receipt.file)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: receipt.creationDate, now: today)

        #expect(report.steps.map(\.id) == StepID.openSSL)
        #expect(status(report, .signature) == .passed)
        #expect(status(report, .chain) == .passed)
        #expect(status(report, .time) == .passed)
        #expect(status(report, .receiptSigner) == .passed)
        #expect(report.anchor == .appleIncRoot)
        #expect(report.anchorSuppliedByUser == false)
        #expect(report.anchorCertificate?.sha256Fingerprint == "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024")
        #expect(report.isAppStoreValid)

        #expect(report.certificates.count == 3)
        #expect(report.chain.count == 3)
        #expect(report.signer?.hasReceiptSignerOID == true)
        #expect(report.signer == report.certificates.first)
        #expect(report.certificates[1].hasWWDRIntermediateOID)
        #expect(report.certificates[2].isSelfSigned)
        #expect(report.digestAlgorithm == receipt.digest)
        #expect(report.signatureAlgorithm == "rsaEncryption")

        // Today every chain fails on an expired certificate.
        #expect(report.passesToday == false)
        let timeDetails = report.step(.time)?.details ?? []
        #expect(timeDetails.contains { $0.hasPrefix("at today's date: certificate has expired") }, "\(timeDetails)")

        // The signed content is the receipt payload, a DER SET.
        #expect(report.signedContent?.first == 0x31)
        #expect((report.signedContent?.count ?? 0) > 100)
    }

    @Test("The time step fails when judged at a date after the certificates expired",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func timeFailsLater() throws {
        let bytes = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let late = ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z")!
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: late, now: today)
        #expect(status(report, .chain) == .passed, "the chain ignores dates")
        guard case .failed(.invalidAtCreation(let date, let error))? = status(report, .time) else {
            Issue.record("time should fail: \(String(describing: report.step(.time)))")
            return
        }
        #expect(error.openSSL == "certificate has expired")
        #expect(date == "2024-01-01T00:00:00Z")
        #expect(!report.isAppStoreValid)
    }

    @Test("A missing creation date leaves the time step not checked, but today is still judged",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func noCreationDate() throws {
        let bytes = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: nil, now: today)
        #expect(status(report, .time) == .notChecked(.noCreationDate))
        #expect(report.passesToday == false)
        #expect(status(report, .chain) == .passed)
    }

    @Test("Certificate details of the MindNodePro signer",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func certificateInfo() throws {
        let bytes = try ValidationCorpus.receipt(CorpusReceipt.mindNodePro.file)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: CorpusReceipt.mindNodePro.creationDate, now: today)
        let leaf = try #require(report.signer)
        // RFC 2253 writes the last RDN first; this subject is encoded CN, OU, O, C.
        #expect(leaf.subject == "C=US,O=Apple Inc.,OU=Apple Worldwide Developer Relations,CN=Mac App Store and iTunes Store Receipt Signing")
        #expect(leaf.issuer == "CN=Apple Worldwide Developer Relations Certification Authority,OU=Apple Worldwide Developer Relations,O=Apple Inc.,C=US")
        #expect(leaf.commonName == "Mac App Store and iTunes Store Receipt Signing")
        #expect(leaf.serial == "0EEB5787E79E098D")
        #expect(leaf.signatureAlgorithm == "sha1WithRSAEncryption")
        #expect(leaf.notBefore == ISO8601DateFormatter().date(from: "2015-11-13T02:15:09Z"))
        #expect(leaf.notAfter == ISO8601DateFormatter().date(from: "2023-02-07T21:48:47Z"))
        #expect(leaf.isSelfSigned == false)
        #expect(leaf.hasWWDRIntermediateOID == false)
        #expect(leaf.sha256Fingerprint == Digest.hex(Digest.sha256(leaf.der)))
        #expect(CertificateInfo(der: leaf.der) == leaf)

        let root = report.certificates[2]
        #expect(root.subject == "CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US")
        #expect(root.isSelfSigned)
        #expect(TrustAnchors.kind(of: root) == .appleIncRoot)
    }
}
