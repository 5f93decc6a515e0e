import ASN1Lenient
import X509Trust

/// The validation steps, in report order. The raw values are the stable ids that JSON output and
/// scripts key on; `DocumentCore.StepText` has their titles.
public enum StepID: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The payload decoded without errors, and it is the content the signature covers.
    case contents
    /// From `SignatureValidation`: the CMS signature, the chain to an anchor, its validity at the
    /// creation date, and the signer's receipt-signing extension.
    case signature, chain, time
    case receiptSigner = "receipt-signer"
    /// From `DeviceHash`.
    case deviceHash = "device-hash"
    /// The receipt's own comparisons.
    case bundleID = "bundle-id"
    case appVersion = "app-version"
    /// The receipt type (attribute 0) against `--environment`, and attribute 1 against `--app-apple-id`.
    case environment
    case appAppleID = "app-apple-id"
    case expiration

    public var description: String { rawValue }
    /// The steps `SignatureValidation` reports, in order.
    public static let openSSL: [StepID] = [.signature, .chain, .time, .receiptSigner]
}

/// Something the caller supplies for a step (the CLI names it by its flag, the UI by its own words).
public enum UserInput: Sendable, Equatable {
    case root, deviceID, bundleID, appVersion, environment, appAppleID
    /// The developer's In-App Purchase key (a developer-signed JWS), and the key id it must carry.
    case developerKey, keyID
}

/// A certificate a reason is about: enough to name it without the OpenSSL objects.
public struct CertificateRef: Sendable, Equatable {
    public var label: String
    public var validity: String
    public init(label: String, validity: String) {
        self.label = label
        self.validity = validity
    }
    public init(_ info: CertificateInfo) { self.init(label: info.label, validity: info.validityText) }
}

/// Why a certificate path did not verify: OpenSSL's reason, and where in the path.
public struct ChainError: Sendable, Equatable {
    /// OpenSSL's `X509_verify_cert_error_string` text ("certificate has expired").
    public var openSSL: String
    public var depth: Int
    public var certificate: CertificateRef?
    public init(openSSL: String, depth: Int, certificate: CertificateRef?) {
        self.openSSL = openSSL
        self.depth = depth
        self.certificate = certificate
    }
}

/// Why a step failed or was not checked, as data: `StepText` turns it into words.
public indirect enum StepReason: Sendable, Equatable {
    // Signature (and every OpenSSL step when there is no SignedData).
    case emptyInput
    case notPKCS7(inputTruncated: Bool)
    case notSignedData(contentType: String)
    /// Chain, time and receipt signer when the signature step found no SignedData.
    case noSignedData(StepReason)
    case noSignerInfo
    case signerCertificateMissing
    case detachedWithoutPayload
    case outOfMemory
    case signatureMismatch(openSSL: [String])
    case payloadDiffersFromSignedContent(given: Int, signed: Int)
    // Chain and time.
    case chainUnverified(ChainError)
    case chainSetupFailed(String)
    case invalidAtCreation(date: String, ChainError)
    case noCreationDate
    case chainNotVerified
    // Receipt signer.
    case xcodeSignerHasNoReceiptOID
    case signerLacksReceiptOID(signer: String)
    // Contents.
    case notAReceipt(firstError: String?)
    case payloadDiffersFromSignature(decoded: Int, signed: Int)
    case receiptErrors(count: Int, code: DiagnosticCode, offset: Int, message: String)
    // Device hash and comparisons.
    case notGiven(UserInput)
    case noReceiptPayload
    case ambiguousAttributes([Int])
    case payloadTruncated
    case missingAttributes([Int])
    case deviceHashMismatch(device: String)
    case attributeMissing(type: Int)
    case attributeRepeated(type: Int, count: Int)
    case attributeUnreadable(type: Int)
    case valueMismatch(type: Int, actual: String, expected: String)
    /// The receipt type (attribute 0) names another environment (`environment` nil: none that is known).
    case environmentMismatch(receiptType: String, environment: ReceiptEnvironment?, expected: String)
    /// Attribute 1 differs from the expected app Apple ID; `environment` says why it may be 0.
    case appItemIDMismatch(actual: String, expected: String, environment: ReceiptEnvironment?)
    case expired(on: String)
    // Anything validation was not asked for.
    case validationNotRequested
}

/// How a step came out.
public enum StepStatus: Sendable, Equatable {
    case passed
    /// The check ran and the receipt did not meet it.
    case failed(StepReason)
    /// The check could not run (missing input, an earlier step failed, not applicable).
    case notChecked(StepReason)

    public var isPassed: Bool { self == .passed }
    public var isFailed: Bool { if case .failed = self { return true } else { return false } }

    /// The reason carried by `.failed` or `.notChecked`; nil for `.passed`.
    public var reason: StepReason? {
        switch self {
        case .passed: return nil
        case .failed(let r), .notChecked(let r): return r
        }
    }
}

/// One step of a validation report; `details` are supporting facts in display order (certificate
/// subjects, fingerprints, the device-hash arithmetic).
public struct ValidationStep: Sendable, Equatable {
    public var id: StepID
    public var status: StepStatus
    public var details: [String]

    public init(_ id: StepID, _ status: StepStatus, details: [String] = []) {
        self.id = id
        self.status = status
        self.details = details
    }
}

/// The overall outcome of `verify`.
public struct Verdict: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case appStoreValid
        case validForLocalTesting
        case validAtUserRoot(anchor: String)
        case invalid
        case notValidated
    }

    /// Why it is invalid (or the caveat of a valid one).
    public enum Reason: Sendable, Equatable {
        case stepFailed(StepID, StepReason)
        case stepNotChecked(StepID, StepReason)
        /// Xcode's certificate anchors the chain but the user did not supply it.
        case xcodeTestingNotSupplied
        /// The chain ends at a root that is neither Apple's nor supplied by the user.
        case anchorNotTrusted(String)
        case acceptedForLocalTesting
        case anchoredAtUserRoot(String)
        case validationNotRequested
    }

    public var outcome: Outcome
    public var reasons: [Reason]

    public init(_ outcome: Outcome, reasons: [Reason] = []) {
        self.outcome = outcome
        self.reasons = reasons
    }

    public var isValid: Bool {
        switch outcome {
        case .appStoreValid, .validForLocalTesting, .validAtUserRoot: return true
        case .invalid, .notValidated: return false
        }
    }
}
