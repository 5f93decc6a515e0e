import ASN1Lenient
import DocumentCore
import DocumentFormats
import DocumentRedact
import DocumentTour
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// `FormatRegistry`: which format claims an input, how sure, why, and that every kind has one format.
@Suite struct FormatRegistryTests {
    static func probe(_ path: String, reading: ReceiptReading = .ifSignedData) throws -> FormatProbe {
        FormatProbe(try InputLoader.load(path: Paths.samples.appendingPathComponent(path).path),
                    options: AnalysisOptions(validate: false), reading: reading)
    }

    static func claims(_ probe: FormatProbe) -> [String] {
        FormatRegistry.recognitions(probe).map { "\($0.format) \($0.recognition.confidence)" }
    }

    @Test func receiptIsClaimedByTheReceiptFormatThenTheFallback() throws {
        let probe = try Self.probe("typical.receipt")
        #expect(Self.claims(probe) == ["app-receipt certain", "asn1 fallback"])
        #expect(FormatRegistry.recognitions(probe).first?.recognition.reason == "PKCS#7 SignedData (content type 1.2.840.113549.1.7.2)")
        #expect(FormatRegistry.format(for: probe).id == AppReceiptFormat.id)
    }

    @Test func tokenIsClaimedByTheTokenFormatWithItsPayloadType() throws {
        let probe = try Self.probe("jws/renewal-info.jws")
        let first = try #require(FormatRegistry.recognitions(probe).first)
        #expect(first.format == StoreKitTokenFormat.id)
        #expect(first.recognition == Recognition(.certain, "three base64url segments: a compact JWS (StoreKit 2 renewal info)"))
        #expect(Document.open(probe.input).kind == .renewalInfo)
    }

    @Test func historyBodyIsClaimedByTheJSONFormat() throws {
        let probe = try Self.probe("jws/transaction-history.json")
        #expect(Self.claims(probe).first == "storekit-json certain")
        #expect(FormatRegistry.recognitions(probe).first?.recognition.reason == "App Store Server API transaction history (2 transactions)")
        #expect(Document.open(probe.input).kind == .transactionHistory(transactions: 2))
    }

    @Test func jsonNamingTokenKeysWithoutTokensIsStillTheJSONFormat() throws {
        let input = try InputLoader.decode(Array(#"{"signedPayload": 1}"#.utf8), name: "body")
        let probe = FormatProbe(input)
        #expect(Self.claims(probe).first == "storekit-json likely")
        let document = Document.open(input)
        #expect(document.kind == .storeKitJSON(tokens: 0))
        #expect(document.fileLayer.content.diagnostics.map(\.code.rawValue).contains("jws-no-tokens"))
    }

    @Test func proseIsTextAndNeverASN1() throws {
        let input = try InputLoader.decode(Array("<html><body>Hello, prose.</body></html>\n".utf8), name: "prose")
        let probe = FormatProbe(input, reading: .always)
        #expect(Self.claims(probe) == ["text certain", "asn1 fallback"])
        let document = Document.open(input, reading: .always)
        #expect(document.kind == .text)
        #expect(document.receipt == nil)
    }

    @Test func certificateIsLikelyAndReadAsAReceiptOnlyOnRequest() throws {
        let path = Paths.samples.appendingPathComponent("pki/test-ec-intermediate.pem").path
        let input = try InputLoader.load(path: path)
        #expect(Self.claims(FormatProbe(input)) == ["certificate likely", "asn1 fallback"])
        #expect(Document.open(input).kind == .certificate)
        #expect(Document.open(input).receipt == nil)
        // `json` and `verify` read it as a receipt to say why it is not one; it stays a certificate.
        let always = Document.open(input, reading: .always)
        #expect(always.kind == .certificate)
        #expect(always.receipt?.receipt == nil)
        #expect(always.receipt != nil)
    }

    @Test func developerSignedTokenIsClaimedBeforeTheStoreKitTokenFormat() throws {
        let probe = try Self.probe("developer/server-api-token.jws")
        #expect(Self.claims(probe) == ["developer-token certain", "storekit-token certain", "asn1 fallback"])
        #expect(FormatRegistry.recognitions(probe).first?.recognition.reason
                == "a compact JWS whose claims (aud \"appstoreconnect-v1\", iat, bid or iss) are a developer's (App Store Server API bearer token (developer-signed JWT))")
        #expect(Document.open(probe.input).kind == .developerToken(.serverAPIToken))
    }

    @Test func externalPurchaseTokenIsClaimedByItsFormat() throws {
        let probe = try Self.probe("external/external-purchase-token-sandbox.txt")
        #expect(Self.claims(probe) == ["external-purchase-token certain", "asn1 fallback"])
        #expect(FormatRegistry.recognitions(probe).first?.recognition.reason
                == "one run of base64url whose JSON names externalPurchaseId or tokenCreationDate")
        #expect(Document.open(probe.input).kind == .externalPurchaseToken(sandbox: true))
    }

    /// Every kind, with the associated values that change its words.
    static let everyKind: [DocumentKind] = [
        .receipt, .xcodeTestingReceipt, .signedData, .certificate, .asn1, .text, .transaction, .renewalInfo,
        .appTransaction, .notification(type: "DID_RENEW", subtype: nil), .unknownToken,
        .transactionHistory(transactions: 1), .subscriptionStatuses(tokens: 2), .storeKitJSON(tokens: 3),
        .legacyTransactionReceipt, .developerToken(.promotionalOffer), .developerToken(.introductoryOfferEligibility),
        .developerToken(.advancedCommerceRequest), .developerToken(.serverAPIToken), .externalPurchaseToken(sandbox: false),
        .externalPurchaseToken(sandbox: true), .serverAPIResponse(.refundHistory, tokens: 2),
        .serverAPIResponse(.notificationHistory, tokens: 1), .retentionMessaging(.request), .retentionMessaging(.promotionalOffer),
        .retentionMessaging(.advancedCommerce), .offerSignatureV1,
    ]

    @Test func everyKindIsDescribedByExactlyOneFormat() {
        for kind in Self.everyKind {
            #expect(FormatRegistry.formats.filter { $0.describe(kind) != nil }.count == 1, "\(kind)")
        }
    }

    @Test func kindIdsAreUniqueAndKebabCase() {
        let ids = Self.everyKind.map(\.id)
        #expect(Set(ids).count == ids.count - 1)  // a sandbox external purchase token is the same kind
        #expect(DocumentKind.developerToken(.serverAPIToken).id == "server-api-token")
        #expect(DocumentKind.externalPurchaseToken(sandbox: true).id == "external-purchase-token")
        #expect(ids.allSatisfy { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } })
        #expect(DocumentKind.renewalInfo.id == "renewal-info")
        #expect(DocumentKind.transactionHistory(transactions: 4).id == "transaction-history")
    }

    @Test func formatIdsAreUniqueAndResolve() {
        let ids = FormatRegistry.formats.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.map(\.rawValue) == ["developer-token", "retention-request", "storekit-token", "server-api-response", "retention-reply",
                                        "offer-signature-v1", "storekit-json", "legacy-transaction-receipt",
                                        "external-purchase-token", "text", "app-receipt", "certificate", "asn1"])
        for id in ids { #expect(FormatRegistry.format(id)?.id == id) }
    }

    @Test func kindWordsComeFromTheFormat() {
        #expect(DocumentKind.notification(type: "DID_RENEW", subtype: nil).summary
                == "an App Store Server Notification V2: DID_RENEW (no subtype)")
        #expect(DocumentKind.notification(type: nil, subtype: nil).title == "App Store Server Notification")
        #expect(DocumentKind.xcodeTestingReceipt.title == "Receipt")
        #expect(DocumentKind.subscriptionStatuses(tokens: 1).summary == "a subscription statuses response: 1 signed token")
    }
}

/// What the formats add to the commands: layout, `--expect`, tour route, redaction refusal.
@Suite struct FormatHookTests {
    static func open(_ path: String) throws -> Document {
        Document.open(try InputLoader.load(path: Paths.samples.appendingPathComponent(path).path), options: AnalysisOptions(validate: false))
    }

    @Test func layoutFollowsTheFormat() throws {
        #expect(try Self.open("typical.receipt").format.layout == .asn1File)
        #expect(try Self.open("jws/transaction.jws").format.layout == .layers)
        #expect(try Self.open("jws/transaction-history.json").format.layout == .layers)
        #expect(try Self.open("pki/test-ec-intermediate.pem").format.layout == .asn1File)
    }

    @Test func expectationsComeFromTheKindsFormat() throws {
        let renewal = try Self.open("jws/renewal-info.jws")
        #expect(ExpectedKind.renewal.mismatch(renewal.kind) == nil)
        #expect(ExpectedKind.transaction.mismatch(renewal.kind)
                == "this is a renewal info token (JWSRenewalInfoDecodedPayload), not a transaction: a notification's data carries both, signedTransactionInfo (the transaction) and signedRenewalInfo (the renewal info); decode each with its own type")
        let history = try Self.open("jws/transaction-history.json")
        #expect(ExpectedKind.history.mismatch(history.kind) == nil)
        #expect(ExpectedKind.receipt.mismatch(history.kind)
                == "this is a transaction history response: 2 transactions, not an App Store receipt: StoreKit 2 JWS is not the PKCS#7 app receipt; drop --expect receipt to read it")
        let receipt = try Self.open("typical.receipt")
        #expect(ExpectedKind.receipt.mismatch(receipt.kind) == nil)
        #expect(ExpectedKind.notification.mismatch(receipt.kind)
                == "this is a PKCS#7 App Store receipt, not a notification: the app receipt (StoreKit 1) holds in_app purchases; a StoreKit 2 notification is a JWS (Transaction.jwsRepresentation or the App Store Server API)")
        let certificate = try Self.open("pki/test-ec-intermediate.pem")
        #expect(ExpectedKind.receipt.mismatch(certificate.kind) == "this is an X.509 certificate, not an App Store receipt")
    }

    @Test func tourRouteComesFromTheFormat() throws {
        let receipt = try Self.open("typical.receipt")
        #expect((receipt.format as? any TourRoute)?.tourSteps(receipt)?.isEmpty == false)
        let asn1 = Document.open(LoadedInput(bytes: [0x30, 0x03, 0x02, 0x01, 0x05], name: "int", encoding: .binary, note: "raw"))
        #expect(asn1.kind == .asn1)
        #expect((asn1.format as? any TourRoute)?.tourSteps(asn1) == nil)
    }

    @Test func legacyTransactionReceiptRefusesRedaction() throws {
        let plist = #"{ "signature" = "AQ=="; "purchase-info" = "ew=="; }"#
        let document = Document.open(LoadedInput(bytes: Array(plist.utf8), name: "legacy", encoding: .storeKitText, note: "plist"))
        #expect(document.kind == .legacyTransactionReceipt)
        #expect(document.redactionRefusal
                == "an iOS 6 style transaction receipt is not read by this tool, so its identifiers cannot be found")
        let receipt = try Self.open("typical.receipt")
        #expect(receipt.redactionRefusal == nil)
    }
}
