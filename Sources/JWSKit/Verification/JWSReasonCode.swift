import ReasonCodes

// Failures and skips as codes of the one vocabulary (`ReasonCode`, ReasonCodes): what JSON output,
// samples/manifest.json and tests key on, independent of the words (DocumentModel/Report/Wording).
// A token step without an expected value is `not-given`, as a receipt step is.

extension JWSFailure {
    public var code: ReasonCode {
        switch self {
        case .algorithmMissing: return .algorithmMissing
        case .algorithmNone: return .algorithmNone
        case .algorithmSymmetric: return .algorithmSymmetric
        case .algorithmNotES256: return .algorithmNotES256
        case .x5cMissing: return .x5cMissing
        case .certificateUnreadable: return .certificateUnreadable
        case .certificateCount: return .certificateCount
        case .wrongOrder: return .wrongOrder
        case .issuerMismatch: return .issuerMismatch
        case .linkSignatureInvalid: return .linkSignatureInvalid
        case .rootNotSelfSigned: return .rootNotSelfSigned
        case .rootNotPinned: return .rootNotPinned
        case .xcodeTestingNotTrusted: return .xcodeTestingNotTrusted
        case .userRootUnreadable: return .userRootUnreadable
        case .pathVerification: return .pathVerification
        case .leafMarkerMissing: return .leafMarkerMissing
        case .intermediateMarkerMissing: return .intermediateMarkerMissing
        case .certificatesNotValid: return .certificatesNotValid
        case .signatureEmpty: return .signatureEmpty
        case .signatureIsDER: return .signatureIsDER
        case .signatureTruncated: return .signatureTruncated
        case .signatureTooLong: return .signatureTooLong
        case .leafKeyNotP256: return .leafKeyNotP256
        case .signatureMismatch: return .signatureMismatch
        case .developerSignatureMismatch: return .developerSignatureMismatch
        case .keyIDMissing: return .keyIDMissing
        case .keyIDMismatch: return .keyIDMismatch
        case .issuedInFuture: return .issuedInFuture
        case .expiredAt: return .tokenExpired
        case .expiresBeforeIssued: return .expiresBeforeIssued
        case .lifetimeTooLong: return .lifetimeTooLong
        case .nonceNotLowercaseUUID: return .nonceNotLowercaseUUID
        case .claimUnreadable: return .claimUnreadable
        case .claimMissing: return .claimMissing
        case .claimMismatch: return .claimMismatch
        case .nestedDisagrees: return .nestedDisagrees
        }
    }
}

extension JWSSkip {
    public var code: ReasonCode {
        switch self {
        case .noExpectation: return .notGiven
        case .claimNotInKind: return .claimNotInKind
        case .algorithmRejected: return .algorithmRejected
        case .noCertificates: return .noCertificates
        case .leafUnreadable: return .leafUnreadable
        case .chainStructureFailed: return .chainStructureFailed
        case .xcodeSingleCertificate: return .xcodeSingleCertificate
        case .noSignedDate: return .noSignedDate
        case .nothingNested: return .nothingNested
        case .revocationOffline: return .revocationOffline
        case .developerKeyNeeded: return .developerKeyNeeded
        case .noKeyID: return .noKeyID
        case .claimNotInDeveloperKind: return .claimNotInKind
        case .lifetimeUnknown: return .lifetimeUnknown
        case .comparedOnlyInProduction: return .comparedOnlyInProduction
        }
    }
}
