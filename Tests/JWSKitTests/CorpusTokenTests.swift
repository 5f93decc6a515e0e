import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport
import X509Trust

/// Field-by-field facts from ../shared/corpus/jws/MANIFEST.md.
@Suite("JWS corpus", .enabled(if: Paths.jwsCorpusAvailable))
struct CorpusTokenTests {
    static let appleChain = ["Prod ECC Mac App Store and iTunes Store Receipt Signing",
                             "Apple Worldwide Developer Relations Certification Authority", "Apple Root CA - G3"]

    func commonNames(_ document: JWSDocument) -> [String?] {
        document.header.certificates.map { CertificateInfo(der: $0.der)?.commonName }
    }

    func date(_ document: JWSDocument, _ path: String) -> StoreKitValue? { document.payload.value(path) }

    @Test func qysmatTransaction() throws {
        let d = try Corpus.document("transaction-sandbox-com.app.qysmat-2023-03-27.jws")
        #expect(d.diagnostics.isEmpty)
        #expect(d.payload.kind == .transaction)
        #expect(d.payload.string("environment") == "Sandbox")
        #expect(d.payload.bundleId == "com.app.qysmat")
        #expect(d.payload.value("transactionId") == .string("2000000302596403"))
        #expect(d.payload.value("originalTransactionId") == .string("2000000302178785"))
        #expect(d.payload.value("productId") == .string("com.app.qysmat.premium.child.individual.subscription"))
        #expect(d.payload.value("type") == .enumerated(raw: "Auto-Renewable Subscription", meaning: "a subscription that renews until cancelled"))
        #expect(date(d, "purchaseDate") == .date(milliseconds: 1679899642000, iso: "2023-03-27T06:47:22.000Z"))
        #expect(date(d, "expiresDate") == .date(milliseconds: 1679899942000, iso: "2023-03-27T06:52:22.000Z"))
        #expect(date(d, "signedDate") == .date(milliseconds: 1679899657454, iso: "2023-03-27T06:47:37.454Z"))
        #expect(d.payload.signedDate == 1679899657454)
        #expect(d.payload.string("inAppOwnershipType") == "PURCHASED")
        #expect(d.payload.unknownFields.isEmpty)
        #expect(d.header.alg == "ES256")
        #expect(d.header.certificates.count == 3)
        #expect(commonNames(d) == Self.appleChain)
        #expect(d.header.certificates.map { CertificateInfo(der: $0.der)?.subject } == [
            "C=US,O=Apple Inc.,OU=Apple Worldwide Developer Relations,CN=Prod ECC Mac App Store and iTunes Store Receipt Signing",
            "C=US,O=Apple Inc.,OU=G6,CN=Apple Worldwide Developer Relations Certification Authority",
            "C=US,O=Apple Inc.,OU=Apple Certification Authority,CN=Apple Root CA - G3"])
    }

    @Test func qysmatSegmentsAndCharacterMap() throws {
        let text = try Corpus.text("transaction-sandbox-com.app.qysmat-2023-03-27.jws")
        let d = JWSDocument.decode(text: text, textOffset: 0)
        #expect(d.segments.map(\.characterRange) == [0..<4411, 4412..<5056, 5057..<5143])
        #expect(d.segments.map(\.bytes.count) == [3308, 483, 64])
        #expect(Array(d.signingInput) == Array(text[0..<5056]))
        #expect(d.signatureBytes.count == 64)
        #expect(d.signature?.r == Array(d.signatureBytes[0..<32]))
        #expect(String(decoding: d.segment(.header)!.bytes.prefix(23), as: UTF8.self) == #"{"alg":"ES256","x5c":[""#)
        let payload = d.segment(.payload)!
        #expect(payload.map.characterRange(ofBytes: 0..<3) == 4412..<4416)
        #expect(payload.map.characterRange(ofBytes: 4..<5) == 4417..<4419)
        #expect(payload.map.characterRange(ofBytes: 480..<483) == 5052..<5056)
        #expect(payload.map.byteOffset(ofCharacter: 4417) == 3)
        // The 4 characters the map names for bytes 300..<303 decode to exactly those bytes.
        let chars = payload.map.characterRange(ofBytes: 300..<303)
        let alone = JWSDocument.decode(text: Array(text[chars]) + Array(".e30.".utf8))
        #expect(alone.segment(.header)?.bytes == Array(payload.bytes[300..<303]))
        // x5c[0] DER bytes map back into the header JSON: its first 3 bytes are "MIIE" at offset 23.
        let leaf = d.header.certificates[0]
        #expect(leaf.headerRange(ofBytes: 0..<3) == 23..<27)
        #expect(leaf.contiguousTextStart == 23)
        #expect(Array(d.segment(.header)!.bytes[23..<27]) == Array("MIIE".utf8))
        #expect(leaf.tree.diagnostics.isEmpty)
        #expect(leaf.tree.roots.count == 1)
        #expect(d.headerJSON?[leaf.node.index].kind == .string)
    }

    @Test func lokiRenewalTransactionWithPrice() throws {
        let d = try Corpus.document("transaction-sandbox-com.loki-project.loki-messenger-2025-10-01-RENEWAL.jws")
        #expect(d.diagnostics.isEmpty)
        #expect(d.payload.kind == .transaction)
        #expect(d.payload.value("transactionId") == .string("2000001024998954"))
        #expect(d.payload.value("originalTransactionId") == .string("2000001024993299"))
        #expect(d.payload.value("transactionReason") == .enumerated(raw: "RENEWAL", meaning: "the App Store renewed a subscription"))
        #expect(d.payload.value("price") == .price(milliunits: 1990, currency: "AUD"))
        #expect(d.payload.value("price")?.display == "1990 milliunits = 1.990 AUD")
        #expect(d.payload.value("storefront") == .string("AUS"))
        #expect(date(d, "purchaseDate") == .date(milliseconds: 1759302552000, iso: "2025-10-01T07:09:12.000Z"))
        #expect(date(d, "expiresDate") == .date(milliseconds: 1759302732000, iso: "2025-10-01T07:12:12.000Z"))
        #expect(commonNames(d) == Self.appleChain)
    }

    @Test func voiceRecordingOfferTransaction() throws {
        let d = try Corpus.document("transaction-sandbox-Com.VoiceRecording.Telephone-2022-11-04-offer1.jws")
        #expect(d.payload.bundleId == "Com.VoiceRecording.Telephone")
        #expect(d.payload.value("offerType") == .enumerated(raw: "1", meaning: "introductory offer"))
        #expect(d.payload.value("productId") == .string("Com.VoiceRecording.Telephone.103"))
        #expect(date(d, "signedDate") == .date(milliseconds: 1667559685499, iso: "2022-11-04T11:01:25.499Z"))
        #expect(d.payload.field("appAccountToken")?.spec != nil)
    }

    @Test func xcodeTransactionWithFractionalMilliseconds() throws {
        let d = try Corpus.document("transaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws")
        #expect(d.payload.kind == .transaction)
        #expect(d.payload.environment == "Xcode")
        #expect(d.header.kid == "Apple_Xcode_Key")
        #expect(d.header.typ == "JWT")
        #expect(date(d, "purchaseDate") == .date(milliseconds: 1697679936049.7297, iso: "2023-10-19T01:45:36.049Z"))
        #expect(date(d, "signedDate") == .date(milliseconds: 1697679936056.485, iso: "2023-10-19T01:45:36.056Z"))
        #expect(d.payload.value("transactionReason")?.display == "PURCHASE (the customer bought it (or upgraded, or redeemed an offer))")
        #expect(d.payload.unknownFields == [])
        #expect(d.header.certificates.map { CertificateInfo(der: $0.der)?.subject }
                == ["O=StoreKit Testing in Xcode,CN=StoreKit Testing in Xcode"])
    }

    @Test func renewals() throws {
        let ring = try Corpus.document("renewal-sandbox-co.ringalarm-2023-05-23.jws")
        #expect(ring.payload.kind == .renewalInfo)
        #expect(ring.payload.value("autoRenewStatus") == .enumerated(raw: "1", meaning: "automatic renewal is on"))
        #expect(ring.payload.value("autoRenewProductId") == .string("co.ringalarm.swtich.quarterly2"))
        #expect(ring.payload.value("originalTransactionId") == .string("2000000335310644"))
        #expect(date(ring, "signedDate") == .date(milliseconds: 1684822778492, iso: "2023-05-23T06:19:38.492Z"))
        let off = try Corpus.document("renewal-sandbox-com.loki-project.loki-messenger-2025-10-02-autorenew-off.jws")
        #expect(off.payload.value("autoRenewStatus") == .enumerated(raw: "0", meaning: "automatic renewal is off"))
        #expect(off.payload.signedDate == 1759388855473)
        let xcode = try Corpus.document("renewal-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws")
        #expect(xcode.payload.kind == .renewalInfo)
        #expect(xcode.payload.value("originalTransactionId") == .string("0"))
        #expect(date(xcode, "signedDate") == .date(milliseconds: 1697679936711.0747, iso: "2023-10-19T01:45:36.711Z"))
    }

    @Test func appTransaction() throws {
        let d = try Corpus.document("apptransaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws")
        #expect(d.diagnostics.isEmpty)
        #expect(d.payload.kind == .appTransaction)
        #expect(d.payload.environment == "Xcode")
        #expect(d.payload.value("applicationVersion") == .string("1"))
        #expect(d.payload.value("originalApplicationVersion") == .string("1"))
        #expect(d.payload.fields.map(\.path).sorted() == ["applicationVersion", "bundleId", "deviceVerification",
            "deviceVerificationNonce", "originalApplicationVersion", "originalPurchaseDate", "receiptCreationDate",
            "receiptType", "requestDate"])
    }

    @Test func notificationsWithoutNestedTokens() throws {
        let taller = try Corpus.document("notification-production-com.nineton.taller-2024-10-17-TEST.jws")
        #expect(taller.diagnostics.isEmpty)
        #expect(taller.payload.kind == .notification)
        #expect(taller.payload.notificationType == "TEST")
        #expect(taller.payload.value("notificationUUID") == .string("2e2a6ce0-ec9f-4037-b1bf-618af85527bd"))
        #expect(taller.payload.value("version") == .string("2.0"))
        #expect(date(taller, "signedDate") == .date(milliseconds: 1729136651128, iso: "2024-10-17T03:44:11.128Z"))
        #expect(taller.payload.bundleId == "com.nineton.taller")
        #expect(taller.payload.environment == "Production")
        #expect(taller.payload.appAppleId == 6450284872)
        #expect(taller.nested.isEmpty)
        let abilities = try Corpus.document("notification-sandbox-com.Abilities-2022-09-02-TEST.jws")
        #expect(abilities.payload.value("notificationUUID") == .string("5e09dcfc-205e-4ea1-9883-96676f394992"))
        #expect(abilities.payload.signedDate == 1662122492884)
        #expect(abilities.payload.bundleId == "com.Abilities")
        #expect(abilities.payload.environment == "Sandbox")
    }

    @Test func didRenewNotificationNestsTwoTokens() throws {
        let d = try Corpus.document("notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws")
        #expect(d.worstSeverity == nil)
        #expect(d.payload.notificationType == "DID_RENEW")
        #expect(d.payload.subtype == nil)
        #expect(d.payload.value("data.bundleVersion") == .string("637"))
        #expect(d.payload.value("data.status") == .enumerated(raw: "1", meaning: "active"))
        #expect(d.payload.appAppleId == 1470168868)
        #expect(d.payload.signedDate == 1759302518835)
        #expect(d.nested.map(\.path) == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
        let transaction = d.nested[0].document
        #expect(transaction.payload.kind == .transaction)
        #expect(transaction.payload.value("transactionId") == .string("2000001024998954"))
        #expect(transaction.payload.value("productId") == .string("com.getsession.org.pro_sub"))
        #expect(transaction.payload.bundleId == "com.loki-project.loki-messenger")
        #expect(transaction.header.certificates.count == 3)
        let renewal = d.nested[1].document
        #expect(renewal.payload.kind == .renewalInfo)
        #expect(renewal.payload.value("autoRenewProductId") == .string("com.getsession.org.pro_sub"))
        #expect(renewal.payload.environment == "Sandbox")
        // The nested token's characters are the string's content in the parent payload.
        let payloadJSON = d.payloadJSON!
        let node = payloadJSON[d.nested[0].node.index]
        #expect(transaction.textOffset == node.start + 1)
        #expect(Array(payloadJSON.bytes[(node.start + 1)..<(node.end - 1)]) == transaction.text.array)
    }

    @Test func subscribedResubscribe() throws {
        let d = try Corpus.document("notification-sandbox-com.loki-project.loki-messenger-2025-10-02-SUBSCRIBED-RESUBSCRIBE.jws")
        #expect(d.payload.notificationType == "SUBSCRIBED")
        #expect(d.payload.subtype == "RESUBSCRIBE")
        #expect(d.payload.value("notificationUUID") == .string("9f9730f8-f3df-436a-b7e5-e85ef9c6afe4"))
        #expect(d.nested[0].document.payload.value("transactionId") == .string("2000001025686313"))
        #expect(d.nested[1].document.payload.value("originalTransactionId") == .string("2000001024993299"))
        #expect(StoreKitInput.classify(try Corpus.text("notification-sandbox-com.loki-project.loki-messenger-2025-10-02-SUBSCRIBED-RESUBSCRIBE.jws"))
                == .token(.notification(type: "SUBSCRIBED", subtype: "RESUBSCRIBE")))
    }

    @Test func appleRootIsCarriedAsTheThirdCertificate() throws {
        let root = Array(try Data(contentsOf: Paths.certs.appendingPathComponent("AppleRootCA-G3.cer")))
        let d = try Corpus.document("renewal-sandbox-co.ringalarm-2023-05-23.jws")
        #expect(d.header.certificates[2].der == root)
    }

    @Test func testCATokens() throws {
        let notification = try Corpus.document("testca/notification-testca-com.example-2023-04-12-TEST.jws")
        #expect(notification.payload.kind == .notification)
        #expect(notification.payload.value("notificationUUID") == .string("9ad56bd2-0bc6-42e0-af24-fd996d87a1e6"))
        #expect(notification.payload.appAppleId == 1234)
        #expect(notification.payload.signedDate == 1681314324000)
        let bare = try Corpus.document("testca/transaction-testca-com.example-2023-01-05.jws")
        #expect(bare.payload.kind == .unknown)
        #expect(bare.payload.bundleId == "com.example")
        #expect(date(bare, "signedDate") == .date(milliseconds: 1672956154000, iso: "2023-01-05T22:02:34.000Z"))
        #expect(bare.header.certificates.map { CertificateInfo(der: $0.der)?.subject } == [
            "O=Leaf,L=Cupertino,ST=California,C=US", "O=Intermediate,L=Cupertino,ST=California,C=US",
            "L=Cupertino,ST=California,C=US"])
    }
}
