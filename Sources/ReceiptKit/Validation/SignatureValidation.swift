// Signature and certificate-chain validation of Apple receipts (PKCS#7 / CMS SignedData, DER or BER),
// on OpenSSL 3. This directory is the only place in ReceiptKit that talks to OpenSSL.
//
// Public API
// ----------
//
//     SignatureValidation.validate(pkcs7: [UInt8], payload: [UInt8]? = nil, creationDate: Date?,
//                                  now: Date = Date(), extraRoots: [[UInt8]] = []) -> SignatureReport
//         Never throws, never crashes on garbage: every outcome is in `report.steps`, in this order:
//           "signature"       the CMS signature over the content (signer certificate not chain-checked here)
//           "chain"           embedded (untrusted) certificates → a trust anchor, validity dates ignored
//           "time"            the same chain, judged at `creationDate`; `passesToday` judges it at `now`
//           "receipt-signer"  the signer certificate carries 1.2.840.113635.100.6.11.1
//         `extraRoots` are the bytes of `--root` files (DER or PEM, several certificates per PEM allowed).
//
//     SignatureReport       certificates, signer, chain, anchor (TrustAnchorKind), anchorCertificate,
//                           anchorSuppliedByUser, digestAlgorithm ("SHA-1", "SHA-256"), signatureAlgorithm,
//                           signedContent, passesToday, steps, step(_:), isAppStoreValid
//     ValidationStep        id / title / status (StepStatus: .passed, .failed(why), .notChecked(why)) / details
//     StepID                the step identifiers ("signature", "chain", "time", "receipt-signer",
//                           "device-hash", "bundle-id", "app-version", "expiration") and their titles
//     CertificateInfo       subject, issuer (RFC 2253), commonName, serial, notBefore, notAfter,
//                           sha256Fingerprint, isSelfSigned, hasReceiptSignerOID, hasWWDRIntermediateOID,
//                           signatureAlgorithm, der; init?(der:), parseCertificates(fileBytes:) (DER or PEM)
//     TrustAnchorKind       .appleIncRoot, .appleRootCAG2, .appleRootCAG3, .xcodeStoreKitTesting, .userSupplied
//     TrustAnchors          the pinned SHA-256 fingerprints; kind(forSHA256:), kind(of:), xcodeTestingNote
//     DeviceIdentifier      parse(_:) an identifierForVendor UUID (16 bytes) or a MAC address (6 bytes)
//     DeviceHash            compute(deviceID:opaque:bundleIDTLV:) = SHA-1; step(device:opaque:bundleIDTLV:expected:)
//     Digest                sha1(_:), sha256(_:), hex(_:)
//
// Trust rules
// -----------
// - No system trust store. A certificate is an anchor only if its SHA-256 fingerprint is pinned in
//   `TrustAnchors` (Apple Inc. Root, Apple Root CA - G2/G3, Xcode StoreKit Testing) or it was supplied
//   through `extraRoots`. Carrying a certificate inside the receipt never makes it trusted.
// - A chain ending at the Xcode StoreKit Testing certificate passes the chain step, with
//   `anchor == .xcodeStoreKitTesting` and the detail line `TrustAnchors.xcodeTestingNote`;
//   `isAppStoreValid` is false for it. `anchorSuppliedByUser` says whether the user also passed the
//   anchor with `--root` (callers may treat that as "accept for local testing"). Such receipts have
//   no receipt-signer extension: that step is "not checked" for them rather than failed.
// - No key-usage purpose is required (receipt leaves have no S/MIME extended key usage).
// - Partial chains (an anchor that is not self-signed) are allowed only for a user-supplied anchor.
// - Callable from any thread, concurrently (OpenSSL 3 is thread-safe; its error queue is per thread);
//   every OpenSSL object is freed before returning.
// - Apple roots are not bundled: real receipts embed their root, and the pin decides whether it is
//   trusted. A PKCS#7 that omits its root needs `--root`.

import COpenSSL
import Foundation

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

    public func step(_ id: String) -> ValidationStep? { steps.first { $0.id == id } }

    /// Signature, chain, time and receipt-signer all passed and the anchor is an Apple root.
    public var isAppStoreValid: Bool {
        let ids = [StepID.signature, StepID.chain, StepID.time, StepID.receiptSigner]
        return ids.allSatisfy { step($0)?.status == .passed } && (anchor?.isAppleRoot ?? false)
    }
}

public enum SignatureValidation {
    /// Validates a receipt's PKCS#7 container. See the top of this file for the rules.
    /// - Parameters:
    ///   - der: the whole receipt file (DER or BER).
    ///   - payload: the signed content, needed only for a detached signature; when the container
    ///     carries its content and `payload` is given, the two must be equal.
    ///   - creationDate: the receipt's creation date (attribute 12); nil leaves the time step unchecked.
    ///   - now: "today", for `passesToday`.
    ///   - extraRoots: bytes of user-supplied root certificate files (DER or PEM).
    public static func validate(pkcs7 der: [UInt8], payload: [UInt8]? = nil, creationDate: Date?,
                                now: Date = Date(), extraRoots: [[UInt8]] = []) -> SignatureReport {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }

        guard !der.isEmpty else {
            return unreadable("empty input: not a PKCS#7 structure", details: [])
        }

        // 1. Decode. d2i_CMS_ContentInfo reads BER too (indefinite lengths, constructed OCTET STRINGs).
        var consumed = 0
        let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            let cms = d2i_CMS_ContentInfo(nil, &p, buffer.count)
            if cms != nil, let p, let base = buffer.baseAddress { consumed = p - base }
            return cms
        }
        guard let cms = decoded else {
            let why = OpenSSLError.drainedMessage(fallback: "unrecognised encoding")
            var details = ["OpenSSL: \(why)"]
            var reason = "not a PKCS#7 structure"
            if let truncation = truncationNote(der) {
                reason += " (the input is truncated)"
                details.insert(truncation, at: 0)
            }
            return unreadable(reason, details: details)
        }
        defer { CMS_ContentInfo_free(cms) }

        let typeNID = OBJ_obj2nid(CMS_get0_type(cms))
        guard typeNID == NID_pkcs7_signed else {
            let name = OpenSSLBridge.objectText(CMS_get0_type(cms))
            return unreadable("the PKCS#7 content type is \(name), not signedData", details: [])
        }

        var report = SignatureReport()
        var containerNotes: [String] = []
        if consumed < der.count {
            containerNotes.append("\(der.count - consumed) byte(s) follow the PKCS#7 structure and are not covered by it")
        }

        // 2. Embedded certificates (CMS_get1_certs up-references them; pop_free drops those references).
        let certStack = CMS_get1_certs(cms)
        defer { if let certStack { shim_sk_X509_pop_free(certStack) } }
        let certs = OpenSSLBridge.elements(of: certStack)
        report.certificates = certs.map { CertificateInfo(x509: $0) }

        // 3. SignerInfo: algorithms and the signer's certificate.
        let signerInfos = CMS_get0_SignerInfos(cms)
        let signerCount = signerInfos.map { Int(shim_sk_CMS_SignerInfo_num($0)) } ?? 0
        var signerX509: OpaquePointer?
        if signerCount > 0, let si = shim_sk_CMS_SignerInfo_value(signerInfos, 0) {
            var digest: UnsafeMutablePointer<X509_ALGOR>?
            var signature: UnsafeMutablePointer<X509_ALGOR>?
            CMS_SignerInfo_get0_algs(si, nil, nil, &digest, &signature)
            report.digestAlgorithm = algorithmName(digest)
            report.signatureAlgorithm = algorithmName(signature)
            if let index = certs.firstIndex(where: { CMS_SignerInfo_cert_cmp(si, $0) == 0 }) {
                signerX509 = certs[index]
                report.signer = report.certificates[index]
            }
        }
        OpenSSLError.clear()

        // 4. Steps.
        let (signatureStep, content) = checkSignature(cms, signerCount: signerCount, signerFound: signerX509 != nil,
                                                      report: report, payload: payload, notes: containerNotes)
        report.signedContent = content

        let chainResult = checkChain(signer: signerX509, signerCount: signerCount, certs: certs,
                                     infos: report.certificates, extraRoots: extraRoots,
                                     creationDate: creationDate, now: now)
        report.chain = chainResult.chain
        report.anchor = chainResult.anchor
        report.anchorCertificate = chainResult.anchorCertificate
        report.anchorSuppliedByUser = chainResult.suppliedByUser
        report.passesToday = chainResult.passesToday

        let signerStep = checkReceiptSigner(report, signerCount: signerCount,
                                            chainPassed: chainResult.chainStep.status == .passed)
        report.steps = [signatureStep, chainResult.chainStep, chainResult.timeStep, signerStep]
        return report
    }

    // MARK: - unreadable input

    private static func unreadable(_ reason: String, details: [String]) -> SignatureReport {
        var report = SignatureReport()
        let later = "no PKCS#7 SignedData to check: \(reason)"
        report.steps = [
            ValidationStep(id: StepID.signature, title: StepID.title(for: StepID.signature),
                           status: .notChecked(reason), details: details),
            ValidationStep(id: StepID.chain, title: StepID.title(for: StepID.chain), status: .notChecked(later)),
            ValidationStep(id: StepID.time, title: StepID.title(for: StepID.time), status: .notChecked(later)),
            ValidationStep(id: StepID.receiptSigner, title: StepID.title(for: StepID.receiptSigner),
                           status: .notChecked(later)),
        ]
        return report
    }

    /// When the outer definite length promises more bytes than the input has, says so.
    static func truncationNote(_ der: [UInt8]) -> String? {
        guard der.count >= 2 else {
            return "only \(der.count) byte(s): not even a tag and a length"
        }
        let first = der[1]
        var length = 0
        var header = 2
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            return nil  // indefinite length: the end cannot be predicted from the header
        } else {
            let n = Int(first & 0x7F)
            guard n <= 4, der.count >= 2 + n else {
                return n <= 4 ? "the input ends inside the outer length field" : nil
            }
            for i in 0..<n { length = (length << 8) | Int(der[2 + i]) }
            header = 2 + n
        }
        guard header + length > der.count else { return nil }
        return "the outer element declares \(length) content bytes but only \(der.count - header) follow (\(der.count) of \(header + length) bytes present)"
    }

    static func bytesText(_ n: Int) -> String { n == 1 ? "1 byte" : "\(n) bytes"
    }

    private static func algorithmName(_ algorithm: UnsafeMutablePointer<X509_ALGOR>?) -> String? {
        guard let algorithm else { return nil }
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        guard let object else { return nil }
        switch OBJ_obj2nid(object) {
        case NID_sha1: return "SHA-1"
        case NID_sha224: return "SHA-224"
        case NID_sha256: return "SHA-256"
        case NID_sha384: return "SHA-384"
        case NID_sha512: return "SHA-512"
        case NID_md5: return "MD5"
        default: return OpenSSLBridge.objectText(object)
        }
    }

    // MARK: - signature

    private static func checkSignature(_ cms: OpaquePointer, signerCount: Int, signerFound: Bool,
                                       report: SignatureReport, payload: [UInt8]?,
                                       notes: [String]) -> (ValidationStep, [UInt8]?) {
        func step(_ status: StepStatus, _ details: [String]) -> ValidationStep {
            ValidationStep(id: StepID.signature, title: StepID.title(for: StepID.signature),
                           status: status, details: details + notes)
        }
        guard signerCount > 0 else {
            return (step(.failed("the SignedData has no SignerInfo: nothing is signed"), []), nil)
        }
        var details: [String] = []
        details.append("\(signerCount) SignerInfo\(signerCount == 1 ? "" : "s"); digest \(report.digestAlgorithm ?? "?"), signature \(report.signatureAlgorithm ?? "?")")
        if let signer = report.signer {
            details.append("signer: \(signer.subject)")
        }
        guard signerFound else {
            return (step(.failed("the signer's certificate is not embedded in the PKCS#7 structure"), details), nil)
        }

        let detached = CMS_is_detached(cms) == 1
        if detached && payload == nil {
            return (step(.notChecked("detached signature: the content is not inside and no payload was given"), details), nil)
        }

        guard let out = BIO_new(BIO_s_mem()) else {
            return (step(.notChecked("out of memory"), details), nil)
        }
        defer { BIO_free(out) }
        // Signature only: the signer certificate's chain is the chain step's business.
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY) | UInt32(CMS_BINARY)
        OpenSSLError.clear()
        let verified: Bool
        if detached, let payload {
            verified = OpenSSLBridge.withReadBIO(payload) { CMS_verify(cms, nil, nil, $0, out, flags) == 1 } ?? false
        } else {
            verified = CMS_verify(cms, nil, nil, nil, out, flags) == 1
        }
        let reasons = OpenSSLError.drain()
        guard verified else {
            let why = reasons.isEmpty ? "verification failure" : reasons.joined(separator: "; ")
            return (step(.failed("the signature does not verify: \(why)"), details), nil)
        }
        let content = OpenSSLBridge.contents(of: out)
        details.append("signed content: \(bytesText(content.count))\(detached ? " (detached, supplied by the caller)" : "")")
        if !detached, let payload, payload != content {
            return (step(.failed("the payload given differs from the signed content (\(bytesText(payload.count)) vs \(bytesText(content.count)))"), details), content)
        }
        return (step(.passed, details), content)
    }

    // MARK: - chain and time

    private struct ChainResult {
        var chainStep: ValidationStep
        var timeStep: ValidationStep
        var chain: [CertificateInfo] = []
        var anchor: TrustAnchorKind?
        var anchorCertificate: CertificateInfo?
        var suppliedByUser = false
        var passesToday: Bool?
    }

    private struct VerifyOutcome {
        var ok: Bool
        var error: String
        var depth: Int
        var errorCertificate: CertificateInfo?
        var chain: [CertificateInfo]

        /// "certificate has expired (depth 1, Apple Worldwide Developer Relations Certification Authority, valid 2013-02-07 … 2023-02-07)"
        var errorSentence: String {
            guard let cert = errorCertificate else { return error }
            return "\(error) (depth \(depth), \(cert.label), valid \(cert.validityText))"
        }
    }

    private static func checkChain(signer: OpaquePointer?, signerCount: Int, certs: [OpaquePointer],
                                   infos: [CertificateInfo], extraRoots: [[UInt8]],
                                   creationDate: Date?, now: Date) -> ChainResult {
        let chainTitle = StepID.title(for: StepID.chain)
        let timeTitle = StepID.title(for: StepID.time)
        guard let signer else {
            let why = signerCount == 0 ? "the SignedData has no SignerInfo"
                                       : "the signer's certificate is not embedded in the PKCS#7 structure"
            return ChainResult(
                chainStep: ValidationStep(id: StepID.chain, title: chainTitle, status: .notChecked(why)),
                timeStep: ValidationStep(id: StepID.time, title: timeTitle, status: .notChecked(why)))
        }

        var chainDetails: [String] = []

        // User-supplied roots: every certificate of every file; unreadable files are reported, not fatal.
        var userRoots: [CertificateInfo] = []
        for (i, file) in extraRoots.enumerated() {
            do {
                userRoots += try CertificateInfo.parseCertificates(fileBytes: file)
            } catch {
                chainDetails.append("--root #\(i + 1) ignored: \(error)")
            }
        }
        OpenSSLError.clear()

        guard let store = X509_STORE_new() else {
            let why = "out of memory"
            return ChainResult(
                chainStep: ValidationStep(id: StepID.chain, title: chainTitle, status: .notChecked(why)),
                timeStep: ValidationStep(id: StepID.time, title: timeTitle, status: .notChecked(why)))
        }
        defer { X509_STORE_free(store) }

        // Anchors: embedded certificates whose fingerprint is pinned, plus the user's roots.
        var anchorFingerprints = Set<String>()
        for (x, info) in zip(certs, infos) where TrustAnchors.kind(of: info) != nil {
            if X509_STORE_add_cert(store, x) == 1 { anchorFingerprints.insert(info.sha256Fingerprint) }
        }
        var ownedRoots: [OpaquePointer] = []
        defer { ownedRoots.forEach { X509_free($0) } }
        for root in userRoots {
            guard let x = OpenSSLBridge.x509(der: root.der) else { continue }
            ownedRoots.append(x)
            if X509_STORE_add_cert(store, x) == 1 { anchorFingerprints.insert(root.sha256Fingerprint) }
        }
        OpenSSLError.clear()
        // A non-self-signed anchor is only ever one the user asked for.
        let partial = userRoots.contains { !$0.isSelfSigned }

        guard let untrusted = shim_sk_X509_new_null() else {
            let why = "out of memory"
            return ChainResult(
                chainStep: ValidationStep(id: StepID.chain, title: chainTitle, status: .notChecked(why)),
                timeStep: ValidationStep(id: StepID.time, title: timeTitle, status: .notChecked(why)))
        }
        defer { shim_sk_X509_free(untrusted) }  // borrowed entries: free the stack only
        for x in certs { _ = shim_sk_X509_push(untrusted, x) }

        func run(at date: Date?) -> VerifyOutcome {
            verify(leaf: signer, untrusted: untrusted, store: store, at: date, partial: partial)
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
                chainStep: ValidationStep(id: StepID.chain, title: chainTitle,
                                          status: .failed(structural.errorSentence), details: chainDetails),
                timeStep: ValidationStep(id: StepID.time, title: timeTitle,
                                         status: .notChecked("the chain did not verify to a trust anchor"),
                                         details: timeDetails))
        }

        var result = ChainResult(
            chainStep: ValidationStep(id: StepID.chain, title: chainTitle, status: .passed),
            timeStep: ValidationStep(id: StepID.time, title: timeTitle, status: .passed))
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
        if result.suppliedByUser { source.append("supplied with --root") }
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
                result.timeStep.status = .failed("at the creation date \(when): \(atCreation.errorSentence)")
                result.timeStep.details = details
            }
        } else {
            result.timeStep.status = .notChecked("no receipt creation date (attribute 12) to judge the certificates at")
            result.timeStep.details = [todayLine]
        }
        return result
    }

    /// Why nothing in the store anchored the chain, in the receipt's terms.
    private static func untrustedExplanation(infos: [CertificateInfo], anchorFingerprints: Set<String>,
                                             userRoots: [CertificateInfo]) -> [String] {
        var lines: [String] = []
        for info in infos where info.isSelfSigned && !anchorFingerprints.contains(info.sha256Fingerprint) {
            lines.append("the receipt embeds the self-signed certificate \(info.subject) (SHA-256 \(info.sha256Fingerprint)); it is not a pinned root and was not supplied with --root, so it is not trusted")
        }
        if !infos.contains(where: { $0.isSelfSigned }) && userRoots.isEmpty {
            lines.append("the PKCS#7 structure does not embed a root certificate; supply it with --root")
        }
        return lines
    }

    private static func verify(leaf: OpaquePointer, untrusted: OpaquePointer, store: OpaquePointer,
                               at date: Date?, partial: Bool) -> VerifyOutcome {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        guard let ctx = X509_STORE_CTX_new() else {
            return VerifyOutcome(ok: false, error: "out of memory", depth: 0, chain: [])
        }
        defer { X509_STORE_CTX_free(ctx) }
        guard X509_STORE_CTX_init(ctx, store, leaf, untrusted) == 1 else {
            let why = OpenSSLError.drainedMessage(fallback: "could not set up verification")
            return VerifyOutcome(ok: false, error: why, depth: 0, chain: [])
        }
        let param = X509_STORE_CTX_get0_param(ctx)
        var flags = UInt(0)
        if partial { flags |= UInt(X509_V_FLAG_PARTIAL_CHAIN) }
        if let date {
            X509_VERIFY_PARAM_set_time(param, ValidationDate.timeT(date))
        } else {
            flags |= UInt(X509_V_FLAG_NO_CHECK_TIME)
        }
        if flags != 0 { X509_VERIFY_PARAM_set_flags(param, flags) }

        let ok = X509_verify_cert(ctx) == 1
        let chain = OpenSSLBridge.elements(of: X509_STORE_CTX_get0_chain(ctx)).map { CertificateInfo(x509: $0) }
        if ok { return VerifyOutcome(ok: true, error: "ok", depth: 0, chain: chain) }
        let code = X509_STORE_CTX_get_error(ctx)
        let text = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "verification error \(code)"
        let current = X509_STORE_CTX_get_current_cert(ctx).map { CertificateInfo(x509: $0) }
        return VerifyOutcome(ok: false, error: text, depth: Int(X509_STORE_CTX_get_error_depth(ctx)),
                             errorCertificate: current, chain: chain)
    }

    // MARK: - receipt signer

    private static func checkReceiptSigner(_ report: SignatureReport, signerCount: Int,
                                           chainPassed: Bool) -> ValidationStep {
        let title = StepID.title(for: StepID.receiptSigner)
        guard let signer = report.signer else {
            let why = signerCount == 0
                ? "the SignedData has no SignerInfo" : "the signer's certificate is not embedded in the PKCS#7 structure"
            return ValidationStep(id: StepID.receiptSigner, title: title, status: .notChecked(why))
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
            return ValidationStep(id: StepID.receiptSigner, title: title, status: .passed, details: details)
        }
        if TrustAnchors.kind(of: signer) == .xcodeStoreKitTesting {
            return ValidationStep(
                id: StepID.receiptSigner, title: title,
                status: .notChecked("\(TrustAnchors.xcodeTestingNote); its certificate carries no receipt-signing extension \(CertificateInfo.receiptSignerOID)"),
                details: details)
        }
        return ValidationStep(
            id: StepID.receiptSigner, title: title,
            status: .failed("the signer certificate (\(signer.label)) lacks the Apple receipt-signing extension \(CertificateInfo.receiptSignerOID): this is not an App Store receipt"),
            details: details)
    }
}
