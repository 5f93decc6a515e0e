import DocumentCore
import DocumentRedact
import ReceiptKit
import Foundation
import JWSKit
import Testing
import TestSupport
import TextLoader

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
        // Apple compares the app Apple id only in Production: the Sandbox sample's wrong id is not compared.
        let wrongAppSandbox = try S.open("retention-request.json", appAppleID: 999).verificationReport()
        let info = try #require(wrongAppSandbox.step("app-apple-id"))
        #expect(info.status == .info && !info.decides && info.appleStatus == nil)
        #expect(info.reasonCode == .comparedOnlyInProduction)
        #expect(info.message == "for information — not compared: the environment is Sandbox, and Apple's verifier checks appAppleId only in Production")
        #expect(wrongAppSandbox.verdict.valid, "\(wrongAppSandbox.verdict.reasons)")
        // In Production (the verifier's environment, --environment) it is compared, as Apple does.
        let wrongApp = try S.open("retention-request.json", environment: "Production", appAppleID: 999).verificationReport()
        #expect(wrongApp.step("app-apple-id")?.status == .failed)
        #expect(wrongApp.step("app-apple-id")?.appleStatus == .invalidAppIdentifier)
        #expect(wrongApp.step("app-apple-id")?.reason == "expected 999, the payload says 1450000001")
        #expect(!wrongApp.verdict.valid)
        let rightInProduction = try S.open("retention-request.json", environment: "Production", appAppleID: 1_450_000_001).verificationReport()
        #expect(rightInProduction.step("app-apple-id")?.status == .passed)
        let right = try S.open("retention-request.json", environment: "Sandbox", appAppleID: 1_450_000_001).verificationReport()
        #expect(right.verdict.valid)
        // The request names no bundle: --bundle-id is refused, with why.
        #expect(OptionTable.use(.bundleID, kind: .retentionMessaging(.request))
                == .refused("it carries no bundleId (Apple's verifier checks its appAppleId and environment)"))
    }

    @Test func requestTokenIsNamedEverywhere() throws {
        let document = try S.open("retention-request.json")
        let token = try #require(document.jws?.tokens.first)
        #expect(token.kind == .unknown)  // no StoreKit 2 payload type…
        #expect(token.label == "Retention Messaging real-time request")  // …but its kind's folder names it
        let heading = try #require(document.outlineWording.heading(of: token.layers.token, in: document))
        #expect(heading.value == "Retention Messaging real-time request · ES256, 3 certificates")
        let summary = try #require(document.outlineWording.summary(of: document)).map(\.text)
        #expect(summary.contains { $0.hasSuffix("signedPayload: Retention Messaging real-time request · ES256, 3 certificates") }, "\(summary)")
        #expect(!summary.contains { $0.contains("unrecognised") })
        let report = document.verificationReport()
        #expect(report.subject.label == "a Retention Messaging real-time request (DecodedRealtimeRequestBody, signed by Apple)")
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

    // MARK: - redact

    static func redact(_ file: String) throws -> (copy: RedactedCopy, run: RedactRun, reopened: Document) {
        let input = try RedactSupport.input(Paths.samples.appendingPathComponent("apple/" + file))
        let run = try Redactor.run([input], options: RedactSupport.options())
        let copy = try #require(run.copies.first)
        let bytes = try #require(copy.bytes, "\(file): \(copy.failure ?? "")")
        return (copy, run, try RedactSupport.open(bytes))
    }

    /// advancedCommerceData's token is rewritten through the decoded JSON's base64: its bid, iss
    /// and the bundle id inside its request are stand-ins, and its signature is reported broken.
    @Test func advancedCommerceDataTokenIsRedactedThroughItsBase64() throws {
        let (copy, run, reopened) = try Self.redact("retention-advanced-commerce.json")
        #expect(copy.replaced == [.bundleID: 1, .issuerID: 1])
        #expect(copy.signatures == ["token advancedCommerceData.signatureInfo.token: its ES256 signature no longer verifies: it signs the token's header.payload text, which changed"])
        #expect(reopened.kind == .retentionMessaging(.advancedCommerce))
        let token = try #require(reopened.jws?.tokens.first)
        #expect(token.path == "advancedCommerceData.signatureInfo.token")
        let bid = try #require(token.document.payload.string("bid"))
        #expect(bid != "com.example.receiptexplorer" && run.standIns[.text("com.example.receiptexplorer")] == .text(bid))
        #expect(bid.count == "com.example.receiptexplorer".count)
        // The original verifies with the key; the copy's token no longer does, as the summary says.
        #expect(try S.open("retention-advanced-commerce.json", key: true).verificationReport().verdict.valid)
        let checked = try Self.openWithKey(try #require(copy.bytes)).verificationReport()
        #expect(!checked.verdict.valid)
        #expect(checked.verdict.reasons.first?.code == .developerSignatureMismatch, "\(checked.verdict.reasons)")
    }

    /// A copy opened as `verify --key KEY --bundle-id com.example.receiptexplorer` opens it.
    static func openWithKey(_ bytes: [UInt8]) throws -> Document {
        var jws = JWSOptions()
        var key = try Paths.sample(S.key)
        try jws.loadDeveloperKey(&key, fileName: "SubscriptionKey_TESTKEY001.p8")
        return Document.open(try PasteLoader.decode(bytes, name: "copy"), options: AnalysisOptions(bundleID: "com.example.receiptexplorer"), jws: jws)
    }

    /// A V1 signature's appAccountToken is replaced and the copy says the signature broke; verify
    /// with the key and bundle id then fails on the copy.
    @Test(arguments: [("offer-signature-v1.json", "the V1 offer signature"),
                      ("retention-promotional-offer-v1.json", "promotionalOffer.promotionalOfferSignatureV1")])
    func v1SignatureRedactedSaysItBroke(_ file: String, _ name: String) throws {
        let (copy, run, reopened) = try Self.redact(file)
        #expect(copy.replaced == [.appAccountToken: 1])
        #expect(copy.signatures == ["\(name): its ECDSA signature (encodedSignature) no longer verifies: it signs the fields joined by U+2063, and a value among them (appAccountToken) changed"])
        #expect(reopened.kind.id == S.facts[file]?["kind"] as? String)
        let standIn = try #require(run.standIns[.text("0f62404b-59ad-50fe-8c82-b38e4a66e5a0")])
        guard case .text(let token) = standIn else { Issue.record("not text"); return }
        #expect(String(decoding: reopened.fileLayer.bytes, as: UTF8.self).contains("\"appAccountToken\": \"\(token)\""))
        // Kept with --keep app-account-token: nothing changes, no signature is said broken.
        let input = try RedactSupport.input(Paths.samples.appendingPathComponent("apple/" + file))
        let kept = try #require(try Redactor.run([input], options: RedactSupport.options(keep: [.appAccountToken])).copies.first)
        #expect(kept.bytes == input.raw && kept.signatures.isEmpty)
    }

    @Test func v1CopyFailsVerification() throws {
        let (copy, _, _) = try Self.redact("offer-signature-v1.json")
        let document = try Self.openWithKey(try #require(copy.bytes))
        let step = try #require(document.verificationReport().step("offer-signature-v1"))
        #expect(step.status == .failed && step.reasonCode == .developerSignatureMismatch)
    }

    @Test func retryableStatusIsNamedButNeverMapped() {
        #expect(AppleVerifierStatus.allCases.map(\.rawValue).contains("RETRYABLE_VERIFICATION_FAILURE"))
        for step in ["signature", "chain", "root", "environment", "app-apple-id", "revocation", "offer-signature-v1"] {
            #expect(AppleVerifierStatus.forFailure(step: step, reason: nil) != .retryableVerificationFailure)
        }
    }
}
