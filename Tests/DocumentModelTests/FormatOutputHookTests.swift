import ASN1Lenient
import DocumentCore
import DocumentDiff
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

    /// The basis is the kind's side of diff, from its folder (`ReceiptSide`, `StoreKitSide`); none: the structure only.
    @Test("what diff compares: a receipt's fields, a token's fields, else the structure", arguments: [
        ("typical.receipt", "ReceiptSide"),
        ("jws/transaction.jws", "StoreKitSide"),
        ("jws/transaction-history.json", "StoreKitSide"),
        ("developer/promotional-offer.jws", "StoreKitSide"),
        ("pki/test-ec-root.cer", nil),
        ("external/external-purchase-token.txt", nil),
    ] as [(String, String?)])
    func diffBasis(name: String, basis: String?) throws {
        let document = try Self.open(name)
        #expect(document.diffBasis.map { "\(type(of: $0))" } == basis)
    }

    @Test("a developer key applies to developer-signed tokens only; the others' refusal says what they are checked with", arguments: [
        ("developer/promotional-offer.jws", nil),
        ("developer/server-api-token.jws", nil),
        ("jws/notification.jws", "--key does not apply to an App Store Server Notification V2: DID_RENEW (no subtype): its signature is checked against its x5c chain to Apple, not a developer key"),
        ("jws/transaction-history.json", "--key does not apply to a transaction history response: 2 transactions: its signature is checked against its x5c chain to Apple, not a developer key"),
        ("typical.receipt", "--key does not apply to a PKCS#7 App Store receipt: it is not a developer-signed JWS (promotional offer, introductory-offer eligibility, Advanced Commerce request, App Store Server API token)"),
        ("external/external-purchase-token.txt", "--key does not apply to an external purchase token (base64url JSON, unsigned): it is not signed, so there is nothing to verify"),
    ] as [(String, String?)])
    func developerKeyRefusal(name: String, refusal: String?) throws {
        let document = try Self.open(name)
        #expect(document.refusal(of: [.key])?.message == refusal)
        #expect(OptionTable.use(.key, kind: document.kind).applies == (refusal == nil))
    }

    @Test("the first refused option in table order is named; options the kind uses are not")
    func refusalOrder() throws {
        let receipt = try Self.open("typical.receipt")
        #expect(receipt.refusal(of: [.deviceID, .bundleID, .at, .root]) == nil)
        let refusal = try #require(receipt.refusal(of: [.deviceID, .keyID, .key]))
        #expect(refusal.option == .key && refusal.kind == .receipt)
        let token = try Self.open("jws/transaction.jws")
        #expect(token.refusal(of: [.deviceID, .at])?.message == "--device-id does not apply to a StoreKit 2 transaction: it carries no device hash")
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
