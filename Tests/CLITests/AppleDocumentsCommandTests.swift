import Foundation
import Testing
import TestSupport

/// Issue 31's leftovers through the real binary: the Retention Messaging request named on its
/// token line, `--app-apple-id` compared only in Production (as Apple's verifyAndDecodeRealtimeRequest),
/// the flag-only V1 offer signature, an undelivered notification on the timeline, and diff of the
/// new kinds field by field. Exact output.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct AppleDocumentsCommandTests {
    static let root = ["--root", "samples/pki/test-ec-root.cer"]
    static let key = "samples/developer/SubscriptionKey_TESTKEY001.p8"
    static let signature = "MEQCICowfAQ+Rp02O3pB/fAZvIoezQ8NjxfX0VlKGMQGEtlEAiAH5hfXOB83pcysayAE6mtxHx045EWLZmWstw8ga4LTlg=="

    /// The V1 options of samples/apple/offer-signature-v1.json, with `changes` applied.
    static func v1(_ changes: [String: String?] = [:]) -> [String] {
        var options: [(String, String?)] = [("--offer-signature", signature), ("--key", key), ("--bundle-id", "com.example.receiptexplorer"),
                                            ("--product-id", "com.example.receiptexplorer.monthly"), ("--offer-id", "TEST_WINBACK_50"),
                                            ("--app-account-token", "0f62404b-59ad-50fe-8c82-b38e4a66e5a0"),
                                            ("--nonce", "7adedc60-a176-5a89-ad4d-7c7969246f3a"), ("--timestamp", "1709294400000")]
        for (flag, value) in changes {
            if let i = options.firstIndex(where: { $0.0 == flag }) { options[i].1 = value } else { options.append((flag, value)) }
        }
        return ["verify"] + options.flatMap { flag, value in value.map { [flag, $0] } ?? [] }
    }

    // MARK: - the request's label (item 2)

    @Test func requestTokenIsNamedInDumpAndExplain() throws {
        let dump = try Binary.run(["dump", "samples/apple/retention-request.json"])
        #expect(dump.stdout.split(separator: "\n")[1] == "signedPayload: token Retention Messaging real-time request, 4,058 characters  file bytes 22-4079 (layer 1)")
        let explain = try Binary.run(["explain", "samples/apple/retention-request.json"])
        #expect(explain.stdout.split(separator: "\n")[1] == "token at signedPayload: Retention Messaging real-time request, 4,058 characters, ES256, 3 certificates")
        let json = try Binary.run(["json", "samples/apple/retention-request.json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let token = try #require((doc["tokens"] as? [[String: Any]])?.first)
        #expect(token["label"] as? String == "Retention Messaging real-time request" && token["type"] as? String == "unknown")
        for output in [dump.stdout, explain.stdout, json.stdout] { #expect(!output.contains("unrecognised")) }
        // Other tokens keep their JSON as it was: no label beside a StoreKit type.
        let transaction = try Binary.run(["json", "samples/jws/transaction.jws"])
        #expect(!transaction.stdout.contains("\"label\""))
    }

    // MARK: - --app-apple-id on a real-time request (item 3)

    @Test func appAppleIDIsComparedOnlyInProduction() throws {
        let sandbox = try Binary.run(["verify", "samples/apple/retention-request.json", "--app-apple-id", "999"] + Self.root)
        #expect(sandbox.status == 0)
        #expect(sandbox.stdout.contains("\n  i App Apple ID: not compared: the environment is Sandbox, and Apple's verifier checks appAppleId only in Production (for information: it does not decide the verdict)\n"), "\(sandbox.stdout)")
        #expect(sandbox.stdout.contains("\nVerdict: VALID — valid, anchored at a root you supplied\n"))
        let production = try Binary.run(["verify", "samples/apple/retention-request.json", "--app-apple-id", "999", "--environment", "Production"] + Self.root)
        #expect(production.status == 1)
        #expect(production.stdout.contains("""

              ✗ App Apple ID: expected 999, the payload says 1450000001
                  Apple's SignedDataVerifier would return INVALID_APP_IDENTIFIER
                  payload appAppleId: offset 3737, 14 bytes

            """), "\(production.stdout)")
        let quiet = try Binary.run(["verify", "--quiet", "samples/apple/retention-request.json", "--app-apple-id", "999"] + Self.root)
        #expect(quiet.stdout == "VALID — valid, anchored at a root you supplied\n")
        let json = try VerifyExpectationTests.json(["samples/apple/retention-request.json", "--app-apple-id", "999"] + Self.root)
        let step = try #require(VerifyExpectationTests.step(json.doc, "app-apple-id"))
        #expect(step["status"] as? String == "info" && step["reason_code"] as? String == "compared-only-in-production")
        #expect(step["decides"] as? Bool == false && step["apple_status"] == nil)
    }

    // MARK: - the flag-only V1 form (item 4)

    @Test func v1FromOptionsValid() throws {
        let r = try Binary.run(Self.v1())
        #expect(r.status == Self.v1ValidStatus && r.status == 0)
        #expect(r.stdout == Self.v1Valid)
    }

    @Test func v1FromOptionsWrongNonceShowsTheSignedString() throws {
        let r = try Binary.run(Self.v1(["--nonce": "00000000-a176-5a89-ad4d-7c7969246f3a"]))
        #expect(r.status == 1)
        #expect(r.stdout == Self.v1WrongNonce)
        #expect(r.stdout.contains("      ⟦com.example.receiptexplorer⟧<U+2063>⟦TESTKEY001⟧<U+2063>⟦com.example.receiptexplorer.monthly⟧<U+2063>⟦TEST_WINBACK_50⟧<U+2063>⟦0f62404b-59ad-50fe-8c82-b38e4a66e5a0⟧<U+2063>⟦00000000-a176-5a89-ad4d-7c7969246f3a⟧<U+2063>⟦1709294400000⟧\n"))
    }

    @Test func v1FromOptionsComparesUUIDsLowercase() throws {
        let upper = try Binary.run(Self.v1(["--nonce": "7ADEDC60-A176-5A89-AD4D-7C7969246F3A", "--app-account-token": "0F62404B-59AD-50FE-8C82-B38E4A66E5A0"]) + ["--quiet"])
        #expect(upper.status == 0, "\(upper.stdout)")
        #expect(upper.stdout == "VALID — signed by the developer key you gave (private key (.p8), SHA-256 AD0303755A700493BBDF4F4F3F400BB51CDCFF609E4D96BC34C0BD438CF347FA)\n")
    }

    @Test func v1FromOptionsTheSameAsFromTheFile() throws {
        let file = try Binary.run(["verify", "--format", "json", "samples/apple/offer-signature-v1.json", "--key", Self.key, "--bundle-id", "com.example.receiptexplorer"])
        let options = try Binary.run(Self.v1() + ["--format", "json"])
        func steps(_ text: String) throws -> [[String: String]] {
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            return ((doc["steps"] as? [[String: Any]]) ?? []).map { ["id": $0["id"] as? String ?? "", "status": $0["status"] as? String ?? ""] }
        }
        #expect(try steps(file.stdout) == [["id": "offer-signature-v1", "status": "passed"]])
        #expect(try steps(options.stdout) == steps(file.stdout))
    }

    @Test func v1FromOptionsRefusals() throws {
        let noBundle = try Binary.run(Self.v1(["--bundle-id": nil]))
        #expect(noBundle.status == 2 && noBundle.stdout.isEmpty)
        #expect(noBundle.stderr == "receipt-explorer: --offer-signature needs --bundle-id: each is a signed part of a V1 signature (the bundle id the first, and nothing else carries it)\n")
        let root = try Binary.run(Self.v1() + ["--root", "samples/pki/test-ec-root.cer"])
        #expect(root.status == 2)
        #expect(root.stderr == "receipt-explorer: --root does not apply to a promotional offer signature (V1: ECDSA over fields joined by U+2063): it carries no certificate chain: its signature is checked with --key\n")
        let withFile = try Binary.run(["verify", "samples/jws/transaction.jws", "--nonce", "7adedc60-a176-5a89-ad4d-7c7969246f3a"])
        #expect(withFile.status == 2)
        #expect(withFile.stderr == "receipt-explorer: --nonce does not apply to a StoreKit 2 transaction: the V1 offer fields are given as options without FILE\n")
        let timestamp = try Binary.run(Self.v1(["--timestamp": "soon"]))
        #expect(timestamp.status == 2 && timestamp.stderr == "receipt-explorer: --timestamp: 'soon' is not milliseconds since 1970 (digits)\n")
        let noKeyID = try Binary.run(Self.v1(["--key": nil]))
        #expect(noKeyID.status == 2)
        #expect(noKeyID.stderr == "receipt-explorer: --offer-signature needs the key id, the second signed part: --key-id, or a key file named SubscriptionKey_<KID>.p8\n")
    }

    // MARK: - timeline (items 6, 7)

    @Test func timelineOrdersAResponseAndANotificationHistoryAndMarksTheUndelivered() throws {
        let r = try Binary.run(["timeline", "samples/apple/refund-history.json", "samples/apple/notification-history.json"])
        #expect(r.status == Self.timelineStatus && r.status == 0)
        #expect(r.stdout == Self.timeline)
        let json = try Binary.run(["timeline", "--format", "json", "samples/apple/refund-history.json", "samples/apple/notification-history.json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let events = try #require((doc["groups"] as? [[String: Any]])?.first?["events"] as? [[String: Any]])
        #expect(events.map { $0["kind"] as? String ?? "" } == ["renewal", "renewal", "renewal", "refund", "refund", "renewal-status"])
        #expect(events.compactMap { $0["not_delivered"] as? String } == ["last attempt UNSUCCESSFUL_HTTP_RESPONSE_CODE (2 attempts)"])
        #expect(events.last?["date"] as? String == "2024-03-01T12:00:00.002Z")
    }

    // MARK: - diff (item 7)

    @Test func diffOfV1SignaturesNamesTheSignedPart() throws {
        let r = try Binary.run(["diff", "samples/apple/offer-signature-v1.json", "samples/apple/offer-signature-v1-wrong-product.json"])
        #expect(r.status == 1)
        #expect(r.stdout == Self.diffV1)
    }

    @Test func diffOfRetentionRepliesField() throws {
        let r = try Binary.run(["diff", "samples/apple/retention-promotional-offer-v1.json", "samples/apple/retention-promotional-offer-v2.json"])
        #expect(r.status == 1)
        #expect(r.stdout == Self.diffReplies)
    }

    @Test func diffOfServerAPIResponses() throws {
        let r = try Binary.run(["diff", "samples/apple/refund-history.json", "samples/apple/order-lookup.json"])
        #expect(r.status == Self.diffResponsesStatus)
        #expect(r.stdout == Self.diffResponses)
    }

    // MARK: - exact outputs (made by the binary, each read line by line when recorded)

    static let v1ValidStatus: Int32 = 0
    static let v1Valid = #"""
receipt-explorer verify: --offer-signature: the options' fields as one JSON object, 386 bytes; a promotional offer signature (V1: ECDSA over fields joined by U+2063)

  kind  a promotional offer signature (V1: ECDSA over fields joined by U+2063)

Verification
  ✓ promotional offer signature (V1)

Verdict: VALID — signed by the developer key you gave (private key (.p8), SHA-256 AD0303755A700493BBDF4F4F3F400BB51CDCFF609E4D96BC34C0BD438CF347FA)
  • signed by your In-App Purchase key, not by Apple: Apple checks it when the app or your server uses it

"""#

    static let v1WrongNonceStatus: Int32 = 1
    static let v1WrongNonce = #"""
receipt-explorer verify: --offer-signature: the options' fields as one JSON object, 386 bytes; a promotional offer signature (V1: ECDSA over fields joined by U+2063)

  kind  a promotional offer signature (V1: ECDSA over fields joined by U+2063)

Verification
  ✗ promotional offer signature (V1): the signature does not match the string below with this key: one of its parts differs from what was signed, or another key signed it
      signed string (7 parts joined by U+2063 INVISIBLE SEPARATOR; ⟦ ⟧ mark each part):
        ⟦com.example.receiptexplorer⟧<U+2063>⟦TESTKEY001⟧<U+2063>⟦com.example.receiptexplorer.monthly⟧<U+2063>⟦TEST_WINBACK_50⟧<U+2063>⟦0f62404b-59ad-50fe-8c82-b38e4a66e5a0⟧<U+2063>⟦00000000-a176-5a89-ad4d-7c7969246f3a⟧<U+2063>⟦1709294400000⟧
        1 appBundleId: "com.example.receiptexplorer" (from --bundle-id)
        2 keyIdentifier: "TESTKEY001" (from --key-id or the key file's name)
        3 productIdentifier: "com.example.receiptexplorer.monthly" (from --product-id)
        4 offerIdentifier: "TEST_WINBACK_50" (from --offer-id)
        5 appAccountToken: "0f62404b-59ad-50fe-8c82-b38e4a66e5a0" (from --app-account-token (lowercased))
        6 nonce: "00000000-a176-5a89-ad4d-7c7969246f3a" (from --nonce (lowercased))
        7 timestamp: "1709294400000" (from --timestamp)
        UTF-8: 190 bytes, SHA-256 signed with ECDSA P-256

Verdict: INVALID
  • promotional offer signature (V1): the signature does not match the string below with this key: one of its parts differs from what was signed, or another key signed it

"""#

    static let timelineStatus: Int32 = 0
    static let timeline = #"""
timeline of 2 documents: 1 group, 6 events, 0 gaps, 0 conflicts
  [1] refund-history.json: a refund history response (RefundHistoryResponse, Get Refund History, App Store Server API 1.6): 2 refunded transactions
  [2] notification-history.json: a notification history response (NotificationHistoryResponse, Get Notification History, App Store Server API 1.5): 2 notifications

subscription group 21400001 · original transaction 2000000510000000
  2024-02-20T12:00:00.001Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000800000001
                            from [1] signedTransactions[0]
  2024-02-20T12:00:00.002Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000800000002
                            from [1] signedTransactions[1]
  2024-02-20T12:00:00.005Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000800000005
                            from [2] notificationHistory[0].signedPayload DID_RENEW
  2024-02-27T02:13:20Z      refund              com.example.receiptexplorer.monthly · transaction 2000000800000001 · reason 0: refunded for another reason (e.g. accidental purchase)
                            from [1] signedTransactions[0]
  2024-02-28T06:00:00Z      refund              com.example.receiptexplorer.monthly · transaction 2000000800000002 · reason 1: refunded for an issue in the app
                            from [1] signedTransactions[1]
  2024-03-01T12:00:00.002Z  renewal-status      com.example.receiptexplorer.monthly · transaction 2000000800000005 · automatic renewal turned off · ⚠ not delivered: last attempt UNSUCCESSFUL_HTTP_RESPONSE_CODE (2 attempts)
                            from [2] notificationHistory[1].signedPayload DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED

"""#

    static let diffV1Status: Int32 = 1
    static let diffV1 = #"""
A offer-signature-v1.json: a promotional offer signature (V1: ECDSA over fields joined by U+2063)
B offer-signature-v1-wrong-product.json: a promotional offer signature (V1: ECDSA over fields joined by U+2063)
comparing two StoreKit 2 inputs (fields by JSON path, transactions by transaction id, signing, then structure)

semantic: 1 difference
  ~ field-changed productId
      "com.example.receiptexplorer.monthly" → "com.example.receiptexplorer.yearly"
      A node 4 of layer 0, bytes 139-175
      B node 4 of layer 0, bytes 139-174

structure: 1 difference
  ~ content-changed body: productId
      "com.example.receiptexplorer.monthly" → "com.example.receiptexplorer.yearly"
      A node 4 of layer 0, bytes 139-175
      B node 4 of layer 0, bytes 139-174

different

"""#

    static let diffResponsesStatus: Int32 = 1
    static let diffResponses = #"""
A refund-history.json: a refund history response (RefundHistoryResponse, Get Refund History, App Store Server API 1.6): 2 refunded transactions
B order-lookup.json: an order lookup response (OrderLookupResponse, Look Up Order ID, App Store Server API 1.1): 1 transaction
comparing two StoreKit 2 inputs (fields by JSON path, transactions by transaction id, signing, then structure)

semantic: 6 differences
  - field-removed revision
      A node 6 of layer 0, bytes 9312-9343: "1709100000000_2000000800000002"
  - field-removed hasMore
      A node 8 of layer 0, bytes 9359-9363: "false"
  + field-added status
      B node 2 of layer 0, byte 14: "0"
  - transaction-removed com.example.receiptexplorer.monthly [2000000800000001]
      A node 0 of layer 3, bytes 0-673 (file 3672-4570): "signedTransactions[0]"
  - transaction-removed com.example.receiptexplorer.monthly [2000000800000002]
      A node 0 of layer 10, bytes 0-673 (file 8305-9203): "signedTransactions[1]"
  + renewal com.example.receiptexplorer.monthly [2000000800000003] — continues subscription chain 2000000510000000
      B node 0 of layer 3, bytes 0-621 (file 3687-4516): "signedTransactions[0]"

structure: 4 differences
  - node-removed body: signedTransactions[1]
      A node 4 of layer 0, bytes 4665-9291: "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlDbHp…
  - node-removed body: revision
      A node 5 of layer 0, bytes 9300-9343
  - node-removed body: hasMore
      A node 7 of layer 0, bytes 9348-9363
  + node-added body: status
      B node 1 of layer 0, bytes 4-14

different

"""#

    static let diffRepliesStatus: Int32 = 1
    static let diffReplies = #"""
A retention-promotional-offer-v1.json: a Retention Messaging reply: a promotional offer (RealtimeResponseBody.promotionalOffer)
B retention-promotional-offer-v2.json: a Retention Messaging reply: a promotional offer (RealtimeResponseBody.promotionalOffer)
comparing two StoreKit 2 inputs (fields by JSON path, transactions by transaction id, signing, then structure)

semantic: 2 differences
  - field-removed promotionalOffer.promotionalOfferSignatureV1
      A node 6 of layer 0, bytes 126-542
  + field-added promotionalOffer.promotionalOfferSignatureV2
      B layer 1, bytes 0-540 (file 127-667): "promotionalOffer.promotionalOfferSignatureV2"

structure: 2 differences
  - node-removed body: promotionalOffer.promotionalOfferSignatureV1
      A node 5 of layer 0, bytes 95-542
  + node-added body: promotionalOffer.promotionalOfferSignatureV2
      B node 5 of layer 0, bytes 95-668

different

"""#

}
