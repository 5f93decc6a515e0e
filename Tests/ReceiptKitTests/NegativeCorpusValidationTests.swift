import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit

@Suite("Validation of the negative corpus") struct NegativeCorpusValidationTests {

    @Test("An Apple-signed PKCS#7 that is not a receipt fails receipt-signer, naming the OID",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func notAReceipt() throws {
        let bytes = try ValidationCorpus.bytes(ValidationCorpus.validationRecord)
        let creation = ISO8601DateFormatter().date(from: "2019-06-01T00:00:00Z")!

        // It does not embed its root: without --root the chain cannot reach an anchor.
        let bare = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today)
        #expect(status(bare, .signature) == .passed)
        #expect(bare.certificates.count == 2)
        #expect(status(bare, .chain)?.isFailed == true)
        #expect(bare.step(.chain)?.details.contains("the PKCS#7 structure does not embed a root certificate; it has to be supplied") == true)
        guard case .failed(.signerLacksReceiptOID(let signer))? = status(bare, .receiptSigner) else {
            Issue.record("receipt-signer should fail"); return
        }
        #expect(signer == bare.signer?.label)

        // With Apple Inc. Root supplied it chains to Apple Inc. Root, and is still not a receipt.
        let root = try ValidationCorpus.bytes(ValidationCorpus.appleRootPath)
        let anchored = SignatureValidation.validate(pkcs7: bytes, creationDate: creation, now: today, extraRoots: [root])
        #expect(status(anchored, .chain) == .passed)
        #expect(anchored.anchor == .appleIncRoot)
        #expect(anchored.anchorSuppliedByUser)
        #expect(status(anchored, .time) == .passed)
        #expect(status(anchored, .receiptSigner)?.isFailed == true)
        #expect(status(anchored, .receiptSigner) == status(bare, .receiptSigner))
        #expect(!anchored.isAppStoreValid)
    }

    @Test("A truncated receipt gives a clean not-checked report",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage))
    func truncated() throws {
        let bytes = try ValidationCorpus.bytes(ValidationCorpus.truncated)
        #expect(bytes.count == 456)
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: nil, now: today)
        #expect(report.steps.map(\.id) == StepID.openSSL)
        #expect(status(report, .signature) == .notChecked(.notPKCS7(inputTruncated: true)))
        #expect(report.step(.signature)?.details.first?.contains("only 452 follow") == true)
        for id in [StepID.chain, .time, .receiptSigner] {
            #expect(status(report, id) == .notChecked(.noSignedData(.notPKCS7(inputTruncated: true))))
        }
        #expect(report.certificates.isEmpty)
        #expect(report.passesToday == nil)
        #expect(!report.isAppStoreValid)
    }
}
