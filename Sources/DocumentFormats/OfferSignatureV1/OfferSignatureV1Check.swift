#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import ReasonCodes
import DocumentCore

/// `verify --key KEY --bundle-id B` of a V1 offer signature: one step, "offer-signature-v1", that
/// says in words what failed and, when the signature does not match, which string was expected to
/// be signed (every part and separator visible) so it can be compared with what the server signed.
enum OfferSignatureV1Check {
    static let id = "offer-signature-v1"
    static let title = "promotional offer signature (V1)"

    static func step(_ signature: OfferSignatureV1, path: String?, key: DeveloperKey?, keyID expectedKeyID: String?,
                     bundleID: String?) -> VerificationStep {
        func make(_ status: VerificationStatus, _ code: ReasonCode?, _ reason: String?, details: [String] = []) -> VerificationStep {
            let message = switch status {
            case .passed: "passed"
            case .failed: "failed — " + (reason ?? "")
            case .notChecked: "not checked — " + (reason ?? "")
            case .info: "for information — " + (reason ?? "")
            }
            return VerificationStep(id: id, subject: VerificationStepSubject(.document, envelope: .none, path: path), title: title,
                                    status: status, reasonCode: code, reason: reason, message: message, details: details)
        }
        let missing = signature.missing
        if !missing.isEmpty {
            return make(.failed, .claimMissing, "it lacks \(missing.joined(separator: ", ")), which the signature covers")
        }
        guard let bundleID else {
            return make(.notChecked, .claimMissing, "the bundle id is the first signed part and no reply carries it: give --bundle-id")
        }
        guard let key else {
            return make(.notChecked, .developerKeyNeeded, "it is checked with your In-App Purchase key: give --key (the .p8 or its public key)",
                        details: signature.detailLines(bundleID: bundleID))
        }
        if let expectedKeyID, let keyId = signature.keyId, keyId != expectedKeyID {
            return make(.failed, .keyIDMismatch, "keyId is \"\(keyId)\" but the key given is \(expectedKeyID)",
                        details: signature.detailLines(bundleID: bundleID))
        }
        guard let der = signature.signatureDER, !der.isEmpty else {
            return make(.failed, .developerSignatureMismatch, "encodedSignature is not base64")
        }
        let message = ArraySlice(signature.signedString(bundleID: bundleID).utf8)
        if ES256Signature.verify(message: message, derSignature: der, developerKey: key) == nil {
            return make(.passed, nil, nil, details: signature.detailLines(bundleID: bundleID))
        }
        return make(.failed, .developerSignatureMismatch,
                    "the signature does not match the string below with this key: one of its parts differs from what was signed, or another key signed it",
                    details: signature.detailLines(bundleID: bundleID))
    }

    /// A report of the V1 signature alone (a reply or the object carries nothing else signed).
    static func report(_ document: Document, signature: OfferSignatureV1, path: String?, now: Date) -> VerificationReport {
        var report = VerificationReport(unverifiable: document, now: now)
        var signature = signature
        if case .options = document.source.place { signature.fromOptions = true }
        let jws = document.openedWith.jws
        let step = step(signature, path: path, key: jws.developerKey, keyID: jws.expectedKeyID, bundleID: document.openedWith.analysis.bundleID)
        report.steps = [step]
        let words = StepText.plain
        if step.status == .passed, let key = jws.developerKey {
            report.verdict = VerificationVerdict(valid: true, outcome: "developer-key", summary: words.signedByDeveloperKey(key),
                                                 reasons: [.init(code: .signedByDeveloperKey, step: nil, message: words.signedByYourKey)])
        } else {
            let needsKey = step.reasonCode == .developerKeyNeeded
            report.verdict = VerificationVerdict(valid: false, outcome: needsKey ? "key-needed" : step.status == .notChecked ? "not-validated" : "invalid",
                                                 summary: needsKey ? words.developerKeyNeededSummary : words.summary(step.status == .notChecked ? .notValidated : .invalid),
                                                 reasons: [.init(code: step.reasonCode ?? .notVerifiable, step: id, message: "\(title): \(step.reason ?? "")")])
        }
        return report
    }
}

extension OfferSignatureV1Check {
    /// `verify`'s text with the V1 step's detail lines (the signed string, part by part) under the
    /// step when it did not pass: what a developer compares with what their server signed.
    static func text(_ document: Document, report: VerificationReport, style: VerifyReport.Style) -> String {
        let text = VerificationText.text(report, inputName: document.source.name, style: style)
        guard let step = report.step(id), step.status != .passed, !step.details.isEmpty else { return text }
        var lines = text.components(separatedBy: "\n")
        guard let at = lines.firstIndex(where: { $0.hasPrefix("  ") && $0.contains(" \(title): ") }) else { return text }
        lines.insert(contentsOf: step.details.map { "      " + $0 }, at: at + 1)
        return lines.joined(separator: "\n")
    }
}

extension OfferSignatureV1Format {
    public func writeVerifyText(_ document: Document, report: VerificationReport, style: VerifyReport.Style, words: StepText,
                                to emit: (String) -> Void) {
        emit(OfferSignatureV1Check.text(document, report: report, style: style))
    }
}

extension RetentionReplyFormat {
    public func writeVerifyText(_ document: Document, report: VerificationReport, style: VerifyReport.Style, words: StepText,
                                to emit: (String) -> Void) {
        emit(OfferSignatureV1Check.text(document, report: report, style: style))
    }
}
