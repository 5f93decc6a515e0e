import DocumentModel
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

    @Test func structuredReasonsBecomeSentences() {
        let expired = ChainError(openSSL: "certificate has expired", depth: 1,
                                 certificate: CertificateRef(label: "WWDR", validity: "2013-02-07 … 2023-02-07"))
        #expect(StepText.plain.reason(.invalidAtCreation(date: "2024-01-01T00:00:00Z", expired))
                == "at the creation date 2024-01-01T00:00:00Z: certificate has expired (depth 1, WWDR, valid 2013-02-07 … 2023-02-07)")
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
