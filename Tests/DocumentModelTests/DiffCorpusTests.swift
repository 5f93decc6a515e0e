import DocumentCore
import DocumentDiff
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

    // Same app, StoreKit 2: the Session (loki-messenger) sandbox documents of one subscription, chain
    // 2000001024993299 (jws/MANIFEST.md).
    static let didRenew = "notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws"
    static let resubscribe = "notification-sandbox-com.loki-project.loki-messenger-2025-10-02-SUBSCRIBED-RESUBSCRIBE.jws"
    static let renewalTransaction = "transaction-sandbox-com.loki-project.loki-messenger-2025-10-01-RENEWAL.jws"
    static let autoRenewOff = "renewal-sandbox-com.loki-project.loki-messenger-2025-10-02-autorenew-off.jws"
    static let backyardRenewal = "renewal-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws"

    static func jws(_ name: String) throws -> Document { try DiffFixtures.open(Paths.jws.appendingPathComponent(name)) }

    /// DID_RENEW carries transaction 2000001024998954, SUBSCRIBED/RESUBSCRIBE the later 2000001025686313
    /// of the same chain: paired by transactionId, the first is not in B and the second renews the
    /// chain; the notifications' own fields and the renewal infos they carry by path.
    @Test(.enabled(if: Paths.jwsCorpusAvailable))
    func lokiNotificationsPairTheirTransactionsByID() throws {
        let diff = DocumentDiff.compare(try Self.jws(Self.didRenew), try Self.jws(Self.resubscribe))
        #expect(diff.comparison == .jws)
        #expect(diff.semantic.map(\.kind) == [.fieldChanged, .fieldChanged, .fieldChanged, .fieldAdded, .fieldChanged,
                                             .fieldChanged, .fieldChanged, .signatureChanged, .signatureChanged,
                                             .transactionRemoved, .renewal])
        #expect(diff.semantic.map(\.subject) == [
            "notificationType", "notificationUUID", "signedDate", "subtype", "data.signedRenewalInfo.signedDate",
            "data.signedRenewalInfo.recentSubscriptionStartDate", "data.signedRenewalInfo.renewalDate",
            "data.signedRenewalInfo: signature", "signature", "com.getsession.org.pro_sub", "com.getsession.org.pro_sub",
        ])
        #expect(diff.semantic[0].a?.value == "DID_RENEW (the subscription renewed)")
        #expect(diff.semantic[0].b?.value == "SUBSCRIBED (the customer subscribed)")
        #expect(diff.semantic[1].a?.value == "1a7cdc3d-9360-49c3-ae37-0423e4c6e7c7")
        #expect(diff.semantic[1].b?.value == "9f9730f8-f3df-436a-b7e5-e85ef9c6afe4")
        #expect(diff.semantic[2].a?.value == "2025-10-01T07:08:38.835Z (1759302518835)")
        #expect(diff.semantic[2].b?.value == "2025-10-02T07:06:16.941Z (1759388776941)")
        #expect(diff.semantic[3].b?.value == "RESUBSCRIBE (subscribed again after expiry)")
        #expect(diff.semantic[9].key == "2000001024998954")
        #expect(diff.semantic[9].a?.value == "data.signedTransactionInfo")
        #expect(diff.semantic[10].key == "2000001025686313")
        #expect(diff.semantic[10].note == "continues subscription chain 2000001024993299")
        #expect(diff.signatures?.sameCertificates == true)
        #expect(!diff.isEquivalent)
    }

    /// The RENEWAL transaction is the very token DID_RENEW carries as data.signedTransactionInfo.
    @Test(.enabled(if: Paths.jwsCorpusAvailable))
    func lokiTransactionAgainstTheNotificationCarryingIt() throws {
        let diff = DocumentDiff.compare(try Self.jws(Self.renewalTransaction), try Self.jws(Self.didRenew))
        #expect(diff.comparison == .jws)
        #expect(diff.semantic.isEmpty)
        #expect(diff.structural.isEmpty)
        #expect(diff.isEquivalent)
    }

    /// Renewal info with automatic renewal turned off (signed 2025-10-02T07:07:35.473Z) against the
    /// renewal info SUBSCRIBED/RESUBSCRIBE carries, signed 79 seconds earlier with renewal on.
    @Test(.enabled(if: Paths.jwsCorpusAvailable))
    func lokiRenewalInfoAgainstTheNotificationCarryingAnEarlierOne() throws {
        let diff = DocumentDiff.compare(try Self.jws(Self.autoRenewOff), try Self.jws(Self.resubscribe))
        #expect(diff.semantic.map(\.kind) == [.fieldChanged, .fieldChanged, .fieldAdded, .fieldAdded, .signatureChanged])
        #expect(diff.semantic.map(\.subject) == ["autoRenewStatus", "signedDate", "renewalPrice", "currency", "signature"])
        #expect(diff.semantic[0].a?.value == "0 (automatic renewal is off)")
        #expect(diff.semantic[0].b?.value == "1 (automatic renewal is on)")
        #expect(diff.semantic[1].a?.value == "2025-10-02T07:07:35.473Z (1759388855473)")
        #expect(diff.semantic[1].b?.value == "2025-10-02T07:06:16.941Z (1759388776941)")
        #expect(diff.structural.map(\.subject) == ["payload: autoRenewStatus", "payload: signedDate", "payload: renewalPrice",
                                                   "payload: currency", "signature"])
    }

    /// The Backyard Birds receipt against its renewal info: renewal info carries no transaction, so
    /// the receipt's one purchase (pass.premium, transaction 0) has no counterpart.
    @Test(.enabled(if: Paths.corpusAvailable && Paths.jwsCorpusAvailable))
    func backyardBirdsReceiptAgainstItsRenewalInfo() throws {
        let receipt = try DiffFixtures.open(Paths.receipts.appendingPathComponent(Self.backyardReceipt))
        let diff = DocumentDiff.compare(receipt, try Self.jws(Self.backyardRenewal))
        #expect(diff.comparison == .receiptAndTransactions)
        #expect(diff.semantic.map(\.kind) == [.transactionRemoved])
        #expect(diff.semantic.first?.subject == "pass.premium")
        #expect(diff.semantic.first?.key == "0")
    }
}
