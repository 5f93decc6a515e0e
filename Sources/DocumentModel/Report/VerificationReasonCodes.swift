import ReceiptKit

// Stable kebab-case identifiers for the receipt steps' reasons and verdict reasons: what the
// JSON output and scripts key on, independent of StepText's wording (JWSKit keeps its own in
// JWSReasonCode.swift). Never rename one: docs/verify-schema.json promises them.

extension StepReason {
    public var code: String {
        switch self {
        case .emptyInput: "empty-input"
        case .notPKCS7: "not-pkcs7"
        case .notSignedData: "not-signed-data"
        case .noSignedData: "no-signed-data"
        case .noSignerInfo: "no-signer-info"
        case .signerCertificateMissing: "signer-certificate-missing"
        case .detachedWithoutPayload: "detached-without-payload"
        case .outOfMemory: "out-of-memory"
        case .signatureMismatch: "signature-mismatch"
        case .payloadDiffersFromSignedContent: "payload-differs-from-signed-content"
        case .chainUnverified: "chain-unverified"
        case .chainSetupFailed: "chain-setup-failed"
        case .invalidAtCreation: "invalid-at-creation"
        case .noCreationDate: "no-creation-date"
        case .chainNotVerified: "chain-not-verified"
        case .xcodeSignerHasNoReceiptOID: "xcode-signer-has-no-receipt-oid"
        case .signerLacksReceiptOID: "signer-lacks-receipt-oid"
        case .notAReceipt: "not-a-receipt"
        case .payloadDiffersFromSignature: "payload-differs-from-signature"
        case .receiptErrors: "receipt-errors"
        case .notGiven: "not-given"
        case .noReceiptPayload: "no-receipt-payload"
        case .ambiguousAttributes: "ambiguous-attributes"
        case .payloadTruncated: "payload-truncated"
        case .missingAttributes: "missing-attributes"
        case .deviceHashMismatch: "device-hash-mismatch"
        case .attributeMissing: "attribute-missing"
        case .attributeRepeated: "attribute-repeated"
        case .attributeUnreadable: "attribute-unreadable"
        case .valueMismatch: "value-mismatch"
        case .environmentMismatch: "environment-mismatch"
        case .appItemIDMismatch: "app-item-id-mismatch"
        case .expired: "expired"
        case .validationNotRequested: "validation-not-requested"
        }
    }
}

extension Verdict.Reason {
    public var code: String {
        switch self {
        case .stepFailed(_, let why), .stepNotChecked(_, let why): why.code
        case .xcodeTestingNotSupplied: "xcode-testing-not-supplied"
        case .anchorNotTrusted: "anchor-not-trusted"
        case .acceptedForLocalTesting: "accepted-for-local-testing"
        case .anchoredAtUserRoot: "anchored-at-user-root"
        case .validationNotRequested: "validation-not-requested"
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
