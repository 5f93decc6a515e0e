import ASN1Lenient
import Foundation

/// The receipt's own steps (contents, device hash, bundle id, app version, expiration), the
/// OpenSSL steps from `SignatureValidation`, and the verdict that combines them.
public enum ReceiptStepID {
    /// The payload decoded without errors, and it is the content the signature covers.
    public static let contents = "contents"
    public static let contentsTitle = "Receipt contents"

    /// Every step, in report order.
    public static let all = [contents, StepID.signature, StepID.chain, StepID.time, StepID.receiptSigner,
                             StepID.deviceHash, StepID.bundleID, StepID.appVersion, StepID.expiration]

    public static func title(for id: String) -> String { id == contents ? contentsTitle : StepID.title(for: id) }
}

enum ValidationChecks {
    static func run(_ a: inout ReceiptAnalysis, bytes: [UInt8]) {
        let options = a.options
        let receipt = a.receipt
        var steps: [ValidationStep] = []
        let moment = ReceiptDate(options.moment)

        // The OpenSSL steps.
        var creation = receipt?.creationDate?.date
        var fallbackNote: String?
        if creation == nil {
            creation = options.moment
            let why = receipt?.field(12) == nil ? "the receipt has no creation date (attribute 12)"
                                                : "the creation date (attribute 12) cannot be read"
            fallbackNote = "\(why): the certificates are judged at \(moment.utcString) instead"
        }
        if options.validate {
            var report = SignatureValidation.validate(pkcs7: bytes, payload: nil, creationDate: creation,
                                                      now: options.now, extraRoots: options.roots)
            if let note = fallbackNote, let i = report.steps.firstIndex(where: { $0.id == StepID.time }),
               report.steps[i].status.isPassed || report.steps[i].status.isFailed {
                report.steps[i].details.insert(note, at: 0)
            }
            a.signature = report
        }

        steps.append(contentsStep(a))
        if let report = a.signature {
            steps += report.steps
        } else {
            for id in [StepID.signature, StepID.chain, StepID.time, StepID.receiptSigner] {
                steps.append(ValidationStep(id: id, title: StepID.title(for: id),
                                            status: .notChecked("validation was not requested")))
            }
        }
        steps.append(deviceHashStep(receipt, options.deviceID))
        steps.append(compareStep(StepID.bundleID, receipt, type: 2, expected: options.bundleID, flag: "--bundle-id"))
        steps.append(compareStep(StepID.appVersion, receipt, type: 3, expected: options.appVersion, flag: "--app-version"))
        steps.append(expirationStep(receipt, at: moment))
        a.validationSteps = steps
        a.verdict = verdict(a)
    }

    // MARK: - contents

    static func contentsStep(_ a: ReceiptAnalysis) -> ValidationStep {
        let id = ReceiptStepID.contents
        let title = ReceiptStepID.contentsTitle
        guard let receipt = a.receipt else {
            let first = a.findings.first { $0.severity == .error } ?? a.tree.diagnostics.first { $0.severity == .error }
            let why = first.map { "not a receipt: \($0.message)" } ?? "not a receipt: no receipt payload was found"
            return ValidationStep(id: id, title: title, status: .failed(why))
        }
        // Errors inside the ContentInfo; junk after it is reported (trailing-data) but not signed,
        // so it does not make the receipt's contents wrong.
        let root = a.container?.contentInfo ?? 0
        let rootRange = a.tree.nodes.isEmpty ? 0..<0 : a.tree.nodes[root].byteRange
        let errors = a.allDiagnostics.filter { d in
            guard d.severity == .error else { return false }
            if let n = d.node { return PKCS7Locator.isInside(n, root, a.tree) }
            return rootRange.contains(d.offset)
        }
        let attributeCount = receipt.fields.count + receipt.inApp.reduce(0) { $0 + $1.fields.count }
        var details = ["\(receipt.fields.count) app-level attribute(s), \(receipt.inApp.count) in-app purchase(s), \(attributeCount) attribute(s) in all"]
        let unlisted = receipt.unlistedCount
        if unlisted > 0 { details.append("\(unlisted) unlisted (Apple-private) attribute(s) kept as raw values") }
        if let c = a.container, c.isBER { details.append("the container is BER (indefinite lengths, constructed OCTET STRING), as Xcode writes it") }
        if let c = a.container, c.payloadIsReassembled {
            details.append("the payload came in \(c.payloadChunks.count) OCTET STRING chunks and was reassembled")
        }
        if let signed = a.signature?.signedContent, signed != payloadBytes(a) {
            return ValidationStep(id: id, title: title,
                                  status: .failed("the payload decoded here (\(payloadBytes(a).count) bytes) differs from the content the signature covers (\(signed.count) bytes)"),
                                  details: details)
        }
        if !errors.isEmpty {
            let first = errors[0]
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            return ValidationStep(id: id, title: title,
                                  status: .failed("\(errors.count) error(s) in the receipt: \(first.code) at offset \(first.offset): \(first.message)\(more)"),
                                  details: details)
        }
        return ValidationStep(id: id, title: title, status: .passed, details: details)
    }

    static func payloadBytes(_ a: ReceiptAnalysis) -> [UInt8] {
        if let p = a.payloadTree { return p.bytes }
        guard let c = a.container else { return [] }
        return c.payloadChunks.flatMap { Array(a.tree.content(of: $0)) }
    }

    // MARK: - device hash, bundle id, app version, expiration

    static func deviceHashStep(_ receipt: Receipt?, _ device: DeviceIdentifier?) -> ValidationStep {
        if let receipt, device != nil {
            let ambiguous = [2, 4, 5].filter { receipt.fields($0).count > 1 }
            if !ambiguous.isEmpty {
                let list = ambiguous.map { "attribute \($0)" }.joined(separator: ", ")
                return ValidationStep(id: StepID.deviceHash, title: StepID.title(for: StepID.deviceHash),
                                      status: .notChecked("\(list) appear(s) more than once: which value to hash is ambiguous"))
            }
        }
        guard let receipt else {
            return ValidationStep(id: StepID.deviceHash, title: StepID.title(for: StepID.deviceHash),
                                  status: .notChecked(device == nil ? "no device identifier given (--device-id)" : "no receipt payload"))
        }
        if device != nil && !receipt.isComplete {
            return ValidationStep(id: StepID.deviceHash, title: StepID.title(for: StepID.deviceHash),
                                  status: .notChecked("the receipt payload is truncated"))
        }
        return DeviceHash.step(device: device, opaque: receipt.opaqueValue, bundleIDTLV: receipt.bundleIDTLV,
                               expected: receipt.sha1Hash)
    }

    static func compareStep(_ id: String, _ receipt: Receipt?, type: Int, expected: String?, flag: String) -> ValidationStep {
        let title = StepID.title(for: id)
        let name = ReceiptSchema.displayName(type: type, level: .app)
        guard let expected else { return ValidationStep(id: id, title: title, status: .notChecked("no \(flag) given")) }
        guard let receipt else { return ValidationStep(id: id, title: title, status: .failed("no receipt payload")) }
        let all = receipt.fields(type)
        guard let field = all.first else {
            return ValidationStep(id: id, title: title, status: .failed("the receipt has no \(name)"))
        }
        if all.count > 1 {
            return ValidationStep(id: id, title: title,
                                  status: .failed("\(name) appears \(all.count) times: which one counts is ambiguous"))
        }
        guard let actual = field.value.string else {
            return ValidationStep(id: id, title: title, status: .failed("the \(name) cannot be read"))
        }
        let details = ["receipt: \"\(actual)\"", "expected (\(flag)): \"\(expected)\""]
        if actual == expected { return ValidationStep(id: id, title: title, status: .passed, details: details) }
        return ValidationStep(id: id, title: title,
                              status: .failed("the receipt's \(name) is \"\(actual)\", not \"\(expected)\""),
                              details: details)
    }

    static func expirationStep(_ receipt: Receipt?, at moment: ReceiptDate) -> ValidationStep {
        let id = StepID.expiration
        let title = StepID.title(for: id)
        guard let receipt else { return ValidationStep(id: id, title: title, status: .notChecked("no receipt payload")) }
        guard let field = receipt.field(21) else {
            return ValidationStep(id: id, title: title, status: .passed,
                                  details: ["no expiration date (attribute 21): the receipt does not expire"])
        }
        switch field.value {
        case .date(let expiry):
            let details = ["expires \(expiry.utcString); judged at \(moment.utcString)"]
            if moment < expiry { return ValidationStep(id: id, title: title, status: .passed, details: details) }
            return ValidationStep(id: id, title: title, status: .failed("the receipt expired on \(expiry.utcString)"), details: details)
        case .absentDate:
            return ValidationStep(id: id, title: title, status: .passed,
                                  details: ["the expiration date (attribute 21) is empty: the receipt does not expire"])
        default:
            return ValidationStep(id: id, title: title, status: .failed("the expiration date (attribute 21) cannot be read"))
        }
    }

    // MARK: - verdict

    /// Valid when nothing failed, the receipt decoded cleanly, the signature, chain and time passed,
    /// and the chain ends at an Apple root with an Apple receipt-signing leaf — or at a root the
    /// user supplied with `--root` (their own test PKI, or Xcode's StoreKit Testing certificate for
    /// local testing, whose leaf carries no receipt-signing extension).
    static func verdict(_ a: ReceiptAnalysis) -> Verdict {
        var reasons: [String] = []
        for step in a.validationSteps {
            if case .failed(let why) = step.status { reasons.append("\(step.title): \(why)") }
        }
        guard let report = a.signature else {
            return Verdict(isValid: false, summary: "not validated (decoding only)",
                           reasons: reasons + ["validation was not requested"])
        }
        for id in [StepID.signature, StepID.chain, StepID.time] {
            if case .notChecked(let why)? = report.step(id)?.status {
                reasons.append("\(StepID.title(for: id)): not checked — \(why)")
            }
        }
        let userRoots = Set(a.options.roots.flatMap { (try? CertificateInfo.parseCertificates(fileBytes: $0)) ?? [] }
            .map(\.sha256Fingerprint))
        let anchorFingerprint = report.anchorCertificate?.sha256Fingerprint
        let userTrusted = anchorFingerprint.map { userRoots.contains($0) } ?? false
        let signer = report.step(StepID.receiptSigner)?.status
        if report.anchor == .xcodeStoreKitTesting && !userTrusted {
            reasons.append("\(TrustAnchors.xcodeTestingNote); pass its certificate with --root to accept it for local testing")
        } else if let anchor = report.anchor, !anchor.isAppleRoot, !userTrusted {
            reasons.append("the chain ends at \(anchor.displayName), which is not an Apple root and was not supplied with --root")
        }
        if case .notChecked(let why)? = signer, report.anchor != .xcodeStoreKitTesting {
            reasons.append("\(StepID.title(for: StepID.receiptSigner)): not checked — \(why)")
        }
        var unique: [String] = []
        for r in reasons where !unique.contains(r) { unique.append(r) }
        if !unique.isEmpty {
            return Verdict(isValid: false, summary: "INVALID", reasons: unique)
        }
        if report.anchor == .xcodeStoreKitTesting {
            return Verdict(isValid: true, summary: "valid for local testing only",
                           reasons: ["\(TrustAnchors.xcodeTestingNote); accepted because its certificate was supplied with --root"])
        }
        if let anchor = report.anchor, !anchor.isAppleRoot {
            return Verdict(isValid: true, summary: "valid, anchored at a root you supplied",
                           reasons: ["the chain ends at \(report.anchorCertificate?.label ?? "a user-supplied root") (supplied with --root), not at an Apple root: not an App Store receipt"])
        }
        return Verdict(isValid: true, summary: "valid App Store receipt", reasons: [])
    }
}
