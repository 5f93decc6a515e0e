import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// The trust-anchor step of one x5c chain: the anchors are the chain's certificates pinned as Apple
/// Root CA - G3 and every certificate of the user's root files (prepared once, `TrustAnchorSet`);
/// the path from the leaf through the rest of x5c must end at one of them (dates are the validity
/// steps' business).
struct AnchorCheck {
    let step: (status: JWSStepStatus, anchor: JWSAnchor?, certificate: CertificateInfo?)
    /// The path check's result; nil when there was nothing to check against.
    let outcome: X509PathVerification.Outcome?

    /// `chain`: the x5c certificates, all readable, in x5c order.
    init(chain: [DecodedCertificate], kind: JWSChainKind, roots: TrustAnchorSet.Prepared) {
        let userRoots = roots.certificates
        let unreadable = roots.firstUnreadable
        let pinned = chain.filter { TrustAnchors.kind(of: $0.info) == .appleRootCAG3 }
        let anchors = pinned + userRoots
        let notTrusted: JWSStepStatus = kind == .xcodeStoreKitTesting
            ? .failed(.xcodeTestingNotTrusted) : .failed(.rootNotPinned(sha256: chain.last?.info.sha256Fingerprint ?? "",
                                                                   subject: chain.last?.info.subject ?? ""))
        guard let leaf = chain.first, !anchors.isEmpty else {
            step = (unreadable.map { .failed(.userRootUnreadable(index: $0)) } ?? notTrusted, nil, nil)
            outcome = nil
            return
        }
        let outcome = X509PathVerification.verify(
            leaf: leaf, untrusted: Array(chain.dropFirst()), anchors: anchors, at: nil,
            partialChain: userRoots.contains { !$0.info.isSelfSigned })
        self.outcome = outcome
        step = Self.step(outcome, unreadable: unreadable, notTrusted: notTrusted)
    }

    private static func step(_ outcome: X509PathVerification.Outcome, unreadable: Int?,
                             notTrusted: JWSStepStatus) -> (JWSStepStatus, JWSAnchor?, CertificateInfo?) {
        guard outcome.ok, let last = outcome.chain.last else {
            if let unreadable { return (.failed(.userRootUnreadable(index: unreadable)), nil, nil) }
            // No issuer in the store, or a self-signed certificate that is not an anchor: untrusted root.
            let untrustedCodes = [X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
                                  X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN]
            if untrustedCodes.contains(Int32(outcome.code)) { return (notTrusted, nil, nil) }
            return (.failed(.pathVerification(error: outcome.error, depth: outcome.depth)), nil, nil)
        }
        let anchor: JWSAnchor = TrustAnchors.kind(of: last) == .appleRootCAG3
            ? .appleRootCAG3 : .userSupplied(sha256: last.sha256Fingerprint)
        return (.passed, anchor, last)
    }

    /// Whether the path check succeeded over exactly `chain`, leaf to anchor: then `X509_verify_cert`
    /// has verified each certificate's signature with the next one's key, as the structure step would.
    func verified(exactly chain: [DecodedCertificate]) -> Bool {
        guard let outcome, outcome.ok else { return false }
        return outcome.chain.map(\.der) == chain.map(\.info.der)
    }
}

/// The fingerprint the root step pins: X509Trust's TrustAnchors holds the one copy of the value.
public enum JWSPins {
    public static let appleRootCAG3 = TrustAnchors.pinned.first { $0.kind == .appleRootCAG3 }?.sha256 ?? ""
}
