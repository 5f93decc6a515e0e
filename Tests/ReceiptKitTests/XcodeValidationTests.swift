import Foundation
import DocumentCore
import Testing
import TestSupport
@testable import ReceiptKit
@testable import X509Trust

@Suite("Validation of Xcode StoreKit testing receipts") struct XcodeValidationTests {

    @Test("Xcode receipts (BER) verify against the StoreKit Testing certificate and are labelled as such",
          .enabled(if: ValidationCorpus.available, ValidationCorpus.missingMessage),
          arguments: CorpusReceipt.xcode)
    func xcode(_ receipt: CorpusReceipt) throws {
        let bytes = try ValidationCorpus.receipt(receipt.file)
        #expect(bytes[1] == 0x80, "outer ContentInfo uses an indefinite length")
        let report = SignatureValidation.validate(pkcs7: bytes, creationDate: receipt.creationDate, now: today)

        #expect(status(report, .signature) == .passed)
        #expect(status(report, .chain) == .passed)
        #expect(report.anchor == .xcodeStoreKitTesting)
        #expect(report.step(.chain)?.details.contains(TrustAnchors.xcodeTestingNote) == true)
        #expect(TrustAnchors.xcodeTestingNote == "signed by Xcode StoreKit Testing — local testing only, not the App Store")
        #expect(status(report, .time) == .passed)
        #expect(report.passesToday == true)
        #expect(status(report, .receiptSigner) == .notChecked(.xcodeSignerHasNoReceiptOID))
        #expect(!report.isAppStoreValid)

        #expect(report.certificates.count == 1)
        #expect(report.certificates[0].isSelfSigned)
        #expect(report.certificates[0].sha256Fingerprint == "FF0BA36E721D2DB741D2AA11E6112EF78BF7131B46C7F035B00891D045C864FE")
        #expect(report.digestAlgorithm == receipt.digest)
        #expect(report.signedContent?.first == 0x31)
    }
}
