import ASN1Lenient
import DocumentModel
import Foundation
import ReceiptKit
import Testing
import TestSupport

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
        .externalPurchaseToken(sandbox: true),
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
        #expect(ids.map(\.rawValue) == ["developer-token", "storekit-token", "storekit-json", "legacy-transaction-receipt",
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
