import JWSKit
import Testing
import TestSupport

/// The headline fields (what was bought, when, for which app) against ../shared/corpus/jws/MANIFEST.md.
@Suite("StoreKit headline", .enabled(if: Paths.jwsCorpusAvailable))
struct HeadlineTests {
    func headline(_ name: String) throws -> [String] {
        try Corpus.document(name).payload.headline.map { "\($0.path)=\($0.value)" }
    }

    @Test func transactionLeadsWithTheProductAndItsDates() throws {
        #expect(try headline("transaction-sandbox-com.app.qysmat-2023-03-27.jws") == [
            "productId=com.app.qysmat.premium.child.individual.subscription",
            "type=Auto-Renewable Subscription (a subscription that renews until cancelled)",
            "transactionId=2000000302596403",
            "originalTransactionId=2000000302178785",
            // Dates are the ISO instant alone; the milliseconds stay in the tree and in `json`.
            "purchaseDate=2023-03-27T06:47:22.000Z",
            "expiresDate=2023-03-27T06:52:22.000Z",
            "quantity=1",
            "inAppOwnershipType=PURCHASED (the user bought it)",
            "bundleId=com.app.qysmat",
            "environment=Sandbox (the sandbox test environment)",
        ])
    }

    @Test func notificationHeadlineReadsItsDataMembers() throws {
        #expect(try headline("notification-production-com.nineton.taller-2024-10-17-TEST.jws") == [
            "notificationType=TEST (a test notification requested through the App Store Server API)",
            "notificationUUID=2e2a6ce0-ec9f-4037-b1bf-618af85527bd",
            "data.bundleId=com.nineton.taller",
            "data.appAppleId=6450284872",
            "data.environment=Production (the App Store)",
        ])
    }

    @Test func renewalAndAppTransaction() throws {
        #expect(try headline("renewal-sandbox-co.ringalarm-2023-05-23.jws") == [
            "productId=co.ringalarm.swtich.quarterly2",
            "autoRenewProductId=co.ringalarm.swtich.quarterly2",
            "autoRenewStatus=1 (automatic renewal is on)",
            "originalTransactionId=2000000335310644",
            "environment=Sandbox (the sandbox test environment)",
        ])
        let app = try headline("apptransaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws")
        #expect(app.first == "bundleId=com.example.naturelab.backyardbirds.example")
        #expect(app.contains("applicationVersion=1"))
        #expect(app.contains("originalApplicationVersion=1"))
        #expect(app.last == "receiptType=Xcode (StoreKit testing in Xcode (signed by a local certificate))")
    }

    @Test func signedDateIsNeverAHeadline() {
        for kind in StoreKitPayloadKind.allCases {
            #expect(!StoreKitHeadline.paths(of: kind).contains { $0.hasSuffix("signedDate") })
        }
    }
}
