#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// The receipt-signer step: App Store receipts are signed by a certificate carrying Apple's
/// receipt-signing extension; chaining to an Apple root is not enough.
enum ReceiptSignerCheck {
    static func step(_ report: SignatureReport, signerCount: Int, chainPassed: Bool) -> ValidationStep {
        guard let signer = report.signer else {
            return ValidationStep(.receiptSigner, .notChecked(signerCount == 0 ? .noSignerInfo : .signerCertificateMissing))
        }
        var details = ["signer: \(signer.subject)"]
        if let issuer = report.certificates.first(where: { $0.subject == signer.issuer && $0 != signer }) {
            details.append(issuer.hasWWDRIntermediateOID
                ? "issuer \(issuer.label) carries \(CertificateInfo.wwdrIntermediateOID) (Apple Worldwide Developer Relations intermediate)"
                : "issuer \(issuer.label) does not carry \(CertificateInfo.wwdrIntermediateOID) (Apple Worldwide Developer Relations intermediate)")
        }
        if !chainPassed { details.append("the chain did not verify, so this certificate is not trusted") }

        if signer.hasReceiptSignerOID {
            details.insert("the signer certificate carries \(CertificateInfo.receiptSignerOID) (Apple receipt signing)", at: 0)
            return ValidationStep(.receiptSigner, .passed, details: details)
        }
        if TrustAnchors.kind(of: signer) == .xcodeStoreKitTesting {
            return ValidationStep(.receiptSigner, .notChecked(.xcodeSignerHasNoReceiptOID), details: details)
        }
        return ValidationStep(.receiptSigner, .failed(.signerLacksReceiptOID(signer: signer.label)), details: details)
    }
}
