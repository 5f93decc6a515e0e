import ReceiptKit
import X509Trust

/// The words for receipt validation steps, their reasons and the verdict: ReceiptKit's structured
/// reasons become text here, in the one wording layer of verification (this folder; token steps'
/// words are in TokenStepText.swift), used by `verify`, `json` and the explorer. The CLI names the
/// inputs by their flags (`--root`); the UI by plain words.
public struct StepText: Sendable {
    /// How to name something the user can supply; nil: don't mention how.
    public var inputName: @Sendable (UserInput) -> String?

    public init(inputName: @escaping @Sendable (UserInput) -> String? = { _ in nil }) {
        self.inputName = inputName
    }

    /// For views without flags.
    public static let plain = StepText()

    public static func title(_ id: StepID) -> String {
        switch id {
        case .contents: "Receipt contents"
        case .signature: "PKCS#7 signature"
        case .chain: "Certificate chain"
        case .time: "Validity at creation date"
        case .receiptSigner: "Receipt signing certificate"
        case .deviceHash: "Device hash"
        case .bundleID: "Bundle identifier"
        case .appVersion: "App version"
        case .environment: "Environment"
        case .appAppleID: "App Apple ID"
        case .expiration: "Expiration"
        }
    }

    /// " (--device-id)" or "".
    package func hint(_ input: UserInput) -> String { inputName(input).map { " (\($0))" } ?? "" }
    /// "supplied with --root" or "supplied as a root".
    package var suppliedAsRoot: String { inputName(.root).map { "supplied with \($0)" } ?? "supplied as a root" }

    /// "passed", "failed — <reason>", "not checked — <reason>".
    public func summary(_ status: StepStatus) -> String {
        switch status {
        case .passed: "passed"
        case .failed(let r): "failed — \(reason(r))"
        case .notChecked(let r): "not checked — \(reason(r))"
        }
    }

    public func reason(_ status: StepStatus) -> String? { status.reason.map(reason) }

    public func reason(_ r: StepReason) -> String {
        switch r {
        case .emptyInput: return "empty input: not a PKCS#7 structure"
        case .notPKCS7(let truncated): return "not a PKCS#7 structure" + (truncated ? " (the input is truncated)" : "")
        case .notSignedData(let type): return "the PKCS#7 content type is \(type), not signedData"
        case .noSignedData(let why): return "no PKCS#7 SignedData to check: \(reason(why))"
        case .noSignerInfo: return "the SignedData has no SignerInfo: nothing is signed"
        case .signerCertificateMissing: return "the signer's certificate is not embedded in the PKCS#7 structure"
        case .detachedWithoutPayload: return "detached signature: the content is not inside and no payload was given"
        case .outOfMemory: return "out of memory"
        case .signatureMismatch(let openSSL):
            return "the signature does not verify: " + (openSSL.isEmpty ? "verification failure" : openSSL.joined(separator: "; "))
        case .payloadDiffersFromSignedContent(let given, let signed):
            return "the payload given differs from the signed content (\(bytes(given)) vs \(bytes(signed)))"
        case .chainUnverified(let e): return sentence(e)
        case .chainSetupFailed(let why): return why
        case .invalidAtCreation(let date, let e): return "at the creation date \(date): \(sentence(e))"
        case .noCreationDate: return "no receipt creation date (attribute 12) to judge the certificates at"
        case .chainNotVerified: return "the chain did not verify to a trust anchor"
        case .xcodeSignerHasNoReceiptOID:
            return "\(TrustAnchors.xcodeTestingNote); its certificate carries no receipt-signing extension \(CertificateInfo.receiptSignerOID)"
        case .signerLacksReceiptOID(let signer):
            return "the signer certificate (\(signer)) lacks the Apple receipt-signing extension \(CertificateInfo.receiptSignerOID): this is not an App Store receipt"
        case .notAReceipt(let first): return "not a receipt: " + (first ?? "no receipt payload was found")
        case .payloadDiffersFromSignature(let decoded, let signed):
            return "the payload decoded here (\(decoded) bytes) differs from the content the signature covers (\(signed) bytes)"
        case .receiptErrors(let count, let code, let offset, let message):
            return "\(count) error(s) in the receipt: \(code) at offset \(offset): \(message)" + (count > 1 ? " (and \(count - 1) more)" : "")
        case .notGiven(let input):
            switch input {
            case .deviceID:
                return "no device identifier given (\(inputName(input).map { "\($0): " } ?? "")an identifierForVendor UUID or a MAC address)"
            case .bundleID: return "no expected bundle identifier given\(hint(input))"
            case .appVersion: return "no expected app version given\(hint(input))"
            case .root: return "no root given\(hint(input))"
            case .environment: return "no expected environment given\(hint(input))"
            case .appAppleID: return "no expected app Apple ID given\(hint(input))"
            case .developerKey: return "no developer key given\(hint(input))"
            case .keyID: return "no key id given\(hint(input))"
            }
        case .noReceiptPayload: return "no receipt payload"
        case .ambiguousAttributes(let types):
            return types.map { "attribute \($0)" }.joined(separator: ", ") + " appear(s) more than once: which value to hash is ambiguous"
        case .payloadTruncated: return "the receipt payload is truncated"
        case .missingAttributes(let types): return "the receipt has no " + types.map(Self.deviceHashInput).joined(separator: ", ")
        case .deviceHashMismatch(let device):
            return "SHA-1 of the device identifier, opaque value and bundle identifier does not match attribute 5: the receipt was not issued for \(device)"
        case .attributeMissing(let type): return "the receipt has no \(ReceiptSchema.displayName(type: type, level: .app))"
        case .attributeRepeated(let type, let count):
            return "\(ReceiptSchema.displayName(type: type, level: .app)) appears \(count) times: which one counts is ambiguous"
        case .attributeUnreadable(let type):
            return type == 21 ? "the expiration date (attribute 21) cannot be read"
                              : "the \(ReceiptSchema.displayName(type: type, level: .app)) cannot be read"
        case .valueMismatch(let type, let actual, let expected):
            return "the receipt's \(ReceiptSchema.displayName(type: type, level: .app)) is \"\(actual)\", not \"\(expected)\""
        case .environmentMismatch(let type, let environment, let expected):
            let named = environment.map { $0 == .xcode ? "an Xcode receipt" : "a \($0.receiptLabel ?? "production receipt")" }
                ?? "which names no known environment"
            return "the receipt type (attribute 0) is \"\(type)\", \(named), not \(expected)"
        case .appItemIDMismatch(let actual, let expected, let environment):
            var text = "the receipt's app item id (attribute 1) is \(actual), not \(expected)"
            if actual == "0", let environment, environment.appItemIDIsZero, let label = environment.receiptLabel {
                text += ": it is 0 in every \(label); only production receipts carry the app's Apple ID"
            }
            return text
        case .expired(let date): return "the receipt expired on \(date)"
        case .validationNotRequested: return "validation was not requested"
        }
    }

    /// "certificate has expired (depth 1, Apple Worldwide Developer Relations Certification Authority, valid 2013-02-07 … 2023-02-07)"
    /// A receipt chain failure in words, as a token's are: what failed, which certificate, what to
    /// do; OpenSSL's own words follow in parentheses (what people search for). A reason this layer
    /// has no sentence for keeps OpenSSL's text, with the certificate.
    package func sentence(_ e: ChainError) -> String {
        guard let cert = e.certificate else { return e.openSSL }
        let which = "\(cert.label) (depth \(e.depth), valid \(cert.validity))"
        let supply = inputName(.root).map { "pass it with \($0)" } ?? "supply it as a root"
        let supplyRoot = inputName(.root).map { "pass its root with \($0)" } ?? "supply its root"
        let words: String? = switch e.openSSL {
        case "self-signed certificate in certificate chain":
            "the chain ends at \(which), a root that is neither a pinned Apple root nor \(suppliedAsRoot); if it is a root you trust (your own test PKI), \(supply)"
        case "self-signed certificate":
            "the signer's certificate \(which) signs itself and is neither a pinned root nor \(suppliedAsRoot); if it is Xcode's "
                + "StoreKit testing certificate (\(Self.xcodeCertificateWhere)) or a test certificate you trust, \(supply)"
        case "unable to get local issuer certificate", "unable to get issuer certificate":
            "the issuer of \(which) is not embedded in the receipt and is no pinned or supplied root, so the chain cannot be completed; if the chain is yours, \(supplyRoot)"
        case "certificate has expired": "\(which) had expired"
        case "certificate is not yet valid": "\(which) was not yet valid"
        case "certificate signature failure":
            "the signature on \(which) does not verify under its issuer's key: the certificate was altered or issued by another key"
        default: nil
        }
        guard let words else { return "\(e.openSSL) (depth \(e.depth), \(cert.label), valid \(cert.validity))" }
        return words + " (OpenSSL: \(e.openSSL))"
    }

    package static func deviceHashInput(_ type: Int) -> String {
        switch type {
        case 4: "opaque value (attribute 4)"
        case 2: "bundle identifier (attribute 2)"
        case 5: "SHA-1 hash (attribute 5)"
        default: "attribute \(type)"
        }
    }

    package func bytes(_ n: Int) -> String { n == 1 ? "1 byte" : "\(n) bytes" }

    // MARK: - verdict

    /// "valid App Store receipt", "INVALID", …
    public func summary(_ verdict: Verdict) -> String { summary(verdict.outcome) }

    /// "valid App Store receipt", "valid for local testing only", "INVALID", … (tokens share these words).
    public func summary(_ outcome: Verdict.Outcome) -> String {
        switch outcome {
        case .appStoreValid: "valid App Store receipt"
        case .validForLocalTesting: "valid for local testing only"
        case .validAtUserRoot: "valid, anchored at a root you supplied"
        case .invalid: "INVALID"
        case .notValidated: "not validated (decoding only)"
        }
    }

    public func reason(_ r: Verdict.Reason) -> String {
        switch r {
        case .stepFailed(let id, let why): return "\(Self.title(id)): \(reason(why))"
        case .stepNotChecked(let id, let why): return "\(Self.title(id)): not checked — \(reason(why))"
        case .xcodeTestingNotSupplied:
            let how = inputName(.root).map { "pass its certificate with \($0)" } ?? "supply its certificate as a root"
            return "\(TrustAnchors.xcodeTestingNote); \(how) to accept it for local testing: "
                + Self.xcodeCertificateWhere
        case .anchorNotTrusted(let name): return "the chain ends at \(name), which is not an Apple root and was not \(suppliedAsRoot)"
        case .acceptedForLocalTesting: return "\(TrustAnchors.xcodeTestingNote); accepted because its certificate was \(suppliedAsRoot)"
        case .anchoredAtUserRoot(let label):
            return "the chain ends at \(label) (\(suppliedAsRoot)), not at an Apple root: not an App Store receipt"
        case .validationNotRequested: return "validation was not requested"
        }
    }

    public func reasons(_ verdict: Verdict) -> [String] { verdict.reasons.map(reason) }

    /// Where an Xcode StoreKit-testing certificate comes from.
    package static let xcodeCertificateWhere = "StoreKitTestCertificate.cer, which Xcode saves from the project's StoreKit "
        + "configuration file (open the .storekit file, then Editor > Save Public Certificate)"
}
