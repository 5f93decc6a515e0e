#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `DeveloperVerifier` compares a developer-signed token with.
public struct DeveloperVerificationOptions: Sendable {
    /// The developer's key; nil: the signature is not checked and the verdict asks for the key.
    public var key: DeveloperKey?
    /// The `kid` the header must carry: given, or from the key file's name.
    public var keyID: String?
    public var expectedBundleID: String?
    /// The moment `iat` and `exp` are judged at.
    public var at: Date

    public init(key: DeveloperKey? = nil, keyID: String? = nil, expectedBundleID: String? = nil, at: Date = Date()) {
        self.key = key
        self.keyID = keyID
        self.expectedBundleID = expectedBundleID
        self.at = at
    }
}

/// Verifies a JWS signed by the developer's In-App Purchase key the way Apple does before honouring
/// it: ES256 under the key the header's `kid` names, the `aud` of its kind, `iat` not in the future,
/// `exp` not passed (and for an App Store Server API token at most 60 minutes after `iat`), `bid`,
/// and a lowercase UUID `nonce`. Never throws: every outcome is a step of a `JWSVerificationReport`.
public enum DeveloperVerifier {
    public static func verify(_ document: JWSDocument, kind: DeveloperTokenKind, options: DeveloperVerificationOptions) -> JWSVerificationReport {
        let payload = document.payload
        let algorithm = JWSVerifier.algorithm(document.header.alg)
        var steps = [
            JWSStepResult(.algorithm, algorithm),
            JWSStepResult(.keyID, keyID(document.header.kid, expected: options.keyID)),
            JWSStepResult(.signature, signature(document, algorithm: algorithm, key: options.key)),
            JWSStepResult(.audience, JWSVerifier.claim(expected: kind.audience, found: payload.string("aud"), ==)),
        ]
        let issued = seconds(payload, "iat")
        let expires = seconds(payload, "exp")
        steps.append(JWSStepResult(.issuedAt, issuedAt(issued, at: options.at)))
        steps.append(JWSStepResult(.expiry, expiry(expires, kind: kind, at: options.at)))
        if kind.requiresExpiry { steps.append(JWSStepResult(.lifetime, lifetime(issued: issued, expires: expires))) }
        steps.append(JWSStepResult(.bundleID, JWSVerifier.claim(expected: options.expectedBundleID, found: payload.string("bid"), ==)))
        steps.append(JWSStepResult(.nonce, nonce(payload, kind: kind)))
        var report = JWSVerificationReport(steps: steps, certificates: [], chainKind: .missing, anchor: nil,
                                           signatureDER: document.signatureBytes.count == ES256Signature.rawLength
                                               ? ES256Signature.der(fromRaw: document.signatureBytes) : nil)
        report.developerKey = options.key
        return report
    }

    /// A claim in seconds: its value, or the failure its absence or type is.
    enum Claim { case value(Int64), missing, unreadable(String) }

    static func seconds(_ payload: StoreKitPayload, _ name: String) -> Claim {
        switch payload.value(name) {
        case .seconds(let s, _)?: .value(s)
        case nil: .missing
        case let other?: .unreadable(other.display)
        }
    }

    static func date(_ s: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(s)) }

    static func keyID(_ kid: String?, expected: String?) -> JWSStepStatus {
        guard let kid else { return .failed(.keyIDMissing) }
        guard let expected else { return .notChecked(.noKeyID) }
        return kid == expected ? .passed : .failed(.keyIDMismatch(expected: expected, found: kid))
    }

    static func signature(_ document: JWSDocument, algorithm: JWSStepStatus, key: DeveloperKey?) -> JWSStepStatus {
        guard algorithm == .passed else { return .notChecked(.algorithmRejected) }
        guard let key else { return .notChecked(.developerKeyNeeded) }
        let raw = document.signatureBytes
        if let problem = ES256Signature.shapeProblem(raw) { return .failed(problem) }
        guard let der = ES256Signature.der(fromRaw: raw) else { return .failed(.signatureEmpty) }
        return ES256Signature.verify(message: document.signingInput, derSignature: der, developerKey: key).map { .failed($0) } ?? .passed
    }

    static func issuedAt(_ issued: Claim, at: Date) -> JWSStepStatus {
        switch issued {
        case .missing: return .failed(.claimMissing)
        case .unreadable(let text): return .failed(.claimUnreadable(found: text))
        case .value(let s): return date(s) > at ? .failed(.issuedInFuture(issued: date(s), at: at)) : .passed
        }
    }

    static func expiry(_ expires: Claim, kind: DeveloperTokenKind, at: Date) -> JWSStepStatus {
        switch expires {
        case .missing: return kind.requiresExpiry ? .failed(.claimMissing) : .notChecked(.claimNotInDeveloperKind(kind: kind, claim: "exp"))
        case .unreadable(let text): return .failed(.claimUnreadable(found: text))
        case .value(let s): return date(s) <= at ? .failed(.expiredAt(expires: date(s), at: at)) : .passed
        }
    }

    /// Apple's App Store Server API refuses a token whose `exp` is more than 60 minutes after `iat`.
    static let maximumLifetime: Int64 = 60 * 60

    static func lifetime(issued: Claim, expires: Claim) -> JWSStepStatus {
        guard case .value(let i) = issued, case .value(let e) = expires else { return .notChecked(.lifetimeUnknown) }
        if e <= i { return .failed(.expiresBeforeIssued(issued: date(i), expires: date(e))) }
        return e - i > maximumLifetime ? .failed(.lifetimeTooLong(seconds: e - i)) : .passed
    }

    static func nonce(_ payload: StoreKitPayload, kind: DeveloperTokenKind) -> JWSStepStatus {
        guard kind.hasNonce else {
            return payload.value("nonce") == nil ? .notChecked(.claimNotInDeveloperKind(kind: kind, claim: "nonce")) : .passed
        }
        guard let value = payload.value("nonce") else { return .failed(.claimMissing) }
        guard case .string(let nonce) = value else { return .failed(.claimUnreadable(found: value.display)) }
        return isLowercaseUUID(nonce) ? .passed : .failed(.nonceNotLowercaseUUID(nonce))
    }

    /// 8-4-4-4-12 hexadecimal digits, lowercase.
    public static func isLowercaseUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) } }
    }
}

extension JWSVerificationReport {
    /// A developer-signed token with `--environment` / `--app-apple-id` given: it carries neither
    /// claim, so each is a step that says so rather than an expectation dropped in silence.
    public func expecting(environment: String?, appAppleID: Int64?, kind: DeveloperTokenKind) -> JWSVerificationReport {
        var report = self
        if environment != nil {
            report.steps.append(JWSStepResult(.environment, .notChecked(.claimNotInDeveloperKind(kind: kind, claim: "environment"))))
        }
        if appAppleID != nil {
            report.steps.append(JWSStepResult(.appAppleID, .notChecked(.claimNotInDeveloperKind(kind: kind, claim: "appAppleId"))))
        }
        return report
    }
}
