import DocumentCore
import Testing

/// The one table from this tool's failing steps to the status Apple's verifiers return.
@Suite struct AppleVerifierStatusTests {
    @Test func reasonRowsWinOverTheStepRow() {
        #expect(AppleVerifierStatus.forFailure(step: "chain", reason: "certificate-count") == .invalidChainLength)
        #expect(AppleVerifierStatus.forFailure(step: "chain", reason: "certificate-unreadable") == .invalidCertificate)
        #expect(AppleVerifierStatus.forFailure(step: "chain", reason: "link-signature-invalid") == .verificationFailure)
        #expect(AppleVerifierStatus.forFailure(step: "root", reason: "user-root-unreadable") == .invalidCertificate)
        #expect(AppleVerifierStatus.forFailure(step: "root", reason: "root-not-pinned") == .verificationFailure)
        #expect(AppleVerifierStatus.forFailure(step: "root", reason: "xcode-testing-not-trusted") == .invalidChainLength)
    }

    @Test func claimsAndReceiptSteps() {
        #expect(AppleVerifierStatus.forFailure(step: "bundle-id", reason: "claim-mismatch") == .invalidAppIdentifier)
        #expect(AppleVerifierStatus.forFailure(step: "bundle-id", reason: "value-mismatch") == .invalidAppIdentifier)
        #expect(AppleVerifierStatus.forFailure(step: "app-apple-id", reason: "app-item-id-mismatch") == .invalidAppIdentifier)
        #expect(AppleVerifierStatus.forFailure(step: "environment", reason: "environment-mismatch") == .invalidEnvironment)
        #expect(AppleVerifierStatus.forFailure(step: "signature", reason: "signature-mismatch") == .verificationFailure)
        #expect(AppleVerifierStatus.forFailure(step: "receipt-signer", reason: "signer-lacks-receipt-oid") == .verificationFailure)
    }

    @Test("steps Apple's verifiers do not check have no status; nothing maps to the online-only retryable status")
    func noEquivalent() {
        for step in ["device-hash", "app-version", "expiration", "nested-consistency", "revocation", "no-such-step"] {
            #expect(AppleVerifierStatus.forFailure(step: step, reason: nil) == nil, "\(step)")
        }
        #expect(AppleVerifierStatus.retryableVerificationFailure.sentence(receipt: false)
                == "Apple's SignedDataVerifier would return RETRYABLE_VERIFICATION_FAILURE")
        #expect(AppleVerifierStatus.invalidEnvironment.sentence(receipt: true)
                == "Apple's AppReceiptVerifier would return INVALID_ENVIRONMENT")
    }
}
