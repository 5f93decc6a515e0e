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
//         `extraRoots` are the bytes of user-supplied root files (DER or PEM, several certificates per PEM allowed).
//
//     SignatureReport       certificates, signer, chain, anchor (TrustAnchorKind), anchorCertificate,
//                           anchorSuppliedByUser, digestAlgorithm ("SHA-1", "SHA-256"), signatureAlgorithm,
//                           signedContent, passesToday, steps, step(_:), isAppStoreValid
//     ValidationStep        id (StepID) / status (StepStatus: .passed, .failed(StepReason), .notChecked(StepReason)) / details
//     StepID                the step identifiers ("contents", "signature", "chain", "time", "receipt-signer",
//                           "device-hash", "bundle-id", "app-version", "expiration"); DocumentCore.StepText words them
//     ChainVerification     the chain and time steps from DER or OpenSSL certificates (shared with JWS x5c)
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
//   anchor as an extra root (callers may treat that as "accept for local testing"). Such receipts have
//   no receipt-signer extension: that step is "not checked" for them rather than failed.
// - No key-usage purpose is required (receipt leaves have no S/MIME extended key usage).
// - Partial chains (an anchor that is not self-signed) are allowed only for a user-supplied anchor.
// - Callable from any thread, concurrently (OpenSSL 3 is thread-safe; its error queue is per thread);
//   every OpenSSL object is freed before returning.
// - Apple roots are not bundled: real receipts embed their root, and the pin decides whether it is
//   trusted. A PKCS#7 that omits its root needs it as an extra root.
import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ASN1Lenient
import X509Trust

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
        validate(pkcs7: der, payload: payload, creationDate: creationDate, now: now, anchors: TrustAnchorSet(files: extraRoots))
    }

    /// The same, trusting a prepared set of roots: a run's `--root` files, read once for every document.
    public static func validate(pkcs7 der: [UInt8], payload: [UInt8]? = nil, creationDate: Date?,
                                now: Date = Date(), anchors: TrustAnchorSet) -> SignatureReport {
        validate(pkcs7: der, payload: payload, creationDate: creationDate, now: now, anchors: anchors, contentCutFrom: 64 << 10)
    }

    /// The same, with the size from which a container's eContent is handed to OpenSSL in place as
    /// detached content (`CMSWithoutContent`): 64 KiB above; tests and the receipt fuzz target
    /// compare 0 (every container that can be cut) with `Int.max` (none).
    public static func validate(pkcs7 der: [UInt8], payload: [UInt8]?, creationDate: Date?, now: Date, extraRoots: [[UInt8]],
                                contentCutFrom: Int) -> SignatureReport {
        validate(pkcs7: der, payload: payload, creationDate: creationDate, now: now, anchors: TrustAnchorSet(files: extraRoots),
                 contentCutFrom: contentCutFrom)
    }

    static func validate(pkcs7 der: [UInt8], payload: [UInt8]?, creationDate: Date?, now: Date, anchors: TrustAnchorSet,
                         contentCutFrom: Int) -> SignatureReport {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }

        guard !der.isEmpty else {
            return unreadable(.emptyInput, details: [])
        }

        // 1. Decode. d2i_CMS_ContentInfo reads BER too (indefinite lengths, constructed OCTET STRINGs).
        // In a batch run, a plain DER container goes without its certificates, which come decoded
        // from the pool instead (`CMSWithoutCertificates`); anything that does not fit goes whole.
        var consumed = 0
        // A large payload stays where it is: OpenSSL's decoder would copy it into the CMS structure.
        var cut = payload == nil && der.count > contentCutFrom
            ? CMSWithoutContent(der).flatMap { $0.content.count >= contentCutFrom ? $0 : nil } : nil
        let container = cut?.stripped ?? der
        var pooled = pooledParts(container)
        func decode(_ bytes: [UInt8]) -> OpaquePointer? {
            bytes.withUnsafeBufferPointer { buffer in
                var p: UnsafePointer<UInt8>? = buffer.baseAddress
                let cms = d2i_CMS_ContentInfo(nil, &p, buffer.count)
                if cms != nil, let p, let base = buffer.baseAddress { consumed = p - base }
                return cms
            }
        }
        var decoded: OpaquePointer?
        if let parts = pooled {
            decoded = decode(parts.container.stripped)
            if decoded == nil {
                OpenSSLError.clear()
                pooled = nil
            } else {
                consumed = parts.container.consumed
            }
        }
        if decoded == nil { decoded = decode(container) }
        if decoded == nil, cut != nil {
            OpenSSLError.clear()
            cut = nil
            decoded = decode(der)
        }
        if decoded != nil, let cut { consumed = cut.consumed }
        // The pooled certificates stay alive until every OpenSSL object that borrows them is freed.
        defer { withExtendedLifetime(pooled?.certificates) {} }
        guard let cms = decoded else {
            let why = OpenSSLError.drainedMessage(fallback: "unrecognised encoding")
            var details = ["OpenSSL: \(why)"]
            let truncation = truncationNote(der)
            if let truncation { details.insert(truncation, at: 0) }
            return unreadable(.notPKCS7(inputTruncated: truncation != nil), details: details)
        }
        defer { CMS_ContentInfo_free(cms) }

        let typeNID = OBJ_obj2nid(CMS_get0_type(cms))
        guard typeNID == NID_pkcs7_signed else {
            let name = OpenSSLBridge.objectText(CMS_get0_type(cms))
            return unreadable(.notSignedData(contentType: name), details: [])
        }

        var report = SignatureReport()
        var containerNotes: [String] = []
        if consumed < der.count {
            containerNotes.append("\(der.count - consumed) byte(s) follow the PKCS#7 structure and are not covered by it")
        }

        // 2. Embedded certificates (CMS_get1_certs up-references them; pop_free drops those
        // references). Pooled ones are lent: the stack only borrows them.
        let certStack: OpaquePointer?
        if let pooled {
            certStack = shim_sk_X509_new_null()
            for certificate in pooled.certificates { certificate.withX509 { _ = shim_sk_X509_push(certStack, $0) } }
        } else {
            certStack = CMS_get1_certs(cms)
        }
        defer {
            if let certStack { if pooled != nil { shim_sk_X509_free(certStack) } else { shim_sk_X509_pop_free(certStack) } }
        }
        let certs = OpenSSLBridge.elements(of: certStack)
        report.certificates = certs.map { DecodedCertificatePool.shared.info(x509: $0) }

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
        let (signatureStep, content) = checkSignature(cms, certificates: pooled != nil ? certStack : nil,
                                                      signerCount: signerCount, signerFound: signerX509 != nil,
                                                      report: report, payload: payload, notes: containerNotes,
                                                      cutContent: cut.map { der[$0.content] })
        report.signedContent = content

        let chainResult = ChainVerification.check(signer: signerX509, missing: signerCount == 0 ? .noSignerInfo : .signerCertificateMissing,
                                                  certificates: certs, infos: report.certificates, anchors: anchors,
                                                  creationDate: creationDate, now: now)
        report.chain = chainResult.chain
        report.anchor = chainResult.anchor
        report.anchorCertificate = chainResult.anchorCertificate
        report.anchorSuppliedByUser = chainResult.suppliedByUser
        report.passesToday = chainResult.passesToday

        let signerStep = ReceiptSignerCheck.step(report, signerCount: signerCount,
                                            chainPassed: chainResult.chainStep.status == .passed)
        report.steps = [signatureStep, chainResult.chainStep, chainResult.timeStep, signerStep]
        return report
    }

    /// The container without its certificates and those certificates from the pool, when the pool
    /// is on (a batch run) and every certificate decodes; nil otherwise.
    private static func pooledParts(_ der: [UInt8]) -> (container: CMSWithoutCertificates, certificates: [DecodedCertificate])? {
        guard DecodedCertificatePool.shared.isEnabled, let container = CMSWithoutCertificates(der) else { return nil }
        var certificates: [DecodedCertificate] = []
        for bytes in container.certificates {
            guard let certificate = DecodedCertificatePool.shared.decoded(der: bytes) else { return nil }
            certificates.append(certificate)
        }
        return (container, certificates)
    }

    // MARK: - unreadable input

    private static func unreadable(_ reason: StepReason, details: [String]) -> SignatureReport {
        var report = SignatureReport()
        report.steps = [ValidationStep(.signature, .notChecked(reason), details: details)]
            + [StepID.chain, .time, .receiptSigner].map { ValidationStep($0, .notChecked(.noSignedData(reason))) }
        return report
    }

    /// When the outer definite length promises more bytes than the input has, says so.
    static func truncationNote(_ der: [UInt8]) -> String? {
        guard der.count >= 2 else {
            return "only \(der.count) byte(s): not even a tag and a length"
        }
        let read = der.withUnsafeBufferPointer { BERHeader.read($0, at: 0, limit: $0.count) }
        let length: Int, header: Int
        switch read {
        case .success(let h):
            // Indefinite: the end cannot be predicted from the header. Over 4 length octets: not a receipt's.
            guard case .definite(let value, _) = h.length, h.contentStart - h.lengthStart <= 5 else { return nil }
            (length, header) = (value, h.contentStart)
        case .failure(.truncatedLength(_, let octets, _)):
            return octets <= 4 ? "the input ends inside the outer length field" : nil
        case .failure:
            return nil
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

    /// `certificates`: the pooled certificates when the container went without its own.
    private static func checkSignature(_ cms: OpaquePointer, certificates: OpaquePointer?, signerCount: Int, signerFound: Bool,
                                       report: SignatureReport, payload: [UInt8]?,
                                       notes: [String], cutContent: ArraySlice<UInt8>?) -> (ValidationStep, [UInt8]?) {
        func step(_ status: StepStatus, _ details: [String]) -> ValidationStep {
            ValidationStep(.signature, status, details: details + notes)
        }
        guard signerCount > 0 else {
            return (step(.failed(.noSignerInfo), []), nil)
        }
        var details: [String] = []
        details.append("\(signerCount) SignerInfo\(signerCount == 1 ? "" : "s"); digest \(report.digestAlgorithm ?? "?"), signature \(report.signatureAlgorithm ?? "?")")
        if let signer = report.signer {
            details.append("signer: \(signer.subject)")
        }
        guard signerFound else {
            return (step(.failed(.signerCertificateMissing), details), nil)
        }

        // Content cut out by `CMSWithoutContent` is the container's own, not detached by its signer.
        let detached = CMS_is_detached(cms) == 1 && cutContent == nil
        if detached && payload == nil {
            return (step(.notChecked(.detachedWithoutPayload), details), nil)
        }

        guard let out = BIO_new(BIO_s_mem()) else {
            return (step(.notChecked(.outOfMemory), details), nil)
        }
        defer { BIO_free(out) }
        // Signature only: the signer certificate's chain is the chain step's business.
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY) | UInt32(CMS_BINARY)
        OpenSSLError.clear()
        let verified: Bool
        if let cutContent {
            // No output BIO: the content is known, and copying it out was one more copy of the payload.
            verified = OpenSSLBridge.withReadBIO(cutContent) { CMS_verify(cms, certificates, nil, $0, nil, flags) == 1 } ?? false
        } else if detached, let payload {
            verified = OpenSSLBridge.withReadBIO(payload) { CMS_verify(cms, certificates, nil, $0, out, flags) == 1 } ?? false
        } else {
            verified = CMS_verify(cms, certificates, nil, nil, out, flags) == 1
        }
        let reasons = OpenSSLError.drain()
        guard verified else {
            return (step(.failed(.signatureMismatch(openSSL: reasons)), details), nil)
        }
        let content = cutContent.map(Array.init) ?? OpenSSLBridge.contents(of: out)
        details.append("signed content: \(bytesText(content.count))\(detached ? " (detached, supplied by the caller)" : "")")
        if !detached, let payload, payload != content {
            return (step(.failed(.payloadDiffersFromSignedContent(given: payload.count, signed: content.count)), details), content)
        }
        return (step(.passed, details), content)
    }
}
