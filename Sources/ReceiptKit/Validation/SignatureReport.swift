#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// Everything `SignatureValidation.validate` found out.
public struct SignatureReport: Sendable {
    /// The certificates embedded in the SignedData, in file order.
    public var certificates: [CertificateInfo] = []
    /// The embedded certificate matching the (first) SignerInfo.
    public var signer: CertificateInfo?
    /// The verified path, signer first, trust anchor last (empty unless the chain step passed).
    public var chain: [CertificateInfo] = []
    public var anchor: TrustAnchorKind?
    public var anchorCertificate: CertificateInfo?
    /// The user supplied the anchor through `extraRoots` (it may also be embedded in the receipt):
    /// the user vouched for it, which matters for anchors that are not Apple roots.
    public var anchorSuppliedByUser = false
    /// The SignerInfo's digest algorithm: "SHA-1", "SHA-256", … (nil when there is no SignerInfo).
    public var digestAlgorithm: String?
    /// The SignerInfo's signature algorithm, e.g. "rsaEncryption".
    public var signatureAlgorithm: String?
    /// The signed content (the receipt payload), once the signature step has run.
    public var signedContent: [UInt8]?
    /// Whether the verified chain would also be valid at `now` (nil when the chain did not verify).
    public var passesToday: Bool?
    /// signature, chain, time, receipt-signer — in that order.
    public var steps: [ValidationStep] = []

    public func step(_ id: StepID) -> ValidationStep? { steps.first { $0.id == id } }

    /// Signature, chain, time and receipt-signer all passed and the anchor is an Apple root.
    public var isAppStoreValid: Bool {
        StepID.openSSL.allSatisfy { step($0)?.status == .passed } && (anchor?.isAppleRoot ?? false)
    }
}
