import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// The receipt's chain and time steps: a leaf, the untrusted certificates that came with it, and
/// the pinned and user-supplied anchors, checked by X509Trust's `X509PathVerification` and worded as
/// receipt steps. `SignatureValidation` calls it; tokens check their `x5c` chain in JWSKit over the
/// same X509Trust.
public enum ChainVerification {
    /// Both steps and what the verified path was.
    public struct ChainResult: Sendable {
        public var chainStep: ValidationStep
        public var timeStep: ValidationStep
        /// Leaf first, anchor last (empty unless the chain step passed).
        public var chain: [CertificateInfo] = []
        public var anchor: TrustAnchorKind?
        public var anchorCertificate: CertificateInfo?
        public var suppliedByUser = false
        public var passesToday: Bool?
    }

    struct VerifyOutcome {
        var ok: Bool
        var error: String
        var depth: Int
        var errorCertificate: CertificateInfo?
        var chain: [CertificateInfo]
        /// OpenSSL could not start verifying (no path was judged).
        var setupFailed = false

        var chainError: ChainError {
            ChainError(openSSL: error, depth: depth, certificate: errorCertificate.map(CertificateRef.init))
        }

        /// "certificate has expired (depth 1, Apple Worldwide Developer Relations Certification Authority, valid 2013-02-07 … 2023-02-07)"
        var errorSentence: String {
            guard let cert = errorCertificate else { return error }
            return "\(error) (depth \(depth), \(cert.label), valid \(cert.validityText))"
        }
    }

    /// `missing`: why there is nothing to check when `signer` is nil. `certs` are borrowed.
    static func check(signer: OpaquePointer?, missing: StepReason, certificates certs: [OpaquePointer],
                      infos: [CertificateInfo], anchors: TrustAnchorSet,
                      creationDate: Date?, now: Date) -> ChainResult {
        func unchecked(_ why: StepReason) -> ChainResult {
            ChainResult(chainStep: ValidationStep(.chain, .notChecked(why)), timeStep: ValidationStep(.time, .notChecked(why)))
        }
        guard let signer else { return unchecked(missing) }

        var chainDetails: [String] = []

        // User-supplied roots: every certificate of every file; unreadable files are reported, not fatal.
        // Each is decoded once: the same object is read for the report and added to the store.
        var rootObjects: [OpaquePointer] = []
        var userRoots: [CertificateInfo] = []
        defer { rootObjects.forEach { X509_free($0) } }
        let prepared = anchors.prepared()
        for (i, reason) in prepared.unreadable {
            chainDetails.append("supplied root #\(i + 1) ignored: \(reason)")
        }
        for root in prepared.certificates {
            rootObjects.append(root.withX509 { x in X509_up_ref(x); return x })
            userRoots.append(root.info)
        }
        OpenSSLError.clear()

        guard let store = X509_STORE_new() else { return unchecked(.outOfMemory) }
        defer { X509_STORE_free(store) }

        // Anchors: embedded certificates whose fingerprint is pinned, plus the user's roots.
        var anchorFingerprints = Set<String>()
        for (x, info) in zip(certs, infos) where TrustAnchors.kind(of: info) != nil {
            if X509_STORE_add_cert(store, x) == 1 { anchorFingerprints.insert(info.sha256Fingerprint) }
        }
        for (x, root) in zip(rootObjects, userRoots) {
            if X509_STORE_add_cert(store, x) == 1 { anchorFingerprints.insert(root.sha256Fingerprint) }
        }
        OpenSSLError.clear()
        // A non-self-signed anchor is only ever one the user asked for.
        let partial = userRoots.contains { !$0.isSelfSigned }

        guard let untrusted = shim_sk_X509_new_null() else { return unchecked(.outOfMemory) }
        defer { shim_sk_X509_free(untrusted) }  // borrowed entries: free the stack only
        for x in certs { _ = shim_sk_X509_push(untrusted, x) }

        // The path is built from these objects: their facts are read already (three runs below).
        let known = Dictionary(zip(certs + rootObjects, infos + userRoots), uniquingKeysWith: { first, _ in first })
        // What the store and the stack hold, by DER: the path check's whole input, for the cache.
        let anchorsDER = zip(certs, infos).filter { TrustAnchors.kind(of: $0.1) != nil }.map(\.1.der) + userRoots.map(\.der)
        let cacheKey = (leaf: known[signer]?.der ?? OpenSSLBridge.der(of: signer), untrusted: infos.map(\.der), anchors: anchorsDER)
        func run(at date: Date?) -> VerifyOutcome {
            verify(leaf: signer, untrusted: untrusted, store: store, at: date, partial: partial, known: known, cacheKey: cacheKey)
        }

        // Chain: structure, signatures, anchor — dates ignored.
        let structural = run(at: nil)
        guard structural.ok, let last = structural.chain.last else {
            chainDetails += untrustedExplanation(infos: infos, anchorFingerprints: anchorFingerprints,
                                                 userRoots: userRoots)
            chainDetails += infos.enumerated().map { "embedded #\($0.offset + 1): \($0.element.subject) (SHA-256 \($0.element.sha256Fingerprint))" }
            var timeDetails: [String] = []
            if let creationDate {
                timeDetails = infos.map {
                    "\($0.label): valid \($0.validityText)\($0.isValid(at: creationDate) ? "" : " — not valid at \(ValidationDate.iso(creationDate))")"
                }
            }
            return ChainResult(
                chainStep: ValidationStep(.chain, .failed(structural.setupFailed ? .chainSetupFailed(structural.error)
                                                                                  : .chainUnverified(structural.chainError)),
                                          details: chainDetails),
                timeStep: ValidationStep(.time, .notChecked(.chainNotVerified), details: timeDetails))
        }

        var result = ChainResult(
            chainStep: ValidationStep(.chain, .passed), timeStep: ValidationStep(.time, .passed))
        result.chain = structural.chain
        result.anchorCertificate = last
        let embeddedAnchor = infos.contains { $0.sha256Fingerprint == last.sha256Fingerprint }
        result.suppliedByUser = userRoots.contains { $0.sha256Fingerprint == last.sha256Fingerprint }
        result.anchor = TrustAnchors.kind(of: last) ?? .userSupplied

        var lines: [String] = []
        if result.anchor == .xcodeStoreKitTesting { lines.append(TrustAnchors.xcodeTestingNote) }
        if result.anchor == .userSupplied {
            lines.append("anchored at a user-supplied root that is not an Apple root: not an App Store receipt")
        }
        for (depth, cert) in structural.chain.enumerated() {
            let role = depth == structural.chain.count - 1 ? "trust anchor" : (depth == 0 ? "signer" : "intermediate")
            lines.append("depth \(depth) (\(role)): \(cert.subject)")
        }
        var source = [String]()
        if result.anchor != .userSupplied { source.append("pinned") }
        if result.suppliedByUser { source.append("supplied by you") }
        if embeddedAnchor { source.append(result.suppliedByUser ? "also embedded in the receipt" : "embedded in the receipt") }
        lines.append("trust anchor: \(result.anchor!.displayName), SHA-256 \(last.sha256Fingerprint) (\(source.joined(separator: ", ")))")
        result.chainStep.details = chainDetails + lines

        // Time: validity at the receipt's creation date, and separately today.
        let today = run(at: now)
        result.passesToday = today.ok
        let todayLine = today.ok ? "at today's date (\(ValidationDate.day(now))): also valid"
                                 : "at today's date: \(today.errorSentence)"
        if let creationDate {
            let atCreation = run(at: creationDate)
            let when = ValidationDate.iso(creationDate)
            var details: [String] = []
            if atCreation.ok {
                details.append("every certificate was valid at the creation date \(when)")
                details += structural.chain.map { "\($0.label): valid \($0.validityText)" }
                details.append(todayLine)
                result.timeStep.details = details
            } else {
                details += structural.chain.map { "\($0.label): valid \($0.validityText)" }
                details.append(todayLine)
                result.timeStep.status = .failed(.invalidAtCreation(date: when, atCreation.chainError))
                result.timeStep.details = details
            }
        } else {
            result.timeStep.status = .notChecked(.noCreationDate)
            result.timeStep.details = [todayLine]
        }
        return result
    }

    /// Why nothing in the store anchored the chain, in the receipt's terms.
    static func untrustedExplanation(infos: [CertificateInfo], anchorFingerprints: Set<String>,
                                             userRoots: [CertificateInfo]) -> [String] {
        var lines: [String] = []
        for info in infos where info.isSelfSigned && !anchorFingerprints.contains(info.sha256Fingerprint) {
            lines.append("the receipt embeds the self-signed certificate \(info.subject) (SHA-256 \(info.sha256Fingerprint)); it is not a pinned root and was not supplied as a root, so it is not trusted")
        }
        if !infos.contains(where: { $0.isSelfSigned }) && userRoots.isEmpty {
            lines.append("the PKCS#7 structure does not embed a root certificate; it has to be supplied")
        }
        return lines
    }

    /// The path check itself is `X509PathVerification.run`, shared with JWS `x5c` chains.
    static func verify(leaf: OpaquePointer, untrusted: OpaquePointer, store: OpaquePointer,
                       at date: Date?, partial: Bool, known: [OpaquePointer: CertificateInfo],
                       cacheKey: (leaf: [UInt8], untrusted: [[UInt8]], anchors: [[UInt8]])?) -> VerifyOutcome {
        let o = X509PathVerification.run(leaf: leaf, untrusted: untrusted, store: store, at: date, partialChain: partial,
                                         known: known, cacheKey: cacheKey)
        return VerifyOutcome(ok: o.ok, error: o.error, depth: o.depth, errorCertificate: o.errorCertificate,
                             chain: o.chain, setupFailed: o.setupFailed)
    }
}
