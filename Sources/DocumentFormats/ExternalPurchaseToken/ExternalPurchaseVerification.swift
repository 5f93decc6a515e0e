import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import DocumentCore

extension VerificationReport {
    /// An external purchase token has no signature: the verdict says so, and the expectations given
    /// (`--bundle-id`, `--environment`, `--app-apple-id`) are compared with its fields as steps, so
    /// that none is dropped in silence. Its environment is Sandbox when the id starts `SANDBOX_`.
    mutating func checkExternalPurchase(_ model: ExternalPurchaseModel, bundleID: String?, jws: JWSOptions) {
        let payload = model.token.payload
        let environment = model.token.isSandbox ? "Sandbox" : "Production"
        let checks: [(JWSStep, String?, String?)] = [
            (.bundleID, bundleID, payload.string("bundleId")),
            (.environment, jws.expectedEnvironment, payload.field("externalPurchaseId") == nil ? nil : environment),
            (.appAppleID, jws.expectedAppAppleID.map(String.init), payload.appAppleId.map(String.init)),
        ]
        for (step, expected, found) in checks where expected != nil {
            let status = JWSVerifier.claim(expected: expected, found: found) { PlainText.equalsIgnoringCase($0, $1) }
            let s = VerificationStep(id: step.rawValue, subject: VerificationStepSubject(.document, envelope: .none),
                                     title: step.title, status: .init(status), reasonCode: status.reasonCode,
                                     reason: status.reason, message: status.summary)
            steps.append(s)
            if case .failed(let failure) = status {
                verdict.reasons.append(.init(code: failure.code, step: step.rawValue, message: "\(step.title): \(failure.sentence)"))
            }
        }
    }
}
