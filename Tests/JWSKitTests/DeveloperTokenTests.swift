import Foundation
import JSONLenient
@testable import JWSKit
import Testing
import TestSupport

/// Developer-signed JWS in JWSKit: kinds from claims, the key loader, the claim checks.
@Suite struct DeveloperTokenTests {
    static func token(_ file: String) throws -> JWSDocument {
        var text = try Paths.sample("developer/" + file)
        while text.last == 0x0A { text.removeLast() }
        return JWSDocument.decode(text: text)
    }

    @Test("each kind is named by its claims, not confused with Apple's payloads")
    func kinds() throws {
        #expect(try Self.token("promotional-offer.jws").payload.kind == .promotionalOffer)
        #expect(try Self.token("introductory-offer-eligibility.jws").payload.kind == .introductoryOfferEligibility)
        #expect(try Self.token("advanced-commerce-request.jws").payload.kind == .advancedCommerceRequest)
        #expect(try Self.token("server-api-token.jws").payload.kind == .serverAPIToken)
        // A wrong aud is a finding on the kind the feature claims say, not another kind.
        #expect(try Self.token("promotional-offer-wrong-aud.jws").payload.kind == .promotionalOffer)
        #expect(try Self.token("server-api-token-wrong-aud.jws").payload.kind == .serverAPIToken)
        // Apple's transaction carries transactionId and offerIdentifier, but no JWT claims.
        var transaction = try Paths.sample("jws/transaction.jws")
        while transaction.last == 0x0A { transaction.removeLast() }
        #expect(JWSDocument.decode(text: transaction).payload.kind == .transaction)
    }

    @Test("a kid without x5c is not an x5c finding; iat and exp are seconds")
    func decoding() throws {
        let token = try Self.token("server-api-token.jws")
        #expect(token.header.kid == "TESTKEY001")
        #expect(token.diagnostics.isEmpty)
        #expect(token.payload.value("iat") == .seconds(1709294400, iso: "2024-03-01T12:00:00.000Z"))
        #expect(token.payload.value("exp") == .seconds(1709295600, iso: "2024-03-01T12:20:00.000Z"))
        #expect(token.payload.headline.map(\.path) == ["aud", "bid", "iss", "iat", "exp"])
    }

    @Test("the Advanced Commerce request claim decodes to JSON, mapped to the payload characters")
    func request() throws {
        let token = try Self.token("advanced-commerce-request.jws")
        let request = try #require(token.request)
        #expect(request.operation == "CREATE_SUBSCRIPTION")
        #expect(request.bytes.count == 406)
        #expect(request.contiguousTextStart == 187)
        #expect(request.payloadOffsets.count == 544)
        #expect(request.json.diagnostics.isEmpty)
    }

    @Test func keyIDFromAppStoreConnectFileNames() {
        #expect(DeveloperKey.keyID(fromFileName: "/keys/SubscriptionKey_2X9R4HXF34.p8") == "2X9R4HXF34")
        #expect(DeveloperKey.keyID(fromFileName: "AuthKey_ABC123.p8") == "ABC123")
        #expect(DeveloperKey.keyID(fromFileName: "SubscriptionKey_.p8") == nil)
        #expect(DeveloperKey.keyID(fromFileName: "key.p8") == nil)
        #expect(DeveloperKey.keyID(fromFileName: "SubscriptionKey_AB-C.p8") == nil)
    }

    @Test("the .p8 and its PEM public key give the same public key; the file's bytes are overwritten")
    func keyLoading() throws {
        var p8 = try Paths.sample("developer/SubscriptionKey_TESTKEY001.p8")
        let fromPrivate = try DeveloperKey.load(&p8, fileName: "SubscriptionKey_TESTKEY001.p8")
        #expect(p8.allSatisfy { $0 == 0 })
        #expect(fromPrivate.source == .privateKey)
        #expect(fromPrivate.keyIDFromName == "TESTKEY001")
        var pem = try Paths.sample("developer/test-developer-key-TESTKEY001.pub.pem")
        let fromPublic = try DeveloperKey.load(&pem, fileName: "test-developer-key-TESTKEY001.pub.pem")
        #expect(fromPublic.source == .publicKey)
        #expect(fromPublic.keyIDFromName == nil)
        #expect(fromPublic.publicKeyDER == fromPrivate.publicKeyDER)
        #expect(fromPublic.publicKeyDER.count == 91)  // SubjectPublicKeyInfo of an uncompressed P-256 point
        var p384 = try Paths.sample("pki/test-only-ec-root.key")
        #expect(throws: DeveloperKey.LoadError(description: "the key is secp384r1, not P-256: In-App Purchase keys are ES256 (P-256)")) {
            try DeveloperKey.load(&p384, fileName: "root.key")
        }
    }

    /// FuzzKeys (its first run, 2026-11-30): one base64 character of the .p8's private value changed
    /// ("uk8LzoZkNf" → "uk8Lzo+kNf") left the public key it carries as it was. OpenSSL read both, so
    /// `--key` checked with the file's public key while `api` would have signed with another one.
    @Test("a .p8 whose private value no longer matches its public key is refused by both readers")
    func mismatchedKeyPair() throws {
        let good = try Paths.sample("developer/SubscriptionKey_TESTKEY001.p8")
        let text = String(decoding: good, as: UTF8.self)
        #expect(text.contains("uk8LzoZkNf"))
        let damaged = Array(text.replacingOccurrences(of: "uk8LzoZkNf", with: "uk8Lzo+kNf").utf8)
        let why = "the private key does not match the public key the file carries: the file is damaged or was edited"
        var forKey = damaged
        #expect(throws: DeveloperKey.LoadError(description: why)) { try DeveloperKey.load(&forKey, fileName: "SubscriptionKey_TESTKEY001.p8") }
        #expect(forKey.allSatisfy { $0 == 0 })
        var forSigner = damaged
        #expect(throws: DeveloperKey.LoadError(description: why)) { try DeveloperSigner.load(&forSigner, fileName: "SubscriptionKey_TESTKEY001.p8") }
        #expect(forSigner.allSatisfy { $0 == 0 })
        // The intact file still reads, and what it signs its own public key verifies.
        var intact = good
        let signer = try DeveloperSigner.load(&intact, fileName: "SubscriptionKey_TESTKEY001.p8")
        intact = good
        let key = try DeveloperKey.load(&intact, fileName: "SubscriptionKey_TESTKEY001.p8")
        let message = Array("eyJhbGciOiJFUzI1NiJ9.e30".utf8)
        let der = try #require(signer.sign(message).flatMap(ES256Signature.der(fromRaw:)))
        #expect(ES256Signature.verify(message: message[...], derSignature: der, developerKey: key) == nil)
        #expect(ES256Signature.verify(message: message.dropLast(), derSignature: der, developerKey: key) == .developerSignatureMismatch)
    }

    @Test func lowercaseUUIDs() {
        #expect(DeveloperVerifier.isLowercaseUUID("cfb43594-4f92-4fe2-8b06-d947a848adaa"))
        #expect(!DeveloperVerifier.isLowercaseUUID("CFB43594-4F92-4FE2-8B06-D947A848ADAA"))
        #expect(!DeveloperVerifier.isLowercaseUUID("cfb435944f924fe28b06d947a848adaa"))
        #expect(!DeveloperVerifier.isLowercaseUUID("cfb43594-4f92-4fe2-8b06-d947a848adag"))
    }

    @Test("claims judged at a moment: iat in the future, exp passed, lifetime over 60 minutes")
    func claimChecks() throws {
        var p8 = try Paths.sample("developer/SubscriptionKey_TESTKEY001.p8")
        let key = try DeveloperKey.load(&p8, fileName: "SubscriptionKey_TESTKEY001.p8")
        let bearer = try Self.token("server-api-token.jws")
        func status(_ step: JWSStep, at: String) -> JWSStepStatus? {
            let date = ISO8601DateFormatter().date(from: at)!
            return DeveloperVerifier.verify(bearer, kind: .serverAPIToken, options: DeveloperVerificationOptions(key: key, keyID: "TESTKEY001", at: date)).status(step)
        }
        #expect(status(.issuedAt, at: "2024-03-01T11:59:59Z") == .failed(.issuedInFuture(issued: Date(timeIntervalSince1970: 1709294400),
                                                                                          at: Date(timeIntervalSince1970: 1709294399))))
        #expect(status(.expiry, at: "2024-03-01T12:19:59Z") == .passed)
        #expect(status(.expiry, at: "2024-03-01T12:20:00Z") == .failed(.expiredAt(expires: Date(timeIntervalSince1970: 1709295600),
                                                                                   at: Date(timeIntervalSince1970: 1709295600))))
        #expect(status(.lifetime, at: "2024-03-01T12:10:00Z") == .passed)
        #expect(status(.signature, at: "2024-03-01T12:10:00Z") == .passed)
        let long = try Self.token("server-api-token-lifetime-61-minutes.jws")
        let report = DeveloperVerifier.verify(long, kind: .serverAPIToken, options: DeveloperVerificationOptions(key: key, at: Date(timeIntervalSince1970: 1709295000)))
        #expect(report.status(.lifetime) == .failed(.lifetimeTooLong(seconds: 3660)))
        #expect(report.status(.keyID) == .notChecked(.noKeyID))
        #expect(!report.isValid)
        let unkeyed = DeveloperVerifier.verify(bearer, kind: .serverAPIToken, options: DeveloperVerificationOptions(at: Date(timeIntervalSince1970: 1709295000)))
        #expect(unkeyed.needsDeveloperKey)
        #expect(unkeyed.firstFailure == nil)
        #expect(!unkeyed.isValid)
    }
}
