import DocumentCore
import ReceiptKit
import Foundation
import JWSKit
import Testing
import TestSupport

/// Issue 31: the Retention Messaging request and replies, and the V1 offer signature (samples/apple/).
@Suite struct RetentionMessagingTests {
    typealias S = AppleDocumentsTests
    static func fact(_ file: String, _ key: String) -> Any? { S.facts[file]?[key] }

    @Test func requestIsAnAppleTokenWithItsOwnKind() throws {
        let document = try S.open("retention-request.json")
        #expect(document.kind == .retentionMessaging(.request))
        #expect(document.kind.summary == "a Retention Messaging real-time request (DecodedRealtimeRequestBody, signed by Apple)")
        let report = document.verificationReport()
        #expect(report.verdict.valid, "\(report.verdict.reasons)")
        #expect(report.steps.map(\.id).contains("signature"))
        #expect(report.subject.kind == "retention-request")
        // Its claims, worded with the Retention Messaging API version.
        let token = try #require(document.jws?.tokens.first)
        let payload = try #require(token.layers.payload)
        let tree = try #require(document.layer(payload).json)
        let fields = document.outlineWording.fields(of: payload, in: document)
        let locale = try #require((0..<tree.count).first { tree[$0].kind == .member && tree.key(ofMember: $0) == "userLocale" })
        #expect(fields[locale]?.meaning == "The device's locale: the language to answer in (Retention Messaging API 1.0).")
    }

    @Test func requestEnvironmentAndAppAppleIDAsApple() throws {
        let wrongEnvironment = try S.open("retention-request.json", environment: "Production").verificationReport()
        let step = try #require(wrongEnvironment.step("environment"))
        #expect(step.status == .failed)
        #expect(step.appleStatus == .invalidEnvironment)
        let wrongApp = try S.open("retention-request.json", appAppleID: 999).verificationReport()
        #expect(wrongApp.step("app-apple-id")?.appleStatus == .invalidAppIdentifier)
        let right = try S.open("retention-request.json", environment: "Sandbox", appAppleID: 1_450_000_001).verificationReport()
        #expect(right.verdict.valid)
        // The request names no bundle: --bundle-id is refused, with why.
        #expect(OptionTable.use(.bundleID, kind: .retentionMessaging(.request))
                == .refused("it carries no bundleId (Apple's verifier checks its appAppleId and environment)"))
    }

    @Test func v2OfferIsADeveloperTokenLayerVerifiedWithTheKey() throws {
        let document = try S.open("retention-promotional-offer-v2.json", bundleID: "com.example.receiptexplorer", key: true)
        #expect(document.kind == .retentionMessaging(.promotionalOffer))
        let token = try #require(document.jws?.tokens.first)
        let offset = try #require(Self.fact("retention-promotional-offer-v2.json", "token_offset") as? Int)
        let length = try #require(Self.fact("retention-promotional-offer-v2.json", "token_length") as? Int)
        #expect(token.rangeInParent == offset..<(offset + length))
        #expect(token.path == "promotionalOffer.promotionalOfferSignatureV2")
        #expect(document.verificationReport().verdict.outcome == "developer-key")
        let withoutKey = try S.open("retention-promotional-offer-v2.json")
        #expect(withoutKey.verificationReport().verdict.outcome == "key-needed")
    }

    @Test func advancedCommerceDataIsDecodedAndItsJWSOpened() throws {
        let file = "retention-advanced-commerce.json"
        let document = try S.open(file, bundleID: "com.example.receiptexplorer", key: true)
        #expect(document.kind == .retentionMessaging(.advancedCommerce))
        let data = try #require(document.layers.first { $0.name == "advancedCommerceData" })
        #expect(data.bytes.count == Self.fact(file, "decoded_bytes") as? Int)
        #expect(data.parent == .file)
        let token = try #require(document.jws?.tokens.first)
        #expect(token.path == "advancedCommerceData.signatureInfo.token")
        let inDecoded = try #require(Self.fact(file, "token_offset_in_decoded") as? Int)
        #expect(token.rangeInParent == inDecoded..<(inDecoded + (Self.fact(file, "token_length") as? Int ?? 0)))
        // The decoded layer's first byte sits at the base64 string's first character in the file.
        let dataOffset = try #require(Self.fact(file, "data_offset") as? Int)
        #expect(document.fileLayer.bytes[dataOffset] == UInt8(ascii: "e"))  // base64 of `{"`
        #expect(token.kind == .developer(.advancedCommerceRequest))
        #expect(document.verificationReport().verdict.outcome == "developer-key")
    }

    @Test func unsignedRepliesSaySo() throws {
        for file in ["retention-message.json", "retention-alternate-product.json"] {
            let document = try S.open(file)
            #expect(document.kind.id == Self.fact(file, "kind") as? String)
            let report = document.verificationReport()
            #expect(!report.verdict.valid && report.verdict.reasons.first?.code == .notVerifiable, "\(file)")
        }
    }

    @Test func v1SignatureVerifiesWithKeyAndBundle() throws {
        for file in ["offer-signature-v1.json", "retention-promotional-offer-v1.json"] {
            let document = try S.open(file, bundleID: "com.example.receiptexplorer", key: true)
            let report = document.verificationReport()
            let step = try #require(report.step("offer-signature-v1"), "\(file)")
            #expect(step.status == .passed, "\(file): \(step.message)")
            #expect(report.verdict.valid && report.verdict.outcome == "developer-key")
        }
    }

    @Test func v1FailureNamesTheStringThatWasExpected() throws {
        let file = "offer-signature-v1-wrong-product.json"
        let document = try S.open(file, bundleID: "com.example.receiptexplorer", key: true)
        let report = document.verificationReport()
        let step = try #require(report.step("offer-signature-v1"))
        #expect(step.status == .failed && step.reasonCode == .developerSignatureMismatch)
        let expected = try #require(Self.fact(file, "expected_string") as? String)
        let visible = expected.split(separator: "\u{2063}", omittingEmptySubsequences: false).map { "⟦\($0)⟧" }.joined(separator: "<U+2063>")
        #expect(step.details[1] == "  " + visible)
        #expect(step.details[4] == "  3 productIdentifier: \"com.example.receiptexplorer.yearly\" (from productId)")
        #expect(!report.verdict.valid)
    }

    @Test func v1NeedsTheBundleAndTheKey() throws {
        let noBundle = try S.open("offer-signature-v1.json", key: true).verificationReport()
        #expect(noBundle.step("offer-signature-v1")?.status == .notChecked)
        #expect(noBundle.step("offer-signature-v1")?.reason == "the bundle id is the first signed part and no reply carries it: give --bundle-id")
        let noKey = try S.open("offer-signature-v1.json", bundleID: "com.example.receiptexplorer").verificationReport()
        #expect(noKey.verdict.outcome == "key-needed")
        let otherBundle = try S.open("offer-signature-v1.json", bundleID: "com.example.other", key: true).verificationReport()
        #expect(otherBundle.step("offer-signature-v1")?.status == .failed)
    }

    @Test func retryableStatusIsNamedButNeverMapped() {
        #expect(AppleVerifierStatus.allCases.map(\.rawValue).contains("RETRYABLE_VERIFICATION_FAILURE"))
        for step in ["signature", "chain", "root", "environment", "app-apple-id", "revocation", "offer-signature-v1"] {
            #expect(AppleVerifierStatus.forFailure(step: step, reason: nil) != .retryableVerificationFailure)
        }
    }
}
