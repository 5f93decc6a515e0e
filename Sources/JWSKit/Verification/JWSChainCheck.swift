#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// The x5c steps: structure (count, order, links), the trust anchor, the Apple marker extensions
/// and validity at a date, for one x5c and one set of root files.
///
/// Each link is verified once. When the chain could link and there is an anchor to check against,
/// the path check (`X509_verify_cert`) runs first; if it succeeds over exactly the x5c certificates it
/// has verified both links with the same keys, and the structure step takes that result. Only when it
/// does not are the links verified one by one, to name the one that is broken.
struct JWSChainCheck: Sendable {
    static let xcodeCommonName = "StoreKit Testing in Xcode"

    let x5c: [[UInt8]]
    /// x5c decoded once, nil where an entry is not a certificate.
    let decoded: [DecodedCertificate?]
    let certificates: [CertificateInfo?]
    let kind: JWSChainKind
    let structure: JWSStepStatus
    /// The trust-anchor step and, when it passes, the anchor and its certificate.
    let root: (status: JWSStepStatus, anchor: JWSAnchor?, certificate: CertificateInfo?)
    /// Whether the structure step's links were taken from the path check (for tests).
    let linksFromPathCheck: Bool

    /// `roots`: the user's, prepared once (their facts, self-signatures included, already read);
    /// x5c entries with their bytes are those very certificates.
    init(x5c: [[UInt8]], roots: TrustAnchorSet.Prepared, certificates cache: CertificateCache) {
        cache.adopt(roots.certificates)
        let decoded = x5c.map { cache.certificate(der: $0) }
        let certificates = decoded.map { $0?.info }
        let kind = Self.kind(x5c: x5c, certificates: certificates)
        var anchorCheck: AnchorCheck?
        func checkAnchor() -> AnchorCheck {
            if let anchorCheck { return anchorCheck }
            let made = AnchorCheck(chain: decoded.compactMap { $0 }, kind: kind, roots: roots)
            anchorCheck = made
            return made
        }
        var linksFromPathCheck = false
        let structure = Self.structure(kind: kind, x5c: x5c, certificates: certificates) {
            let chain = decoded.compactMap { $0 }
            if checkAnchor().verified(exactly: chain) {
                linksFromPathCheck = true
                return nil
            }
            return (0..<2).first { !chain[$0].isSigned(by: chain[$0 + 1]) }
        }
        self.x5c = x5c
        self.decoded = decoded
        self.certificates = certificates
        self.kind = kind
        self.structure = structure
        self.linksFromPathCheck = linksFromPathCheck
        if let skip = Self.roleSkip(kind: kind, structure: structure) {
            root = (.notChecked(skip), nil, nil)
        } else {
            root = checkAnchor().step
        }
    }

    /// Root files not prepared before (tests): prepared here, once for this check.
    init(x5c: [[UInt8]], userRootFiles: [[UInt8]], certificates cache: CertificateCache) {
        self.init(x5c: x5c, roots: TrustAnchorSet(files: userRootFiles).prepared(), certificates: cache)
    }

    private static func kind(x5c: [[UInt8]], certificates: [CertificateInfo?]) -> JWSChainKind {
        let readable = certificates.compactMap { $0 }
        if x5c.isEmpty { return .missing }
        if x5c.count == 3 { return .threeCertificates }
        if readable.count == 1, x5c.count == 1, let only = readable.first,
           only.isSelfSigned, only.commonName == Self.xcodeCommonName {
            return .xcodeStoreKitTesting
        }
        return .other(count: x5c.count)
    }

    /// `brokenLink`: the first child (0 or 1) whose certificate signature does not verify with the
    /// next certificate's key, nil when both do; asked only once the names link in x5c order.
    private static func structure(kind: JWSChainKind, x5c: [[UInt8]], certificates: [CertificateInfo?],
                                  brokenLink: () -> Int?) -> JWSStepStatus {
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
        if let child = brokenLink() { return .failed(.linkSignatureInvalid(child: child)) }
        if !certs[2].isSelfSigned { return .failed(.rootNotSelfSigned(index: 2)) }
        return .passed
    }

    /// The skip every certificate-role step gets when the structure is not usable.
    private static func roleSkip(kind: JWSChainKind, structure: JWSStepStatus) -> JWSSkip? {
        if kind == .missing { return .noCertificates }
        if structure.isFailed { return .chainStructureFailed }
        return nil
    }

    private var roleSkip: JWSSkip? { Self.roleSkip(kind: kind, structure: structure) }

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
    /// Judged in place: every token of a batch asks twice (at its signedDate and today), and a list
    /// of the certificates' copies cost more than the comparisons.
    func validity(at date: Date?, anchor: CertificateInfo?) -> JWSStepStatus {
        guard let date else { return .notChecked(.noSignedDate) }
        var judged = 0
        var problems: [JWSValidityProblem] = []
        func judge(_ index: Int?, _ cert: CertificateInfo) {
            judged += 1
            let kind: JWSValidityProblem.Kind
            if let from = cert.notBefore, let to = cert.notAfter {
                if date < from { kind = .notYetValid } else if date > to { kind = .expired } else { return }
            } else {
                kind = .unreadableDates
            }
            problems.append(JWSValidityProblem(x5cIndex: index, label: cert.label, notBefore: cert.notBefore,
                                               notAfter: cert.notAfter, kind: kind))
        }
        for (index, certificate) in certificates.enumerated() {
            if let certificate { judge(index, certificate) }
        }
        if let anchor, !certificates.contains(where: { $0?.sha256Fingerprint == anchor.sha256Fingerprint }) {
            judge(nil, anchor)
        }
        guard judged > 0 else { return .notChecked(.noCertificates) }
        return problems.isEmpty ? .passed : .failed(.certificatesNotValid(at: date, problems))
    }
}
