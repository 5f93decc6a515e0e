import ASN1Lenient
import DocumentModel
import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

/// The decisions `verify` and `diff` used to take by asking which kind a document is, now each
/// format's answer (`DocumentOutputs.diffBasis`, `developerKeyUse`, `checkExpectations`).
@Suite struct FormatOutputHookTests {
    static func open(_ name: String) throws -> Document {
        let input = try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path)
        return Document.open(input, options: AnalysisOptions(), reading: .always)
    }

    @Test("what diff compares: a receipt's fields, a token's fields, else the structure", arguments: [
        ("typical.receipt", DiffBasis.receipt),
        ("jws/transaction.jws", .storeKitTokens),
        ("jws/transaction-history.json", .storeKitTokens),
        ("developer/promotional-offer.jws", .storeKitTokens),
        ("pki/test-ec-root.cer", .structure),
        ("external/external-purchase-token.txt", .structure),
    ])
    func diffBasis(name: String, basis: DiffBasis) throws {
        let document = try Self.open(name)
        #expect(document.format.diffBasis(document) == basis)
    }

    @Test("a developer key checks developer-signed tokens only; other tokens say what they are checked with", arguments: [
        ("developer/promotional-offer.jws", DeveloperKeyUse.checksTokens),
        ("developer/server-api-token.jws", .checksTokens),
        ("jws/notification.jws", .notApplicable(signedBy: .x5cChainToApple)),
        ("jws/transaction-history.json", .notApplicable(signedBy: .x5cChainToApple)),
        ("typical.receipt", .notApplicable(signedBy: nil)),
        ("external/external-purchase-token.txt", .notApplicable(signedBy: nil)),
    ])
    func developerKeyUse(name: String, use: DeveloperKeyUse) throws {
        let document = try Self.open(name)
        #expect(document.format.developerKeyUse(document) == use)
    }

    @Test("a key id given for a receipt is refused first in the verdict, in words naming what the input is")
    func keyRefusedForAReceipt() throws {
        let report = VerificationReport(verifying: try Self.open("typical.receipt"), now: Date(), jws: JWSOptions(keyID: "TESTKEY001"))
        #expect(!report.verdict.valid)
        let first = try #require(report.verdict.reasons.first)
        #expect(first.code == .keyNotApplicable && first.step == nil)
        #expect(first.message == "a developer key applies to developer-signed JWS only (promotional offer, introductory-offer eligibility, "
                + "Advanced Commerce request, App Store Server API token); this input is a PKCS#7 App Store receipt")
    }

    @Test("an external purchase token's fields are compared with the expectations given; a receipt adds no step")
    func expectationsOfTheFormat() throws {
        let token = try Self.open("external/external-purchase-token.txt")
        var report = token.format.verification(token, now: Date(), words: .plain)
        #expect(report.steps.isEmpty)
        token.format.checkExpectations(&report, of: token, bundleID: "com.example.other", jws: JWSOptions(expectedEnvironment: "Sandbox"))
        #expect(report.steps.map(\.id) == ["bundle-id", "environment"])
        #expect(report.steps.map(\.status) == [.failed, .failed])
        let receipt = try Self.open("typical.receipt")
        var receiptReport = receipt.format.verification(receipt, now: Date(), words: .plain)
        let before = receiptReport.steps
        receipt.format.checkExpectations(&receiptReport, of: receipt, bundleID: "com.example.other", jws: JWSOptions())
        #expect(receiptReport.steps == before)
    }
}
