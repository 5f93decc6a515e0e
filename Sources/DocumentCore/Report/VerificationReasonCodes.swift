import ReceiptKit
import ReasonCodes

// The receipt steps' reasons and verdict reasons as codes of the one vocabulary (`ReasonCode`,
// shared with JWSKit): what the JSON output and scripts key on, independent of StepText's wording.

extension StepReason {
    public var code: ReasonCode {
        switch self {
        case .emptyInput: .emptyInput
        case .notPKCS7: .notPKCS7
        case .notSignedData: .notSignedData
        case .noSignedData: .noSignedData
        case .noSignerInfo: .noSignerInfo
        case .signerCertificateMissing: .signerCertificateMissing
        case .detachedWithoutPayload: .detachedWithoutPayload
        case .outOfMemory: .outOfMemory
        case .signatureMismatch: .signatureMismatch
        case .payloadDiffersFromSignedContent: .payloadDiffersFromSignedContent
        case .chainUnverified: .chainUnverified
        case .chainSetupFailed: .chainSetupFailed
        case .invalidAtCreation: .invalidAtCreation
        case .noCreationDate: .noCreationDate
        case .chainNotVerified: .chainNotVerified
        case .xcodeSignerHasNoReceiptOID: .xcodeSignerHasNoReceiptOID
        case .signerLacksReceiptOID: .signerLacksReceiptOID
        case .notAReceipt: .notAReceipt
        case .payloadDiffersFromSignature: .payloadDiffersFromSignature
        case .receiptErrors: .receiptErrors
        case .notGiven: .notGiven
        case .noReceiptPayload: .noReceiptPayload
        case .ambiguousAttributes: .ambiguousAttributes
        case .payloadTruncated: .payloadTruncated
        case .missingAttributes: .missingAttributes
        case .deviceHashMismatch: .deviceHashMismatch
        case .attributeMissing: .attributeMissing
        case .attributeRepeated: .attributeRepeated
        case .attributeUnreadable: .attributeUnreadable
        case .valueMismatch: .valueMismatch
        case .environmentMismatch: .environmentMismatch
        case .appItemIDMismatch: .appItemIDMismatch
        case .expired: .expired
        case .validationNotRequested: .validationNotRequested
        }
    }
}

extension Verdict.Reason {
    public var code: ReasonCode {
        switch self {
        case .stepFailed(_, let why), .stepNotChecked(_, let why): why.code
        case .xcodeTestingNotSupplied: .xcodeTestingNotSupplied
        case .anchorNotTrusted: .anchorNotTrusted
        case .acceptedForLocalTesting: .acceptedForLocalTesting
        case .anchoredAtUserRoot: .anchoredAtUserRoot
        case .validationNotRequested: .validationNotRequested
        }
    }

    /// The step the reason is about, if any.
    public var step: StepID? {
        switch self {
        case .stepFailed(let id, _), .stepNotChecked(let id, _): id
        default: nil
        }
    }
}

extension Verdict.Outcome {
    /// "app-store", "local-testing", "user-root", "invalid", "not-validated".
    public var code: String {
        switch self {
        case .appStoreValid: "app-store"
        case .validForLocalTesting: "local-testing"
        case .validAtUserRoot: "user-root"
        case .invalid: "invalid"
        case .notValidated: "not-validated"
        }
    }
}
