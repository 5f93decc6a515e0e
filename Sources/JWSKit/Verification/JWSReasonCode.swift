// Stable kebab-case identifiers for failures and skips: what JSON output, samples/manifest.json and
// tests key on, independent of the wording in JWSVerificationText.swift.

extension JWSFailure {
    public var code: String {
        switch self {
        case .algorithmMissing: return "algorithm-missing"
        case .algorithmNone: return "algorithm-none"
        case .algorithmSymmetric: return "algorithm-symmetric"
        case .algorithmNotES256: return "algorithm-not-es256"
        case .x5cMissing: return "x5c-missing"
        case .certificateUnreadable: return "certificate-unreadable"
        case .certificateCount: return "certificate-count"
        case .wrongOrder: return "wrong-order"
        case .issuerMismatch: return "issuer-mismatch"
        case .linkSignatureInvalid: return "link-signature-invalid"
        case .rootNotSelfSigned: return "root-not-self-signed"
        case .rootNotPinned: return "root-not-pinned"
        case .xcodeTestingNotTrusted: return "xcode-testing-not-trusted"
        case .userRootUnreadable: return "user-root-unreadable"
        case .pathVerification: return "path-verification"
        case .leafMarkerMissing: return "leaf-marker-missing"
        case .intermediateMarkerMissing: return "intermediate-marker-missing"
        case .certificatesNotValid: return "certificates-not-valid"
        case .signatureEmpty: return "signature-empty"
        case .signatureIsDER: return "signature-is-der"
        case .signatureTruncated: return "signature-truncated"
        case .signatureTooLong: return "signature-too-long"
        case .leafKeyNotP256: return "leaf-key-not-p256"
        case .signatureMismatch: return "signature-mismatch"
        case .developerSignatureMismatch: return "developer-signature-mismatch"
        case .keyIDMissing: return "kid-missing"
        case .keyIDMismatch: return "kid-mismatch"
        case .issuedInFuture: return "issued-in-future"
        case .expiredAt: return "token-expired"
        case .expiresBeforeIssued: return "expires-before-issued"
        case .lifetimeTooLong: return "lifetime-too-long"
        case .nonceNotLowercaseUUID: return "nonce-not-lowercase-uuid"
        case .claimUnreadable: return "claim-unreadable"
        case .claimMissing: return "claim-missing"
        case .claimMismatch: return "claim-mismatch"
        case .nestedDisagrees: return "nested-disagrees"
        }
    }
}

extension JWSSkip {
    public var code: String {
        switch self {
        case .noExpectation: return "no-expectation"
        case .claimNotInKind: return "claim-not-in-kind"
        case .algorithmRejected: return "algorithm-rejected"
        case .noCertificates: return "no-certificates"
        case .leafUnreadable: return "leaf-unreadable"
        case .chainStructureFailed: return "chain-structure-failed"
        case .xcodeSingleCertificate: return "xcode-single-certificate"
        case .noSignedDate: return "no-signed-date"
        case .nothingNested: return "nothing-nested"
        case .revocationOffline: return "revocation-offline"
        case .developerKeyNeeded: return "developer-key-needed"
        case .noKeyID: return "no-key-id"
        case .claimNotInDeveloperKind: return "claim-not-in-kind"
        case .lifetimeUnknown: return "lifetime-unknown"
        }
    }
}
