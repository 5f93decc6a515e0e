import Foundation
import JWSKit
import Testing
import TestSupport

@Suite("StoreKit input classification")
struct ClassificationTests {
    let transaction = token(payload: #"{"transactionId":"1","bundleId":"b"}"#)
    let renewal = token(payload: #"{"autoRenewStatus":1}"#)

    @Test func compactTokens() {
        #expect(StoreKitInput.classify(transaction) == .token(.transaction))
        #expect(StoreKitInput.classify(Array("\n".utf8) + renewal + Array("\n".utf8)) == .token(.renewalInfo))
        #expect(StoreKitInput.classify(token(payload: #"{"receiptType":"Xcode"}"#)) == .token(.appTransaction))
        #expect(StoreKitInput.classify(token(payload: #"{"notificationType":"DID_RENEW"}"#)).summary
                == "App Store Server Notification V2 (DID_RENEW)")
    }

    @Test func historyResponseCountsTransactions() {
        let t = String(decoding: transaction, as: UTF8.self)
        let body = Array(#"{"revision":"x","signedTransactions":["\#(t)","\#(t)"],"hasMore":false}"#.utf8)
        guard case .body(let description, let tokens) = StoreKitInput.classify(body) else {
            Issue.record("not a body"); return
        }
        #expect(description == "App Store Server API transaction history (2 transactions)")
        #expect(tokens.map(\.path) == ["signedTransactions[0]", "signedTransactions[1]"])
        #expect(tokens[0].range == 39..<(39 + transaction.count))
        #expect(Array(body[tokens[0].range]) == transaction)
        #expect(tokens.allSatisfy { $0.kind == .transaction })
    }

    @Test func subscriptionStatusesAndNotificationBodies() {
        let t = String(decoding: transaction, as: UTF8.self), r = String(decoding: renewal, as: UTF8.self)
        let statuses = Array(#"{"data":[{"lastTransactions":[{"status":1,"signedTransactionInfo":"\#(t)","signedRenewalInfo":"\#(r)"}]}]}"#.utf8)
        guard case .body(let description, let tokens) = StoreKitInput.classify(statuses) else {
            Issue.record("not a body"); return
        }
        #expect(description == "App Store Server API subscription statuses (2 signed tokens)")
        #expect(tokens.map(\.path) == ["data[0].lastTransactions[0].signedTransactionInfo", "data[0].lastTransactions[0].signedRenewalInfo"])
        #expect(tokens.map(\.kind) == [.transaction, .renewalInfo])
        let notification = String(decoding: token(payload: #"{"notificationType":"TEST"}"#), as: UTF8.self)
        let body = Array(#"{"signedPayload": "\#(notification)"}"#.utf8)
        #expect(StoreKitInput.classify(body).summary == "notification body: App Store Server Notification V2 (TEST)")
    }

    @Test func legacyTransactionReceiptPlainAndBase64() {
        let plist = "{\n\t\"signature\" = \"AqLt\";\n\t\"purchase-info\" = \"ewoJ\";\n\t\"pod\" = \"100\";\n}"
        #expect(StoreKitInput.classify(Array(plist.utf8)) == .legacyTransactionReceipt)
        let encoded = Data(plist.utf8).base64EncodedString()
        #expect(StoreKitInput.classify(Array(encoded.utf8)) == .legacyTransactionReceipt)
        #expect(StoreKitInputKind.legacyTransactionReceipt.summary.contains("Transaction.jwsRepresentation"))
    }

    @Test func otherInputs() {
        #expect(StoreKitInput.classify(Array(#"{"a":1}"#.utf8))
                == .notStoreKit(reason: "JSON without signedPayload, signedTransactions or other signed… fields"))
        #expect(StoreKitInput.classify([0x30, 0x03, 0x02, 0x01, 0x00])
                == .notStoreKit(reason: "neither a compact JWS nor JSON carrying one"))
        #expect(StoreKitInput.classify([]) == .notStoreKit(reason: "the input is empty"))
    }
}

@Suite("docs/storekit2.md")
struct StoreKitDocsTests {
    @Test func fieldMapTableMatchesTheData() throws {
        let doc = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/storekit2.md"), encoding: .utf8)
        let begin = try #require(doc.range(of: "<!-- field-map:begin -->\n"))
        let end = try #require(doc.range(of: "\n<!-- field-map:end -->"))
        #expect(String(doc[begin.upperBound..<end.lowerBound]) == ReceiptFieldMap.markdownTable)
        #expect(ReceiptFieldMap.rows.contains { $0.receipt == "cancellation_date" && $0.jws.hasSuffix("revocationDate") })
    }
}
