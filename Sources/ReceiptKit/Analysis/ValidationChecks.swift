import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import X509Trust

/// The receipt's own steps (contents, device hash, bundle id, app version, expiration), the
/// OpenSSL steps from `SignatureValidation`, and the verdict that combines them.
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
                                                      now: options.now, anchors: options.anchors)
            if let note = fallbackNote, let i = report.steps.firstIndex(where: { $0.id == .time }),
               report.steps[i].status.isPassed || report.steps[i].status.isFailed {
                report.steps[i].details.insert(note, at: 0)
            }
            a.signature = report
        }

        steps.append(contentsStep(a))
        if let report = a.signature {
            steps += report.steps
        } else {
            for id in StepID.openSSL { steps.append(ValidationStep(id, .notChecked(.validationNotRequested))) }
        }
        steps.append(deviceHashStep(receipt, options.deviceID))
        steps.append(compareStep(.bundleID, receipt, type: 2, expected: options.bundleID, input: .bundleID))
        steps.append(compareStep(.appVersion, receipt, type: 3, expected: options.appVersion, input: .appVersion))
        steps.append(environmentStep(receipt, expected: options.environment))
        steps.append(appAppleIDStep(receipt, expected: options.appAppleID))
        steps.append(expirationStep(receipt, at: moment))
        a.validationSteps = steps
        a.verdict = verdict(a)
    }

    // MARK: - contents

    static func contentsStep(_ a: ReceiptAnalysis) -> ValidationStep {
        guard let receipt = a.receipt else {
            let first = a.tree.diagnostics[a.findingsRange].first { $0.severity == .error } ?? a.tree.diagnostics.first { $0.severity == .error }
            return ValidationStep(.contents, .failed(.notAReceipt(firstError: first?.message)))
        }
        // Errors inside the ContentInfo; junk after it is reported (trailing-data) but not signed,
        // so it does not make the receipt's contents wrong.
        let root = a.container?.contentInfo ?? 0
        let rootRange = a.tree.nodes.isEmpty ? 0..<0 : a.tree.nodes[root].byteRange
        // Counted, and the first kept: a list of them was one more copy of the findings at the peak.
        var errorCount = 0
        var firstError: Diagnostic?
        for d in a.allDiagnostics where d.severity == .error {
            let inside = d.node.map { PKCS7Locator.isInside($0.index, root, a.tree) } ?? rootRange.contains(d.offset)
            guard inside else { continue }
            errorCount += 1
            if firstError == nil { firstError = d }
        }
        let attributeCount = receipt.fields.count + receipt.inApp.reduce(0) { $0 + $1.fields.count }
        var details = ["\(receipt.fields.count) app-level attribute(s), \(receipt.inApp.count) in-app purchase(s), \(attributeCount) attribute(s) in all"]
        let unlisted = receipt.unlistedCount
        if unlisted > 0 { details.append("\(unlisted) unlisted (Apple-private) attribute(s) kept as raw values") }
        if let c = a.container, c.isBER { details.append("the container is BER (indefinite lengths, constructed OCTET STRING), as Xcode writes it") }
        if let c = a.container, c.payloadIsReassembled {
            details.append("the payload came in \(c.payloadChunks.count) OCTET STRING chunks and was reassembled")
        }
        if let signed = a.signature?.signedContent, !payloadEquals(a, signed) {
            return ValidationStep(.contents, .failed(.payloadDiffersFromSignature(decoded: payloadBytes(a).count, signed: signed.count)),
                                  details: details)
        }
        if let first = firstError {
            return ValidationStep(.contents, .failed(.receiptErrors(count: errorCount, code: first.code, offset: first.offset,
                                                                    message: first.message)),
                                  details: details)
        }
        return ValidationStep(.contents, .passed, details: details)
    }

    /// `payloadBytes(a) == signed` without copying the payload, one `memcmp` per chunk: the
    /// element-by-element `Array ==` cost ≈ 25 M instructions on a 3.5 MB receipt.
    static func payloadEquals(_ a: ReceiptAnalysis, _ signed: [UInt8]) -> Bool {
        if let p = a.payloadTree { return bytesEqual(p.bytes[...], signed[...]) }
        guard let c = a.container else { return signed.isEmpty }
        var position = 0
        for chunk in c.payloadChunks {
            let content = a.tree.content(of: chunk)
            guard position + content.count <= signed.count,
                  bytesEqual(content, signed[position..<(position + content.count)]) else { return false }
            position += content.count
        }
        return position == signed.count
    }

    static func bytesEqual(_ x: ArraySlice<UInt8>, _ y: ArraySlice<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        if x.isEmpty { return true }
        return x.withUnsafeBufferPointer { p in
            y.withUnsafeBufferPointer { q in memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0 }
        }
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
                return ValidationStep(.deviceHash, .notChecked(.ambiguousAttributes(ambiguous)))
            }
        }
        guard let receipt else {
            return ValidationStep(.deviceHash, .notChecked(device == nil ? .notGiven(.deviceID) : .noReceiptPayload))
        }
        if device != nil && !receipt.isComplete {
            return ValidationStep(.deviceHash, .notChecked(.payloadTruncated))
        }
        return DeviceHash.step(device: device, opaque: receipt.opaqueValue, bundleIDTLV: receipt.bundleIDTLV,
                               expected: receipt.sha1Hash)
    }

    static func compareStep(_ id: StepID, _ receipt: Receipt?, type: Int, expected: String?, input: UserInput) -> ValidationStep {
        guard let expected else { return ValidationStep(id, .notChecked(.notGiven(input))) }
        guard let receipt else { return ValidationStep(id, .failed(.noReceiptPayload)) }
        let all = receipt.fields(type)
        guard let field = all.first else { return ValidationStep(id, .failed(.attributeMissing(type: type))) }
        if all.count > 1 { return ValidationStep(id, .failed(.attributeRepeated(type: type, count: all.count))) }
        guard let actual = field.value.string else { return ValidationStep(id, .failed(.attributeUnreadable(type: type))) }
        let details = ["receipt: \"\(actual)\"", "expected: \"\(expected)\""]
        if actual == expected { return ValidationStep(id, .passed, details: details) }
        return ValidationStep(id, .failed(.valueMismatch(type: type, actual: actual, expected: expected)), details: details)
    }

    /// The receipt type (attribute 0) names an environment; the expected one matches it case-insensitively.
    static func environmentStep(_ receipt: Receipt?, expected: String?) -> ValidationStep {
        guard let expected else { return ValidationStep(.environment, .notChecked(.notGiven(.environment))) }
        guard let receipt else { return ValidationStep(.environment, .failed(.noReceiptPayload)) }
        let all = receipt.fields(0)
        guard let field = all.first else { return ValidationStep(.environment, .failed(.attributeMissing(type: 0))) }
        if all.count > 1 { return ValidationStep(.environment, .failed(.attributeRepeated(type: 0, count: all.count))) }
        guard let type = field.value.string else { return ValidationStep(.environment, .failed(.attributeUnreadable(type: 0))) }
        let environment = ReceiptEnvironment(receiptType: type)
        let details = ["receipt: \"\(type)\" (\(environment?.rawValue ?? "no known environment"))", "expected: \(expected)"]
        if let environment, environment == ReceiptEnvironment(userText: expected) {
            return ValidationStep(.environment, .passed, details: details)
        }
        return ValidationStep(.environment, .failed(.environmentMismatch(receiptType: type, environment: environment, expected: expected)),
                              details: details)
    }

    /// Attribute 1 (app item id, an INTEGER) against the app's Apple ID.
    static func appAppleIDStep(_ receipt: Receipt?, expected: Int64?) -> ValidationStep {
        guard let expected else { return ValidationStep(.appAppleID, .notChecked(.notGiven(.appAppleID))) }
        guard let receipt else { return ValidationStep(.appAppleID, .failed(.noReceiptPayload)) }
        let all = receipt.fields(1)
        guard let field = all.first else { return ValidationStep(.appAppleID, .failed(.attributeMissing(type: 1))) }
        if all.count > 1 { return ValidationStep(.appAppleID, .failed(.attributeRepeated(type: 1, count: all.count))) }
        guard let actual = field.value.integerText else { return ValidationStep(.appAppleID, .failed(.attributeUnreadable(type: 1))) }
        let details = ["receipt: \(actual)", "expected: \(expected)"]
        if actual == String(expected) { return ValidationStep(.appAppleID, .passed, details: details) }
        return ValidationStep(.appAppleID, .failed(.appItemIDMismatch(actual: actual, expected: String(expected),
                                                                      environment: receipt.environment)),
                              details: details)
    }

    static func expirationStep(_ receipt: Receipt?, at moment: ReceiptDate) -> ValidationStep {
        guard let receipt else { return ValidationStep(.expiration, .notChecked(.noReceiptPayload)) }
        guard let field = receipt.field(21) else {
            return ValidationStep(.expiration, .passed, details: ["no expiration date (attribute 21): the receipt does not expire"])
        }
        switch field.value {
        case .date(let expiry):
            let details = ["expires \(expiry.utcString); judged at \(moment.utcString)"]
            if moment < expiry { return ValidationStep(.expiration, .passed, details: details) }
            return ValidationStep(.expiration, .failed(.expired(on: expiry.utcString)), details: details)
        case .absentDate:
            return ValidationStep(.expiration, .passed,
                                  details: ["the expiration date (attribute 21) is empty: the receipt does not expire"])
        default:
            return ValidationStep(.expiration, .failed(.attributeUnreadable(type: 21)))
        }
    }

    // MARK: - verdict

    /// Valid when nothing failed, the receipt decoded cleanly, the signature, chain and time passed,
    /// and the chain ends at an Apple root with an Apple receipt-signing leaf — or at a root the
    /// user supplied (their own test PKI, or Xcode's StoreKit Testing certificate for local
    /// testing, whose leaf carries no receipt-signing extension).
    static func verdict(_ a: ReceiptAnalysis) -> Verdict {
        var reasons: [Verdict.Reason] = []
        for step in a.validationSteps {
            if case .failed(let why) = step.status { reasons.append(.stepFailed(step.id, why)) }
        }
        guard let report = a.signature else {
            return Verdict(.notValidated, reasons: reasons + [.validationNotRequested])
        }
        for id in [StepID.signature, .chain, .time] {
            if case .notChecked(let why)? = report.step(id)?.status { reasons.append(.stepNotChecked(id, why)) }
        }
        let userRoots = Set(a.options.anchors.prepared().certificates.map(\.info.sha256Fingerprint))
        let anchorFingerprint = report.anchorCertificate?.sha256Fingerprint
        let userTrusted = anchorFingerprint.map { userRoots.contains($0) } ?? false
        let signer = report.step(.receiptSigner)?.status
        if report.anchor == .xcodeStoreKitTesting && !userTrusted {
            reasons.append(.xcodeTestingNotSupplied)
        } else if let anchor = report.anchor, !anchor.isAppleRoot, !userTrusted {
            reasons.append(.anchorNotTrusted(anchor.displayName))
        }
        if case .notChecked(let why)? = signer, report.anchor != .xcodeStoreKitTesting {
            reasons.append(.stepNotChecked(.receiptSigner, why))
        }
        var unique: [Verdict.Reason] = []
        for r in reasons where !unique.contains(r) { unique.append(r) }
        if !unique.isEmpty { return Verdict(.invalid, reasons: unique) }
        if report.anchor == .xcodeStoreKitTesting {
            return Verdict(.validForLocalTesting, reasons: [.acceptedForLocalTesting])
        }
        if let anchor = report.anchor, !anchor.isAppleRoot {
            let label = report.anchorCertificate?.label ?? "a user-supplied root"
            return Verdict(.validAtUserRoot(anchor: label), reasons: [.anchoredAtUserRoot(label)])
        }
        return Verdict(.appStoreValid)
    }
}
