import DocumentModel
import Foundation
import Testing
import TestSupport

/// Real inputs from the same app, as pairs (facts from ../shared/corpus/MANIFEST.md and jws/MANIFEST.md).
@Suite struct DiffCorpusTests {
    static let backyardReceipt = "xcode-com.example.naturelab.backyardbirds.example-2023-10-19-1iap.receipt"
    static let backyardTransaction = "transaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws"

    /// The Xcode receipt holds one purchase, pass.premium, transaction 0, bought 2023-10-19T01:45:36Z;
    /// the StoreKit 2 transaction from the same session says the same in milliseconds
    /// (1697679936049.7297): matched by transaction id, every mapped field agrees to the second.
    @Test(.enabled(if: Paths.corpusAvailable && Paths.jwsCorpusAvailable))
    func backyardBirdsReceiptAgainstItsTransaction() throws {
        let receipt = try DiffFixtures.open(Paths.receipts.appendingPathComponent(Self.backyardReceipt))
        let token = try DiffFixtures.open(Paths.jws.appendingPathComponent(Self.backyardTransaction))
        let diff = DocumentDiff.compare(receipt, token)
        #expect(diff.comparison == .receiptAndTransactions)
        #expect(diff.semantic.isEmpty)
        #expect(diff.isEquivalent)
        // The other way round is the same comparison.
        #expect(DocumentDiff.compare(token, receipt).isEquivalent)
    }

    /// Two Xcode receipts of different apps: every app-level attribute that differs, by type, and
    /// the one purchase matched by its transaction id (0 in both) with its changed fields.
    @Test(.enabled(if: Paths.corpusAvailable))
    func twoXcodeReceipts() throws {
        let a = try DiffFixtures.open(Paths.receipts.appendingPathComponent(Self.backyardReceipt))
        let b = try DiffFixtures.open(Paths.receipts.appendingPathComponent("xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt"))
        let diff = DocumentDiff.compare(a, b)
        #expect(diff.semantic.map(\.kind) == [.attributeChanged, .attributeChanged, .attributeChanged, .attributeChanged,
                                             .attributeChanged, .purchaseChanged, .signatureChanged])
        #expect(diff.semantic.prefix(5).map(\.subject) == ["bundle id (attribute 2)", "app version (attribute 3)",
                                                          "opaque value (attribute 4)", "SHA-1 hash (attribute 5)",
                                                          "receipt creation date (attribute 12)"])
        #expect(diff.semantic[0].a?.value == "com.example.naturelab.backyardbirds.example")
        #expect(diff.semantic[0].b?.value == "net.zachariadis.cyclemaps")
        let purchase = diff.semantic[5]
        #expect(purchase.key == "0")
        #expect(purchase.fields.map(\.subject) == ["product id (in-app 1702)", "purchase date (in-app 1704)",
                                                   "subscription expiration date (in-app 1708)", "introductory offer period (in-app 1719)"])
        #expect(purchase.fields[0].b?.value == "CYCLEMAPS_PREMIUM")
        #expect(diff.signatures?.sameCertificates == true)
    }
}
