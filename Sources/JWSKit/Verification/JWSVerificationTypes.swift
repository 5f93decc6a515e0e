#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

// The verifier's inputs and outputs. Inputs are plain values (bytes, strings, dates) so any decoder
// can call it; outputs are typed: a step, a status, and for failures and skips an enum case with the
// facts as associated values. JWSKit writes no words: they live in DocumentModel/Report/Wording.

/// The payload claims the verifier compares with expectations (plain values from the decoded payload).
public struct JWSClaims: Sendable, Equatable {
    public var bundleID: String?
    /// `environment`, or `receiptType` for an AppTransaction.
    public var environment: String?
    public var appAppleID: Int64?
    /// The payload's kind, when its schema says which claims it can carry: an expectation for a
    /// claim the kind never carries (a renewal info's bundleId, a transaction's appAppleId) is not
    /// checked, with that reason, rather than failed.
    public var kind: StoreKitPayloadKind?

    public init(bundleID: String? = nil, environment: String? = nil, appAppleID: Int64? = nil,
                kind: StoreKitPayloadKind? = nil) {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.kind = kind
    }

    /// The payload field a claim step compares: "bundleId", "environment" ("receiptType" in an app
    /// transaction), "appAppleId".
    public static func field(_ step: JWSStep, kind: StoreKitPayloadKind?) -> String? {
        switch step {
        case .bundleID: "bundleId"
        case .environment: kind == .appTransaction ? "receiptType" : "environment"
        case .appAppleID: "appAppleId"
        default: nil
        }
    }

    /// Whether the kind's schema has the field `step` compares (a notification's are in data or
    /// summary, and an unrecognised payload's are unknown: both count as carried).
    public func carries(_ step: JWSStep) -> Bool {
        guard let kind, kind != .notification, kind != .unknown, let field = Self.field(step, kind: kind) else { return true }
        return StoreKitSchema.fields(of: kind).contains { $0.name == field }
    }
}

public struct JWSVerificationOptions: Sendable {
    /// User-supplied trust anchors, read once for every verification made with these options (or a copy).
    public var anchors: TrustAnchorSet
    /// The anchors' files: each element is a file's bytes, DER or PEM (several PEM blocks allowed).
    public var roots: [[UInt8]] {
        get { anchors.files }
        set { anchors = TrustAnchorSet(files: newValue) }
    }
    public var expectedBundleID: String?
    public var expectedEnvironment: String?
    public var expectedAppAppleID: Int64?
    /// "Today", for the second validity line.
    public var now: Date

    public init(roots: [[UInt8]] = [], expectedBundleID: String? = nil, expectedEnvironment: String? = nil,
                expectedAppAppleID: Int64? = nil, now: Date = Date()) {
        self.init(anchors: TrustAnchorSet(files: roots), expectedBundleID: expectedBundleID,
                  expectedEnvironment: expectedEnvironment, expectedAppAppleID: expectedAppAppleID, now: now)
    }

    /// `anchors` prepared by the caller, e.g. once for many documents (`AnalysisOptions.anchors`).
    public init(anchors: TrustAnchorSet, expectedBundleID: String? = nil, expectedEnvironment: String? = nil,
                expectedAppAppleID: Int64? = nil, now: Date = Date()) {
        self.anchors = anchors
        self.expectedBundleID = expectedBundleID
        self.expectedEnvironment = expectedEnvironment
        self.expectedAppAppleID = expectedAppAppleID
        self.now = now
    }
}

public struct JWSVerificationInput: Sendable {
    /// The ASCII text `header.payload` exactly as it appears in the token.
    public var signingInput: ArraySlice<UInt8>
    /// The base64url-decoded third segment, as is.
    public var signature: [UInt8]
    /// The header's `alg`; nil when absent (or not a string).
    public var alg: String?
    /// The header's `x5c` entries, base64-decoded, in token order; [] when absent. An entry that did
    /// not decode should be passed as [] so that its position is reported.
    public var x5c: [[UInt8]]
    /// The payload's `signedDate`; nil when absent.
    public var signedDate: Date?
    public var claims: JWSClaims
    public var options: JWSVerificationOptions

    public init(signingInput: ArraySlice<UInt8>, signature: [UInt8], alg: String?, x5c: [[UInt8]], signedDate: Date?,
                claims: JWSClaims = JWSClaims(), options: JWSVerificationOptions = JWSVerificationOptions()) {
        self.signingInput = signingInput
        self.signature = signature
        self.alg = alg
        self.x5c = x5c
        self.signedDate = signedDate
        self.claims = claims
        self.options = options
    }
}

/// The verification steps, in report order. The raw value is a stable identifier.
public enum JWSStep: String, Sendable, Equatable, CaseIterable {
    case algorithm
    case chain
    case root
    case leafMarker = "leaf-oid"
    case intermediateMarker = "intermediate-oid"
    case validityAtSignedDate = "time-signed-date"
    case validityToday = "time-today"
    /// Developer-signed JWS only: the header's `kid` against the key's id.
    case keyID = "kid"
    case signature
    // Developer-signed JWS only: the JWT claims Apple checks before honouring the token.
    case audience = "aud"
    case issuedAt = "iat"
    case expiry = "exp"
    case lifetime = "token-lifetime"
    case bundleID = "bundle-id"
    case environment
    case appAppleID = "app-apple-id"
    case nonce
    /// Only from `JWSNotificationConsistency`: a notification's data against its nested tokens.
    case nestedConsistency = "nested-consistency"
    case revocation
}

public enum JWSStepStatus: Sendable, Equatable {
    case passed
    case failed(JWSFailure)
    case notChecked(JWSSkip)

    public var isFailed: Bool { if case .failed = self { return true } else { return false } }
    /// "passed" / "failed" / "not-checked", as in samples/manifest.json.
    public var keyword: String {
        switch self {
        case .passed: return "passed"
        case .failed: return "failed"
        case .notChecked: return "not-checked"
        }
    }
}

public struct JWSStepResult: Sendable, Equatable {
    public var step: JWSStep
    public var status: JWSStepStatus
    public init(_ step: JWSStep, _ status: JWSStepStatus) {
        self.step = step
        self.status = status
    }
}

/// A certificate that is not valid at the date a step judges it at.
public struct JWSValidityProblem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case expired, notYetValid, unreadableDates }
    /// Position in `x5c`; nil for a user-supplied anchor that the token does not carry.
    public var x5cIndex: Int?
    public var label: String
    public var notBefore: Date?
    public var notAfter: Date?
    public var kind: Kind
}

/// A claim of a nested token that disagrees with its notification.
public struct JWSNestedMismatch: Sendable, Equatable {
    public enum Field: String, Sendable, Equatable { case bundleID = "bundleId", environment }
    /// The nested token's field name in `data`, e.g. "signedTransactionInfo".
    public var token: String
    public var field: Field
    public var notification: String
    public var nested: String

    public init(token: String, field: Field, notification: String, nested: String) {
        self.token = token
        self.field = field
        self.notification = notification
        self.nested = nested
    }
}

public enum JWSFailure: Sendable, Equatable {
    // algorithm
    case algorithmMissing
    case algorithmNone
    /// HS256/HS384/HS512: a shared-secret MAC, which anyone holding the public certificate could forge.
    case algorithmSymmetric(String)
    case algorithmNotES256(String)
    // chain
    case x5cMissing
    case certificateUnreadable(index: Int)
    case certificateCount(Int)
    /// The certificates link up, but only in the order given by `expected` (x5c indices, leaf first).
    case wrongOrder(expected: [Int])
    /// x5c[child]'s issuer is not x5c[child + 1]'s subject, and no other order links them.
    case issuerMismatch(child: Int, issuer: String, nextSubject: String)
    /// x5c[child]'s signature does not verify with x5c[child + 1]'s key.
    case linkSignatureInvalid(child: Int)
    case rootNotSelfSigned(index: Int)
    // root
    /// The root the chain ends at, named by its subject (a Huawei or test root is recognisable) and SHA-256.
    case rootNotPinned(sha256: String, subject: String)
    case xcodeTestingNotTrusted
    case userRootUnreadable(index: Int)
    case pathVerification(error: String, depth: Int)
    // markers
    case leafMarkerMissing(oid: String)
    case intermediateMarkerMissing(oid: String)
    // validity
    case certificatesNotValid(at: Date, [JWSValidityProblem])
    // signature
    case signatureEmpty
    case signatureIsDER(length: Int)
    case signatureTruncated(length: Int)
    case signatureTooLong(length: Int)
    case leafKeyNotP256(curve: String?)
    case signatureMismatch
    // developer-signed JWS
    case developerSignatureMismatch
    case keyIDMissing
    case keyIDMismatch(expected: String, found: String)
    case issuedInFuture(issued: Date, at: Date)
    case expiredAt(expires: Date, at: Date)
    case expiresBeforeIssued(issued: Date, expires: Date)
    /// A bearer token valid longer than Apple accepts (60 minutes).
    case lifetimeTooLong(seconds: Int64)
    case nonceNotLowercaseUUID(String)
    /// The claim is there but not of its type (a string `iat`, say).
    case claimUnreadable(found: String)
    // claims
    case claimMissing
    case claimMismatch(expected: String, found: String)
    case nestedDisagrees([JWSNestedMismatch])
}

public enum JWSSkip: Sendable, Equatable {
    /// No expectation was given for this claim.
    case noExpectation
    /// An expectation was given, but this kind of payload has no such field (Apple's verifier does
    /// not check it either): a renewal info's bundleId, a transaction's appAppleId.
    case claimNotInKind(kind: StoreKitPayloadKind, field: String)
    /// The header's `alg` is not ES256, so no ES256 verification was attempted.
    case algorithmRejected
    case noCertificates
    /// x5c[0] could not be read, so there is no key to verify with.
    case leafUnreadable
    /// The chain's structure failed, so which certificate plays which role is unknown.
    case chainStructureFailed
    /// An Xcode StoreKit-testing token: one self-signed certificate, no Apple marker extensions.
    case xcodeSingleCertificate
    case noSignedDate
    /// Nothing nested to compare (no nested token carries the fields).
    case nothingNested
    /// Revocation (OCSP / CRL) needs the network; this tool works offline.
    case revocationOffline
    /// A developer-signed token's key is not in it: the signature needs the developer's key.
    case developerKeyNeeded
    /// No key id to compare: neither given nor in the key file's name.
    case noKeyID
    /// This developer-signed kind does not carry the claim (a bearer token's nonce, an offer's exp).
    case claimNotInDeveloperKind(kind: DeveloperTokenKind, claim: String)
    /// `iat` or `exp` is absent or unreadable (its own step says which), so the lifetime is unknown.
    case lifetimeUnknown
    /// Apple's verifier compares this claim only in Production, and the environment is `environment`
    /// (a Retention Messaging request's appAppleId: `verifyAndDecodeRealtimeRequest`).
    case comparedOnlyInProduction(claim: String, environment: String)
}

/// What the x5c header holds.
public enum JWSChainKind: Sendable, Equatable {
    case missing
    /// Three certificates, shaped like Apple's leaf ← intermediate ← root.
    case threeCertificates
    /// One self-signed "StoreKit Testing in Xcode" certificate: local testing, never Apple.
    case xcodeStoreKitTesting
    case other(count: Int)
}

/// Where a verified path ended.
public enum JWSAnchor: Sendable, Equatable {
    /// Apple Root CA - G3, recognised by its pinned SHA-256 fingerprint.
    case appleRootCAG3
    /// A root the user supplied that is not Apple Root CA - G3 (SHA-256 fingerprint, uppercase hex).
    case userSupplied(sha256: String)
}

public struct JWSVerificationReport: Sendable {
    public var steps: [JWSStepResult]
    /// x5c certificates in token order; nil for an entry that is not a readable certificate.
    public var certificates: [CertificateInfo?]
    public var chainKind: JWSChainKind
    public var anchor: JWSAnchor?
    /// The signature as the DER ECDSA-Sig-Value OpenSSL verified (nil unless it was 64 bytes).
    public var signatureDER: [UInt8]?

    public func status(_ step: JWSStep) -> JWSStepStatus? { steps.first { $0.step == step }?.status }

    /// Steps that decide the verdict. "Today" counts only when there is no signedDate to judge at;
    /// revocation is never checked offline and does not count.
    public var decidingSteps: [JWSStepResult] {
        let signed = hasSignedDate
        return steps.filter { Self.decides($0.step, hasSignedDate: signed) }
    }

    /// Whether `step` decides the verdict (`decidingSteps`), without building that list: a batch
    /// line asks for every step of every token.
    public func decides(_ step: JWSStep) -> Bool { Self.decides(step, hasSignedDate: hasSignedDate) }

    private var hasSignedDate: Bool {
        status(.validityAtSignedDate).map { $0 != .notChecked(.noSignedDate) } ?? false
    }

    private static func decides(_ step: JWSStep, hasSignedDate: Bool) -> Bool {
        switch step {
        case .revocation: false
        case .validityToday: !hasSignedDate
        default: true
        }
    }

    /// The first deciding step that failed, in report order; nil when the token verifies.
    public var firstFailure: JWSStepResult? {
        let signed = hasSignedDate
        return steps.first { $0.status.isFailed && Self.decides($0.step, hasSignedDate: signed) }
    }

    public var isValid: Bool { firstFailure == nil && !needsDeveloperKey }

    /// A developer-signed token checked without its key: decoded, its claims checked, its signature not.
    public var needsDeveloperKey: Bool { status(.signature) == .notChecked(.developerKeyNeeded) }

    /// Set for a developer-signed token checked with a key: its SHA-256 (SubjectPublicKeyInfo) and source.
    public var developerKey: DeveloperKey? = nil

    /// Valid, three certificates, anchored at the pinned Apple Root CA - G3.
    public var isAppleSigned: Bool { isValid && chainKind == .threeCertificates && anchor == .appleRootCAG3 }

    /// The report with one more step (e.g. the notification consistency check), before revocation.
    public func adding(_ result: JWSStepResult) -> JWSVerificationReport {
        var copy = self
        let at = copy.steps.firstIndex { $0.step == .revocation } ?? copy.steps.count
        copy.steps.insert(result, at: at)
        return copy
    }
}
