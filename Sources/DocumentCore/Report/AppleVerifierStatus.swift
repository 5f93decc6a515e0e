// The status Apple's server libraries would return for a failing step, so that a server log and
// this tool's report can be matched: `SignedDataVerifier` for StoreKit 2 tokens,
// `AppReceiptVerifier` (the same statuses, the same chain verifier) for receipts. Read from
// app-store-server-library-python's signed_data_verifier.py and app_receipt_verifier.py; where
// the Node library differs it is said below. The one table is `AppleVerifierStatus.table`.

/// Apple's `VerificationStatus` names (their spelling is what users search for).
public enum AppleVerifierStatus: String, Sendable, Equatable, CaseIterable {
    case verificationFailure = "VERIFICATION_FAILURE"
    case invalidAppIdentifier = "INVALID_APP_IDENTIFIER"
    case invalidEnvironment = "INVALID_ENVIRONMENT"
    case invalidChainLength = "INVALID_CHAIN_LENGTH"
    case invalidCertificate = "INVALID_CERTIFICATE"
    /// Apple returns it when the online (OCSP) revocation check cannot complete; this tool works
    /// offline and never checks revocation, so no step maps to it.
    case retryableVerificationFailure = "RETRYABLE_VERIFICATION_FAILURE"

    /// One row: a failing step, optionally only for one reason code, and Apple's status.
    struct Row {
        var step: String
        var reason: String?
        var status: AppleVerifierStatus?
    }

    /// Rows with a reason code win over the step's own row; a step with no row (or a nil status)
    /// has no equivalent: Apple's verifiers do not check it.
    static let table: [Row] = [
        // Both kinds of input.
        Row(step: "signature", status: .verificationFailure),          // the JWT / CMS signature does not verify
        Row(step: "chain", status: .verificationFailure),              // OpenSSL's path verification fails
        Row(step: "chain", reason: "x5c-missing", status: .verificationFailure),  // "x5c claim was empty"
        Row(step: "chain", reason: "certificate-count", status: .invalidChainLength),  // x5c is not 3 certificates
        Row(step: "chain", reason: "certificate-unreadable", status: .invalidCertificate),  // a certificate does not load
        Row(step: "bundle-id", status: .invalidAppIdentifier),
        Row(step: "app-apple-id", status: .invalidAppIdentifier),      // Apple compares appAppleId in Production
        Row(step: "environment", status: .invalidEnvironment),
        // StoreKit 2 tokens.
        Row(step: "algorithm", status: .verificationFailure),          // "Algorithm was not ES256"
        Row(step: "root", status: .verificationFailure),               // not anchored at a trusted root
        Row(step: "root", reason: "user-root-unreadable", status: .invalidCertificate),
        // Xcode's one self-signed certificate: outside its Xcode environment Apple's verifier stops at the count.
        Row(step: "root", reason: "xcode-testing-not-trusted", status: .invalidChainLength),
        Row(step: "leaf-oid", status: .verificationFailure),
        Row(step: "intermediate-oid", status: .verificationFailure),
        // Python and Swift: the path check fails (VERIFICATION_FAILURE); Node's date check says INVALID_CERTIFICATE.
        Row(step: "time-signed-date", status: .verificationFailure),
        Row(step: "time-today", status: .verificationFailure),         // Apple's online checks judge at now
        Row(step: "nested-consistency", status: nil),                  // Apple does not compare nested tokens
        // Receipts (AppReceiptVerifier: a payload that does not parse is a VERIFICATION_FAILURE).
        Row(step: "contents", status: .verificationFailure),
        Row(step: "time", status: .verificationFailure),
        Row(step: "receipt-signer", status: .verificationFailure),    // the leaf lacks 1.2.840.113635.100.6.11.1
        Row(step: "device-hash", status: nil),
        Row(step: "app-version", status: nil),
        Row(step: "expiration", status: nil),
    ]

    /// The text reports' line under a failed step: "Apple's SignedDataVerifier would return VERIFICATION_FAILURE".
    public func sentence(receipt: Bool) -> String {
        "Apple's \(receipt ? "AppReceiptVerifier" : "SignedDataVerifier") would return \(rawValue)"
    }

    /// The status Apple's verifier would return for a step that failed with `reason`; nil when it
    /// has no equivalent.
    public static func forFailure(step: String, reason: String?) -> AppleVerifierStatus? {
        if let reason, let row = table.first(where: { $0.step == step && $0.reason == reason }) { return row.status }
        return table.first { $0.step == step && $0.reason == nil }?.status
    }
}
