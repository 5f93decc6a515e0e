import Foundation
import JWSKit
import ReceiptKit
import Testing
import TestSupport

/// Every JWS in samples/jws verifies, or fails at exactly the step and reason samples/manifest.json records.
@Suite
struct SampleVerificationTests {
    static let now = Date()

    /// The tokens of a sample file (a history response holds several).
    static func tokens(_ file: String) throws -> [SplitToken] {
        let bytes = try Paths.sample(file)
        if file.hasSuffix(".json") {
            let body = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            return (body?["signedTransactions"] as? [String] ?? []).map(SplitToken.init)
        }
        return [SplitToken(String(decoding: bytes, as: UTF8.self))]
    }

    /// `signedDate` is nil for a sample without one (notification-no-signed-date.jws).
    static func facts(_ file: String) -> (claims: JWSClaims, signedDate: Date?, steps: [String: String],
                                         verification: [String: Any], root: String) {
        let e = JWSSampleManifest.entry(file)
        let c = e["claims"] as? [String: Any] ?? [:]
        let claims = JWSClaims(bundleID: c["bundleId"] as? String, environment: c["environment"] as? String,
                               appAppleID: (c["appAppleId"] as? NSNumber)?.int64Value)
        let ms = (e["signed_date_ms"] as? NSNumber)?.doubleValue
        let v = e["verification"] as? [String: Any] ?? [:]
        return (claims, ms.map { Date(timeIntervalSince1970: $0 / 1000) }, v["steps"] as? [String: String] ?? [:], v,
                v["root"] as? String ?? "")
    }

    static func report(_ token: SplitToken, _ file: String, roots: [[UInt8]]? = nil) throws -> JWSVerificationReport {
        let f = facts(file)
        let rootBytes = try roots ?? [Paths.bytes(Paths.packageRoot.appendingPathComponent(f.root))]
        let options = JWSVerificationOptions(roots: rootBytes, expectedBundleID: f.claims.bundleID,
                                             expectedEnvironment: f.claims.environment,
                                             expectedAppAppleID: f.claims.appAppleID, now: now)
        return JWSVerifier.verify(token.input(signedDate: f.signedDate, claims: f.claims, options: options))
    }

    @Test("manifest lists the 19 JWS samples")
    func manifestHasEverySample() {
        #expect(JWSSampleManifest.files.count == 19)
        #expect(JWSSampleManifest.files.contains("jws/malformed-x5c-wrong-order.jws"))
    }

    @Test("each sample: every step as the manifest says, first failure and its reason code",
          arguments: JWSSampleManifest.files)
    func stepsMatchManifest(file: String) throws {
        let f = Self.facts(file)
        let tokens = try Self.tokens(file)
        #expect(!tokens.isEmpty)
        for token in tokens {
            let report = try Self.report(token, file)
            #expect(report.keywords == f.steps, "\(file)")
            #expect(report.firstFailure?.step.rawValue == f.verification["failing_step"] as? String, "\(file)")
            #expect(report.failureCode == f.verification["reason"] as? String, "\(file)")
            #expect(report.isValid == (f.verification["verdict"] as? String == "valid"))
            #expect(!report.isAppleSigned, "a TEST-PKI sample must never read as Apple-signed")
            #expect(report.status(.revocation) == .notChecked(.revocationOffline))
        }
    }

    @Test("without a supplied root every sample's root step fails: the TEST root is not pinned",
          arguments: JWSSampleManifest.files)
    func withoutRootTheRootStepFails(file: String) throws {
        for token in try Self.tokens(file) {
            let report = try Self.report(token, file, roots: [])
            let expected = Self.facts(file).verification["without_root"] as? [String: String] ?? [:]
            let root = try #require(report.status(.root))
            #expect(root.keyword == expected["root"])
            switch root {
            case .failed(let f):
                #expect(f.code.rawValue == expected["reason"])
                if case .rootNotPinned(let sha, let subject) = f {
                    #expect(sha == fingerprintHex(try Paths.sample("pki/test-ec-root.cer")))
                    #expect(subject == "CN=receipt-explorer TEST ECC Root CA,OU=TEST ONLY - not Apple,O=receipt-explorer TEST,C=US")
                }
            case .notChecked(let skip): #expect(skip.code.rawValue == expected["reason"])
            case .passed: Issue.record("a TEST root must not pass unsupplied")
            }
            #expect(report.anchor == nil)
        }
    }

    @Test("valid samples are anchored at the supplied TEST root, by fingerprint")
    func validAnchor() throws {
        let root = try Paths.sample("pki/test-ec-root.cer")
        let report = try Self.report(Self.tokens("jws/transaction.jws")[0], "jws/transaction.jws")
        #expect(report.anchor == .userSupplied(sha256: fingerprintHex(root)))
        #expect(report.chainKind == .threeCertificates)
        #expect(report.certificates.map { $0?.commonName } == [
            "receipt-explorer TEST ECC StoreKit Signing", "receipt-explorer TEST ECC WWDR-like Intermediate",
            "receipt-explorer TEST ECC Root CA"])
        #expect(report.signatureDER?.first == 0x30)
    }

    @Test("alg none and HS256 are refused by name, and no ES256 check is attempted")
    func algorithmConfusion() throws {
        let none = try Self.report(Self.tokens("jws/malformed-alg-none.jws")[0], "jws/malformed-alg-none.jws")
        #expect(none.status(.algorithm) == .failed(.algorithmNone))
        #expect(none.status(.signature) == .notChecked(.algorithmRejected))
        let hs = try Self.report(Self.tokens("jws/malformed-alg-hs256.jws")[0], "jws/malformed-alg-hs256.jws")
        #expect(hs.status(.algorithm) == .failed(.algorithmSymmetric("HS256")))
    }

    @Test("reversed x5c: the order that links is named; x5c[0] is then the P-384 root, not a P-256 key")
    func wrongOrder() throws {
        let file = "jws/malformed-x5c-wrong-order.jws"
        let report = try Self.report(Self.tokens(file)[0], file)
        #expect(report.status(.chain) == .failed(.wrongOrder(expected: [2, 1, 0])))
        #expect(report.status(.signature) == .failed(.leafKeyNotP256(curve: "secp384r1")))
        #expect(JWSSampleManifest.entry(file)["signature_reason"] as? String == "leaf-key-not-p256")
    }

    @Test("DER and truncated signatures get their own reasons, with the byte count")
    func signatureShapes() throws {
        let derFile = "jws/malformed-der-signature.jws"
        let derLength = (JWSSampleManifest.entry(derFile)["signature_length"] as? NSNumber)?.intValue ?? -1
        let der = try Self.report(Self.tokens(derFile)[0], derFile)
        #expect(der.status(.signature) == .failed(.signatureIsDER(length: derLength)))
        #expect((70...72).contains(derLength))
        let cut = "jws/malformed-truncated-signature.jws"
        let truncated = try Self.report(Self.tokens(cut)[0], cut)
        #expect(truncated.status(.signature) == .failed(.signatureTruncated(length: 63)))
        let tampered = "jws/malformed-tampered-payload.jws"
        #expect(try Self.report(Self.tokens(tampered)[0], tampered).status(.signature) == .failed(.signatureMismatch))
    }

    @Test("leaf without 1.2.840.113635.100.6.11.1; leaf expired before signedDate")
    func markerAndExpiry() throws {
        let marker = "jws/malformed-leaf-without-marker.jws"
        #expect(try Self.report(Self.tokens(marker)[0], marker).status(.leafMarker)
                == .failed(.leafMarkerMissing(oid: "1.2.840.113635.100.6.11.1")))
        let expired = "jws/malformed-expired-at-signed-date.jws"
        let report = try Self.report(Self.tokens(expired)[0], expired)
        let signedDate = Self.facts(expired).signedDate
        guard case .failed(.certificatesNotValid(let at, let problems))? = report.status(.validityAtSignedDate) else {
            Issue.record("expected certificatesNotValid, got \(String(describing: report.status(.validityAtSignedDate)))")
            return
        }
        #expect(at == signedDate)
        #expect(problems.count == 1)
        #expect(problems.first?.x5cIndex == 0)
        #expect(problems.first?.kind == .expired)
        #expect(problems.first?.notAfter == Date(timeIntervalSince1970: 1_451_606_400))  // 2016-01-01
    }

    @Test("a leaf that expired before signedDate fails both validity steps, judged today = 2026-01-01; only signedDate decides")
    func expiredBeforeSignedDate() throws {
        let file = "jws/malformed-expired-at-signed-date.jws"
        let f = Self.facts(file)
        let root = try Paths.sample("pki/test-ec-root.cer")
        let options = JWSVerificationOptions(roots: [root], expectedBundleID: f.claims.bundleID,
                                             now: Date(timeIntervalSince1970: 1_767_225_600))
        let report = JWSVerifier.verify(try Self.tokens(file)[0].input(signedDate: f.signedDate, claims: f.claims,
                                                                       options: options))
        #expect(report.steps.map(\.step) == [.algorithm, .chain, .root, .leafMarker, .intermediateMarker, .validityAtSignedDate,
                                             .validityToday, .signature, .bundleID, .environment, .appAppleID, .revocation])
        // Both validity steps name the leaf alone, expired 2016-01-01, at signedDate and at today.
        for (step, at) in [(JWSStep.validityAtSignedDate, 1_709_294_400.0), (.validityToday, 1_767_225_600)] {
            guard case .failed(.certificatesNotValid(let when, let problems))? = report.status(step) else {
                Issue.record("\(step): \(String(describing: report.status(step)))")
                continue
            }
            #expect(when == Date(timeIntervalSince1970: at))
            #expect(problems.map(\.x5cIndex) == [0])
            #expect(problems.map(\.kind) == [.expired])
            #expect(problems.map(\.notAfter) == [Date(timeIntervalSince1970: 1_451_606_400)])
        }
        #expect(report.status(.environment) == .notChecked(.noExpectation))
        #expect(report.decidingSteps.map(\.step).contains(.validityAtSignedDate))
        #expect(!report.decidingSteps.map(\.step).contains(.validityToday))
        #expect(report.anchor == .userSupplied(sha256: fingerprintHex(root)))
        #expect(report.firstFailure?.step == .validityAtSignedDate)
    }

    @Test("the Xcode-style token is labelled StoreKit Testing and is not Apple-signed even when trusted")
    func xcodeStyle() throws {
        let file = "jws/xcode-transaction.jws"
        let anchor = try Paths.sample("pki/test-ec-xcode.cer")
        let report = try Self.report(Self.tokens(file)[0], file)
        #expect(report.chainKind == .xcodeStoreKitTesting)
        #expect(report.isValid)
        #expect(!report.isAppleSigned)
        #expect(report.anchor == .userSupplied(sha256: fingerprintHex(anchor)))
        #expect(report.status(.leafMarker) == .notChecked(.xcodeSingleCertificate))
    }

    @Test("the notification's nested tokens verify, and agree with its data")
    func notificationNested() throws {
        let file = "jws/notification.jws"
        let token = try Self.tokens(file)[0]
        let data = token.payload?["data"] as? [String: Any] ?? [:]
        var nested: [JWSNotificationConsistency.Nested] = []
        for field in ["signedTransactionInfo", "signedRenewalInfo"] {
            let inner = SplitToken(data[field] as? String ?? "")
            let same = field == "signedTransactionInfo" ? "jws/transaction.jws" : "jws/renewal-info.jws"
            let report = try Self.report(inner, same)
            #expect(report.isValid, "\(field)")
            nested.append(.init(token: field, bundleID: inner.payload?["bundleId"] as? String,
                                environment: inner.payload?["environment"] as? String))
        }
        let check = JWSNotificationConsistency.check(bundleID: data["bundleId"] as? String,
                                                     environment: data["environment"] as? String, nested: nested)
        #expect(check == JWSStepResult(.nestedConsistency, .passed))
        let report = try Self.report(token, file).adding(check)
        #expect(report.steps.map(\.step).suffix(2) == [.nestedConsistency, .revocation])
    }

    @Test("expectations that differ from the payload fail with both values")
    func claimMismatch() throws {
        let token = try Self.tokens("jws/app-transaction.jws")[0]
        let options = JWSVerificationOptions(roots: [try Paths.sample("pki/test-ec-root.cer")],
                                             expectedBundleID: "com.example.other", expectedEnvironment: "production",
                                             expectedAppAppleID: 1, now: Self.now)
        let claims = JWSClaims(bundleID: "com.example.receiptexplorer", environment: "Sandbox", appAppleID: 1450000001)
        let report = JWSVerifier.verify(token.input(signedDate: token.signedDate, claims: claims, options: options))
        #expect(report.status(.bundleID) == .failed(.claimMismatch(expected: "com.example.other",
                                                                   found: "com.example.receiptexplorer")))
        #expect(report.status(.environment) == .failed(.claimMismatch(expected: "production", found: "Sandbox")))
        #expect(report.status(.appAppleID) == .failed(.claimMismatch(expected: "1", found: "1450000001")))
        #expect(report.firstFailure?.step == .bundleID)
    }
}
