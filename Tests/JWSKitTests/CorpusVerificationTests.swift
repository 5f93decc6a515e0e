import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport
import X509Trust

/// The real tokens of ../shared/corpus/jws (facts in its MANIFEST.md).
@Suite(.enabled(if: Paths.jwsCorpusAvailable))
struct CorpusVerificationTests {

    static func token(_ name: String) throws -> SplitToken {
        SplitToken(String(decoding: try Paths.bytes(Paths.jws.appendingPathComponent(name)), as: UTF8.self))
    }

    /// Claims the way a decoder would hand them over: a notification's live in `data`.
    static func claims(_ t: SplitToken) -> JWSClaims {
        let source = (t.payload?["data"] as? [String: Any]) ?? t.payload ?? [:]
        return JWSClaims(bundleID: source["bundleId"] as? String,
                         environment: (source["environment"] ?? source["receiptType"]) as? String,
                         appAppleID: (source["appAppleId"] as? NSNumber)?.int64Value)
    }

    static func verify(_ t: SplitToken, roots: [[UInt8]] = [], expect: Bool = true,
                       now: Date = Date()) -> JWSVerificationReport {
        let c = claims(t)
        let options = JWSVerificationOptions(roots: roots, expectedBundleID: expect ? c.bundleID : nil,
                                             expectedEnvironment: expect ? c.environment : nil,
                                             expectedAppAppleID: expect ? c.appAppleID : nil, now: now)
        return JWSVerifier.verify(t.input(signedDate: t.signedDate, claims: c, options: options))
    }

    @Test("the hard-coded pin is the SHA-256 of Apple Root CA - G3 (and ReceiptKit's pin)")
    func pinMatchesCertificate() throws {
        let der = try Paths.bytes(Paths.certs.appendingPathComponent("AppleRootCA-G3.cer"))
        #expect(fingerprintHex(der) == JWSPins.appleRootCAG3)
        #expect(TrustAnchors.kind(forSHA256: JWSPins.appleRootCAG3) == .appleRootCAG3)
    }

    @Test("Apple-signed tokens verify to the pinned Apple Root CA - G3 at signedDate; at a fixed today (2030-01-01) they fail only by leaf expiry",
          arguments: CorpusTokens.appleSigned)
    func appleSignedVerify(name: String) throws {
        let t = try Self.token(name)
        // A fixed today after every corpus leaf's notAfter (the latest is 2027-10-13) and before the
        // intermediate's (2036): the same branch runs on every day the suite runs.
        let report = Self.verify(t, now: Self.afterEveryLeafExpired)
        #expect(t.signedDate != nil)
        #expect(report.isValid, "\(report.steps)")
        #expect(report.isAppleSigned)
        #expect(report.anchor == .appleRootCAG3)
        #expect(report.certificates.last??.sha256Fingerprint == JWSPins.appleRootCAG3)
        #expect(report.certificates.first??.commonName == "Prod ECC Mac App Store and iTunes Store Receipt Signing")
        for step in [JWSStep.algorithm, .chain, .root, .leafMarker, .intermediateMarker, .validityAtSignedDate, .signature] {
            #expect(report.status(step) == .passed, "\(step)")
        }
        // Claims were expected as the payload states them; a renewal info has no bundleId, older ones no appAppleId.
        let c = Self.claims(t)
        for (step, claim) in [(JWSStep.bundleID, c.bundleID), (.environment, c.environment), (.appAppleID, c.appAppleID.map(String.init))] {
            #expect(report.status(step) == (claim == nil ? .notChecked(.noExpectation) : .passed), "\(step)")
        }
        #expect(c.environment != nil)
        let leafNotAfter = try #require(report.certificates[0]?.notAfter)
        #expect(leafNotAfter < Self.afterEveryLeafExpired)
        let today = report.status(.validityToday)
        guard case .failed(.certificatesNotValid(_, let problems))? = today else {
            Issue.record("expected the leaf's expiry today, got \(String(describing: today))")
            return
        }
        #expect(problems.map(\.x5cIndex) == [0])
        #expect(problems.map(\.kind) == [.expired])
    }

    /// 2030-01-01T00:00:00Z.
    static let afterEveryLeafExpired = Date(timeIntervalSince1970: 1_893_456_000)

    @Test("MANIFEST's 'at today's date' facts, judged at a fixed today (2026-01-01) so they cannot go stale")
    func todayFacts() throws {
        let today = Date(timeIntervalSince1970: 1_767_225_600)
        let stillValid = try CorpusTokens.appleSigned.filter {
            Self.verify(try Self.token($0), now: today).status(.validityToday) == .passed
        }
        #expect(stillValid == [
            "notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws",
            "notification-sandbox-com.loki-project.loki-messenger-2025-10-02-SUBSCRIBED-RESUBSCRIBE.jws",
            "renewal-sandbox-com.loki-project.loki-messenger-2025-10-02-autorenew-off.jws",
            "transaction-sandbox-com.loki-project.loki-messenger-2025-10-01-RENEWAL.jws",
        ])
    }

    @Test("nested tokens of the DID_RENEW notification verify on their own and agree with its data")
    func nestedNotification() throws {
        let t = try Self.token("notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws")
        let data = try #require(t.payload?["data"] as? [String: Any])
        var nested: [JWSNotificationConsistency.Nested] = []
        for field in ["signedTransactionInfo", "signedRenewalInfo"] {
            let inner = SplitToken(try #require(data[field] as? String))
            #expect(Self.verify(inner).isAppleSigned, "\(field)")
            nested.append(.init(token: field, bundleID: inner.payload?["bundleId"] as? String,
                                environment: inner.payload?["environment"] as? String))
        }
        #expect(JWSNotificationConsistency.check(bundleID: "com.loki-project.loki-messenger", environment: "Sandbox",
                                                 nested: nested).status == .passed)
        let wrong = JWSNotificationConsistency.check(bundleID: "com.example.other", environment: "Sandbox", nested: nested)
        #expect(wrong.status == .failed(.nestedDisagrees([
            JWSNestedMismatch(token: "signedTransactionInfo", field: .bundleID, notification: "com.example.other",
                              nested: "com.loki-project.loki-messenger")])))
    }

    @Test("Xcode tokens: labelled StoreKit Testing, signature good, not trusted without a root, never Apple-signed",
          arguments: CorpusTokens.xcode)
    func xcodeTokens(name: String) throws {
        let t = try Self.token(name)
        let report = Self.verify(t)
        #expect(report.chainKind == .xcodeStoreKitTesting)
        #expect(report.status(.chain) == .passed)
        #expect(report.status(.signature) == .passed)
        #expect(report.status(.root) == .failed(.xcodeTestingNotTrusted))
        #expect(!report.isAppleSigned)
        let own = try #require(t.x5c.first)
        let trusted = Self.verify(t, roots: [own])
        #expect(trusted.status(.root) == .passed)
        #expect(trusted.anchor == .userSupplied(sha256: fingerprintHex(own)))
        #expect(!trusted.isAppleSigned)
        // Xcode's certificate lives a year (2023-10-19 … 2024-10-18): judged at signedDate where there is one.
        #expect(trusted.status(.validityAtSignedDate) == (t.signedDate == nil ? .notChecked(.noSignedDate) : .passed))
    }

    @Test("Apple test-CA tokens fail the pin, and pass with apple-testCA.der as the root", arguments: CorpusTokens.testCA)
    func testCATokens(name: String) throws {
        let t = try Self.token(name)
        let pinned = Self.verify(t)
        #expect(pinned.status(.root) == .failed(.rootNotPinned(sha256: fingerprintHex(t.x5c[2]),
                                                                     subject: "L=Cupertino,ST=California,C=US")))
        #expect(!pinned.isValid)
        let root = try Paths.bytes(Paths.jws.appendingPathComponent("testca/apple-testCA.der"))
        let report = Self.verify(t, roots: [root])
        #expect(report.isValid, "\(report.steps)")
        #expect(report.anchor == .userSupplied(sha256: fingerprintHex(root)))
        #expect(!report.isAppleSigned)
        #expect(report.status(.leafMarker) == .passed)
        #expect(report.status(.intermediateMarker) == .passed)
    }

    @Test("a PEM copy of the root is accepted as well as DER")
    func pemRoot() throws {
        let der = try Paths.bytes(Paths.jws.appendingPathComponent("testca/apple-testCA.der"))
        let b64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let pem = Array("-----BEGIN CERTIFICATE-----\n\(b64)\n-----END CERTIFICATE-----\n".utf8)
        let report = Self.verify(try Self.token(CorpusTokens.testCA[1]), roots: [pem])
        #expect(report.anchor == .userSupplied(sha256: fingerprintHex(der)))
        let junk = Self.verify(try Self.token(CorpusTokens.testCA[1]), roots: [Array("not a certificate".utf8)])
        #expect(junk.status(.root) == .failed(.userRootUnreadable(index: 0)))
    }
}
