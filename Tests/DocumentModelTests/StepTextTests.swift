import DocumentCore
import ReceiptKit
import Testing

/// The one place reasons become words: exact sentences, with and without the CLI's flag names.
@Suite struct StepTextTests {
    static let flags = StepText { input in
        switch input {
        case .root: "--root"
        case .deviceID: "--device-id"
        case .bundleID: "--bundle-id"
        case .appVersion: "--app-version"
        case .environment: "--environment"
        case .appAppleID: "--app-apple-id"
        case .developerKey: "--key"
        case .keyID: "--key-id"
        }
    }

    @Test func inputsAreNamedOnlyWhenTheCallerNamesThem() {
        #expect(StepText.plain.reason(.notGiven(.appVersion)) == "no expected app version given")
        #expect(Self.flags.reason(.notGiven(.appVersion)) == "no expected app version given (--app-version)")
        #expect(StepText.plain.reason(.notGiven(.deviceID)) == "no device identifier given (an identifierForVendor UUID or a MAC address)")
        #expect(Self.flags.reason(.notGiven(.deviceID)) == "no device identifier given (--device-id: an identifierForVendor UUID or a MAC address)")
        #expect(StepText.plain.reason(.anchorNotTrusted("Test Root"))
                == "the chain ends at Test Root, which is not an Apple root and was not supplied as a root")
        #expect(Self.flags.reason(.anchorNotTrusted("Test Root"))
                == "the chain ends at Test Root, which is not an Apple root and was not supplied with --root")
    }

    /// A receipt chain failure says what failed, which certificate and what to do, as a token's
    /// does; OpenSSL's words follow for searching; a reason without a sentence keeps OpenSSL's text.
    @Test func chainFailuresInWords() {
        let root = CertificateRef(label: "Test Root", validity: "2015-01-01 … 2045-01-01")
        func chain(_ openSSL: String, depth: Int = 2) -> StepReason { .chainUnverified(ChainError(openSSL: openSSL, depth: depth, certificate: root)) }
        #expect(Self.flags.reason(chain("self-signed certificate in certificate chain"))
                == "the chain ends at Test Root (depth 2, valid 2015-01-01 … 2045-01-01), a root that is neither a pinned Apple root nor "
                + "supplied with --root; if it is a root you trust (your own test PKI), pass it with --root (OpenSSL: self-signed certificate in certificate chain)")
        #expect(StepText.plain.reason(chain("self-signed certificate in certificate chain"))
                == "the chain ends at Test Root (depth 2, valid 2015-01-01 … 2045-01-01), a root that is neither a pinned Apple root nor "
                + "supplied as a root; if it is a root you trust (your own test PKI), supply it as a root (OpenSSL: self-signed certificate in certificate chain)")
        #expect(Self.flags.reason(chain("self-signed certificate", depth: 0))
                == "the signer's certificate Test Root (depth 0, valid 2015-01-01 … 2045-01-01) signs itself and is neither a pinned root nor "
                + "supplied with --root; if it is Xcode's StoreKit testing certificate (StoreKitTestCertificate.cer, which Xcode saves from "
                + "the project's StoreKit configuration file (open the .storekit file, then Editor > Save Public Certificate)) or a test "
                + "certificate you trust, pass it with --root (OpenSSL: self-signed certificate)")
        #expect(Self.flags.reason(chain("unable to get local issuer certificate", depth: 1))
                == "the issuer of Test Root (depth 1, valid 2015-01-01 … 2045-01-01) is not embedded in the receipt and is no pinned or "
                + "supplied root, so the chain cannot be completed; if the chain is yours, pass its root with --root (OpenSSL: unable to get local issuer certificate)")
        #expect(Self.flags.reason(chain("certificate signature failure", depth: 1))
                == "the signature on Test Root (depth 1, valid 2015-01-01 … 2045-01-01) does not verify under its issuer's key: "
                + "the certificate was altered or issued by another key (OpenSSL: certificate signature failure)")
        #expect(Self.flags.reason(chain("path length constraint exceeded", depth: 1))
                == "path length constraint exceeded (depth 1, Test Root, valid 2015-01-01 … 2045-01-01)")
        // The Xcode verdict says where its certificate is and how to pass it.
        #expect(Self.flags.reason(Verdict.Reason.xcodeTestingNotSupplied)
                == "signed by Xcode StoreKit Testing — local testing only, not the App Store; pass its certificate with --root to accept "
                + "it for local testing: StoreKitTestCertificate.cer, which Xcode saves from the project's StoreKit configuration file "
                + "(open the .storekit file, then Editor > Save Public Certificate)")
    }

    @Test func structuredReasonsBecomeSentences() {
        let expired = ChainError(openSSL: "certificate has expired", depth: 1,
                                 certificate: CertificateRef(label: "WWDR", validity: "2013-02-07 … 2023-02-07"))
        #expect(StepText.plain.reason(.invalidAtCreation(date: "2024-01-01T00:00:00Z", expired))
                == "at the creation date 2024-01-01T00:00:00Z: WWDR (depth 1, valid 2013-02-07 … 2023-02-07) had expired (OpenSSL: certificate has expired)")
        #expect(StepText.plain.reason(.noSignedData(.notPKCS7(inputTruncated: true)))
                == "no PKCS#7 SignedData to check: not a PKCS#7 structure (the input is truncated)")
        #expect(StepText.plain.reason(.receiptErrors(count: 3, code: ReceiptCode.wrongType.code, offset: 12, message: "bad"))
                == "3 error(s) in the receipt: receipt-attribute-wrong-type at offset 12: bad (and 2 more)")
        #expect(StepText.plain.reason(.valueMismatch(type: 2, actual: "a", expected: "b"))
                == "the receipt's bundle id (attribute 2) is \"a\", not \"b\"")
        #expect(StepText.plain.summary(.failed(.expired(on: "2024-01-01 00:00:00 UTC")))
                == "failed — the receipt expired on 2024-01-01 00:00:00 UTC")
        #expect(StepText.title(.receiptSigner) == "Receipt signing certificate")
    }

    @Test func environmentAndAppItemIDReasons() {
        #expect(Self.flags.reason(.notGiven(.environment)) == "no expected environment given (--environment)")
        #expect(StepText.plain.reason(.notGiven(.appAppleID)) == "no expected app Apple ID given")
        #expect(StepText.plain.reason(.environmentMismatch(receiptType: "ProductionVPPSandbox", environment: .sandbox, expected: "Production"))
                == "the receipt type (attribute 0) is \"ProductionVPPSandbox\", a sandbox receipt, not Production")
        #expect(StepText.plain.reason(.environmentMismatch(receiptType: "Production", environment: .production, expected: "Xcode"))
                == "the receipt type (attribute 0) is \"Production\", a production receipt, not Xcode")
        #expect(StepText.plain.reason(.environmentMismatch(receiptType: "Staging", environment: nil, expected: "Sandbox"))
                == "the receipt type (attribute 0) is \"Staging\", which names no known environment, not Sandbox")
        // The note on 0 belongs to receipts that carry 0 by design, not to a production receipt's mismatch.
        #expect(StepText.plain.reason(.appItemIDMismatch(actual: "0", expected: "7", environment: .production))
                == "the receipt's app item id (attribute 1) is 0, not 7")
        #expect(StepText.plain.reason(.appItemIDMismatch(actual: "0", expected: "7", environment: .localTesting))
                == "the receipt's app item id (attribute 1) is 0, not 7: it is 0 in every local testing receipt; only production receipts carry the app's Apple ID")
    }

    @Test func verdicts() {
        let invalid = Verdict(.invalid, reasons: [.stepFailed(.expiration, .expired(on: "2024-01-01 00:00:00 UTC")),
                                                  .stepNotChecked(.time, .chainNotVerified)])
        #expect(StepText.plain.summary(invalid) == "INVALID")
        #expect(StepText.plain.reasons(invalid) == [
            "Expiration: the receipt expired on 2024-01-01 00:00:00 UTC",
            "Validity at creation date: not checked — the chain did not verify to a trust anchor",
        ])
        #expect(!invalid.isValid)
        let local = Verdict(.validForLocalTesting, reasons: [.acceptedForLocalTesting])
        #expect(local.isValid)
        #expect(Self.flags.reasons(local) == [
            "signed by Xcode StoreKit Testing — local testing only, not the App Store; accepted because its certificate was supplied with --root",
        ])
    }
}
