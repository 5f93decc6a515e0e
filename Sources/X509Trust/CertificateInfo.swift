import COpenSSL
import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a report shows about one X.509 certificate. A value type: no OpenSSL object is kept.
public struct CertificateInfo: Sendable, Equatable {
    /// One-line RFC 2253 name (last RDN first, as RFC 2253 orders it), UTF-8 kept unescaped:
    /// `CN=Apple Root CA,OU=Apple Certification Authority,O=Apple Inc.,C=US`.
    public var subject: String
    public var issuer: String
    /// The subject's common name, for short labels.
    public var commonName: String?
    /// Serial number, uppercase hex without separators.
    public var serial: String
    public var notBefore: Date?
    public var notAfter: Date?
    /// SHA-256 of the DER encoding, uppercase hex without separators.
    public var sha256Fingerprint: String
    /// Issuer equals subject and the certificate's signature verifies with its own key.
    public var isSelfSigned: Bool
    /// Carries extension 1.2.840.113635.100.6.11.1 (Apple receipt signing).
    public var hasReceiptSignerOID: Bool
    /// Carries extension 1.2.840.113635.100.6.2.1 (Apple Worldwide Developer Relations intermediate).
    public var hasWWDRIntermediateOID: Bool
    /// e.g. `sha256WithRSAEncryption`.
    public var signatureAlgorithm: String
    public var der: [UInt8]

    public static let receiptSignerOID = "1.2.840.113635.100.6.11.1"
    public static let wwdrIntermediateOID = "1.2.840.113635.100.6.2.1"

    /// Decodes one DER certificate; `nil` if `der` is not exactly one certificate.
    public init?(der: [UInt8]) {
        OpenSSLError.clear()
        guard let x = OpenSSLBridge.x509(der: der) else { OpenSSLError.clear(); return nil }
        defer { X509_free(x) }
        self.init(x509: x)
    }

    /// Reads a borrowed X509 (not freed here).
    public init(x509 x: OpaquePointer) {
        der = OpenSSLBridge.der(of: x)
        // Names from our own reader, the one that dump and json use without OpenSSL; it writes
        // them as X509_NAME_print_ex(XN_FLAG_RFC2253 & ~ESC_MSB) would (RFC2253NameTests).
        let names = RFC2253Name.certificateNames(der: der)
        subject = names?.subject ?? ""
        issuer = names?.issuer ?? ""
        commonName = names?.commonName
        serial = Self.serialHex(x)
        notBefore = ValidationDate.date(X509_get0_notBefore(x))
        notAfter = ValidationDate.date(X509_get0_notAfter(x))
        sha256Fingerprint = Digest.hex(Digest.sha256(der))
        // A pinned root's bytes are fixed, and so is whether its signature verifies with its own key
        // (`TrustAnchors.knownSelfSigned`): not re-verified (≈ 1.3 ms for Apple Root CA - G3's P-384).
        isSelfSigned = TrustAnchors.knownSelfSigned.contains(sha256Fingerprint) || X509_self_signed(x, 1) == 1
        hasReceiptSignerOID = Self.hasExtension(x, oid: Self.receiptSignerOID)
        hasWWDRIntermediateOID = Self.hasExtension(x, oid: Self.wwdrIntermediateOID)
        signatureAlgorithm = OpenSSLBridge.longName(nid: X509_get_signature_nid(x)) ?? "unknown"
        OpenSSLError.clear()  // X509_self_signed on a foreign key may leave reasons we do not report
    }

    /// `CN` if present, else the whole subject.
    public var label: String { commonName ?? subject }

    /// Whether `date` lies inside [notBefore, notAfter].
    public func isValid(at date: Date) -> Bool {
        guard let notBefore, let notAfter else { return false }
        return notBefore <= date && date <= notAfter
    }

    /// "2015-11-13 … 2023-02-07"
    public var validityText: String {
        let from = notBefore.map(ValidationDate.day) ?? "?"
        let to = notAfter.map(ValidationDate.day) ?? "?"
        return "\(from) … \(to)"
    }

    private static func serialHex(_ x: OpaquePointer) -> String {
        guard let integer = X509_get_serialNumber(x), let bn = ASN1_INTEGER_to_BN(integer, nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { shim_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    private static func hasExtension(_ x: OpaquePointer, oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { OpenSSLError.clear(); return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(x, object, -1) >= 0
    }
}

/// A certificate file could not be read.
public struct CertificateParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}

extension CertificateInfo {
    /// Reads every certificate of a `.cer`/`.der`/`.pem`/`.crt` file: PEM (one or more
    /// `BEGIN CERTIFICATE` blocks) or a single DER certificate. Throws with the reason otherwise.
    public static func parseCertificates(fileBytes bytes: [UInt8]) throws -> [CertificateInfo] {
        try CertificateFile.read(bytes).map { x in
            defer { X509_free(x) }
            return CertificateInfo(x509: x)
        }
    }
}

/// The one reader of certificate files, for `parseCertificates` and `CertificateCache`.
enum CertificateFile {
    /// The file's certificates as owned `X509`s (the caller frees each), or the reason there are none.
    static func read(_ bytes: [UInt8]) throws -> [OpaquePointer] {
        if bytes.isEmpty { throw CertificateParseError(description: "the file is empty") }
        OpenSSLError.clear()
        if looksLikePEM(bytes) {
            var found: [OpaquePointer] = []
            _ = OpenSSLBridge.withReadBIO(bytes) { bio in
                while let x = PEM_read_bio_X509(bio, nil, nil, nil) { found.append(x) }
            }
            // Reading stops with a "no start line" error at the end of the file: expected, not reported.
            let reasons = OpenSSLError.drain().filter { $0 != "no start line" }
            if found.isEmpty {
                let why = reasons.isEmpty ? "no BEGIN CERTIFICATE block" : reasons.joined(separator: "; ")
                throw CertificateParseError(description: "PEM file holds no readable certificate (\(why))")
            }
            return found
        }
        guard let x = OpenSSLBridge.x509(der: bytes) else {
            let why = OpenSSLError.drainedMessage(fallback: "trailing bytes after the certificate")
            throw CertificateParseError(description: "neither a DER certificate nor PEM (\(why))")
        }
        return [x]
    }

    static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if Array(bytes[start..<start + marker.count]) == marker { return true }
        }
        return false
    }
}
