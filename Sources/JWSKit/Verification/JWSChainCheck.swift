import COpenSSL
import Foundation
import ReceiptKit

/// The x5c steps: structure (count, order, links), the trust anchor, the Apple marker extensions
/// and validity at a date.
struct JWSChainCheck {
    static let xcodeCommonName = "StoreKit Testing in Xcode"

    let x5c: [[UInt8]]
    let certificates: [CertificateInfo?]
    let kind: JWSChainKind
    let structure: JWSStepStatus

    init(x5c: [[UInt8]]) {
        self.x5c = x5c
        certificates = x5c.map { CertificateInfo(der: $0) }
        let readable = certificates.compactMap { $0 }
        if x5c.isEmpty {
            kind = .missing
        } else if x5c.count == 3 {
            kind = .threeCertificates
        } else if readable.count == 1, x5c.count == 1, let only = readable.first,
                  only.isSelfSigned, only.commonName == Self.xcodeCommonName {
            kind = .xcodeStoreKitTesting
        } else {
            kind = .other(count: x5c.count)
        }
        structure = Self.structure(kind: kind, x5c: x5c, certificates: certificates)
    }

    private static func structure(kind: JWSChainKind, x5c: [[UInt8]], certificates: [CertificateInfo?]) -> JWSStepStatus {
        if kind == .missing { return .failed(.x5cMissing) }
        if let bad = certificates.firstIndex(where: { $0 == nil }) { return .failed(.certificateUnreadable(index: bad)) }
        if kind == .xcodeStoreKitTesting { return .passed }
        guard kind == .threeCertificates else { return .failed(.certificateCount(x5c.count)) }
        let certs = certificates.compactMap { $0 }
        let namesLink = { (order: [Int]) in (0..<2).allSatisfy { certs[order[$0]].issuer == certs[order[$0 + 1]].subject } }
        if !namesLink([0, 1, 2]) {
            let orders = [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
            if let found = orders.first(where: { namesLink($0) && certs[$0[2]].isSelfSigned }) {
                return .failed(.wrongOrder(expected: found))
            }
            let child = certs[0].issuer == certs[1].subject ? 1 : 0
            return .failed(.issuerMismatch(child: child, issuer: certs[child].issuer, nextSubject: certs[child + 1].subject))
        }
        for child in 0..<2 where !signed(x5c[child], by: x5c[child + 1]) {
            return .failed(.linkSignatureInvalid(child: child))
        }
        if !certs[2].isSelfSigned { return .failed(.rootNotSelfSigned(index: 2)) }
        return .passed
    }

    /// Whether `child`'s certificate signature verifies with `parent`'s public key.
    private static func signed(_ child: [UInt8], by parent: [UInt8]) -> Bool {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        guard let c = OpenSSLBridge.x509(der: child), let p = OpenSSLBridge.x509(der: parent) else { return false }
        defer { X509_free(c); X509_free(p) }
        guard let key = X509_get0_pubkey(p) else { return false }
        return X509_verify(c, key) == 1
    }

    /// The skip every certificate-role step gets when the structure is not usable.
    private var roleSkip: JWSSkip? {
        if kind == .missing { return .noCertificates }
        if structure.isFailed { return .chainStructureFailed }
        return nil
    }

    // MARK: root

    /// The trust-anchor step and, when it passes, the anchor and its certificate.
    func root(userRootFiles: [[UInt8]]) -> (JWSStepStatus, JWSAnchor?, CertificateInfo?) {
        if let skip = roleSkip { return (.notChecked(skip), nil, nil) }
        var userRoots: [CertificateInfo] = []
        var unreadable: Int?
        for (i, file) in userRootFiles.enumerated() {
            if let certs = try? CertificateInfo.parseCertificates(fileBytes: file) {
                userRoots += certs
            } else if unreadable == nil {
                unreadable = i
            }
        }
        let certs = certificates.compactMap { $0 }
        let pinned = certs.filter { TrustAnchors.kind(of: $0) == .appleRootCAG3 }
        let anchors = pinned.map(\.der) + userRoots.map(\.der)
        let notTrusted: JWSStepStatus = kind == .xcodeStoreKitTesting
            ? .failed(.xcodeTestingNotTrusted) : .failed(.rootNotPinned(sha256: certs.last?.sha256Fingerprint ?? ""))
        guard !anchors.isEmpty else {
            return (unreadable.map { .failed(.userRootUnreadable(index: $0)) } ?? notTrusted, nil, nil)
        }
        let outcome = X509PathVerification.verify(
            leaf: x5c[0], untrusted: Array(x5c.dropFirst()), anchors: anchors, at: nil,
            partialChain: userRoots.contains { !$0.isSelfSigned })
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

    // MARK: markers

    var leafMarker: JWSStepStatus {
        if let skip = roleSkip { return .notChecked(skip) }
        if kind == .xcodeStoreKitTesting { return .notChecked(.xcodeSingleCertificate) }
        return certificates[0]?.hasReceiptSignerOID == true
            ? .passed : .failed(.leafMarkerMissing(oid: CertificateInfo.receiptSignerOID))
    }

    var intermediateMarker: JWSStepStatus {
        if let skip = roleSkip { return .notChecked(skip) }
        if kind == .xcodeStoreKitTesting { return .notChecked(.xcodeSingleCertificate) }
        return certificates[1]?.hasWWDRIntermediateOID == true
            ? .passed : .failed(.intermediateMarkerMissing(oid: CertificateInfo.wwdrIntermediateOID))
    }

    // MARK: validity

    /// Every readable x5c certificate (and a user-supplied anchor the token does not carry) at `date`.
    func validity(at date: Date?, anchor: CertificateInfo?) -> JWSStepStatus {
        guard let date else { return .notChecked(.noSignedDate) }
        var judged: [(Int?, CertificateInfo)] = certificates.enumerated().compactMap { i, c in c.map { (i, $0) } }
        if let anchor, !judged.contains(where: { $0.1.sha256Fingerprint == anchor.sha256Fingerprint }) {
            judged.append((nil, anchor))
        }
        guard !judged.isEmpty else { return .notChecked(.noCertificates) }
        let problems: [JWSValidityProblem] = judged.compactMap { index, cert in
            let kind: JWSValidityProblem.Kind
            if let from = cert.notBefore, let to = cert.notAfter {
                if date < from { kind = .notYetValid } else if date > to { kind = .expired } else { return nil }
            } else {
                kind = .unreadableDates
            }
            return JWSValidityProblem(x5cIndex: index, label: cert.label, notBefore: cert.notBefore,
                                      notAfter: cert.notAfter, kind: kind)
        }
        return problems.isEmpty ? .passed : .failed(.certificatesNotValid(at: date, problems))
    }
}
