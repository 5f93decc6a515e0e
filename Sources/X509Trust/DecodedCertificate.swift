import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One certificate decoded once: the `X509` that `d2i_X509` made and the facts a report shows.
/// Decoding is the costly part of using a certificate with OpenSSL 3 (the public key goes through
/// the provider decoders), so whoever uses a certificate several times (a JWS session: every token's
/// chain, the roots, the path check, the ES256 key) decodes it here once, through `CertificateCache`.
///
/// Owns its `X509` and frees it exactly once, in `deinit`. The public key belongs to the `X509`
/// (`X509_get0_pubkey`), so it lives exactly as long; pointers are only lent inside closures.
/// Immutable once made. A session's certificates are used by one thread; a prepared
/// `TrustAnchorSet`'s roots and the certificates of `DecodedCertificatePool` may be used by several
/// at once: every use only reads the `X509` (verify, get the key, up-reference it into a store or a
/// stack), and OpenSSL 3 fills what it caches in an `X509` under that object's own lock. That is
/// what `@unchecked Sendable` asserts.
public final class DecodedCertificate: @unchecked Sendable {
    private let x509: OpaquePointer
    public let info: CertificateInfo
    /// The public key's algorithm: whether it is EC, and its group name or type name.
    public let keyName: (isEC: Bool, name: String?)
    private let verifyContexts = VerifyContextPool()

    /// Takes over one reference to `x509`.
    init(adopting x509: OpaquePointer) {
        self.x509 = x509
        info = CertificateInfo(x509: x509)
        keyName = X509_get0_pubkey(x509).map(DigestVerification.keyName) ?? (false, nil)
    }

    /// Decodes one DER certificate that spans all of `der`; nil otherwise.
    public convenience init?(der: [UInt8]) {
        OpenSSLError.clear()
        guard let x = OpenSSLBridge.x509(der: der) else { OpenSSLError.clear(); return nil }
        self.init(adopting: x)
    }

    deinit { X509_free(x509) }

    /// Runs `body` with the borrowed `X509`; it must not keep the pointer (OpenSSL objects that
    /// up-reference it, like a store or a stack it is pushed on, may).
    public func withX509<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(x509) }
    }

    /// Runs `body` with the borrowed public key (`EVP_PKEY`), nil when OpenSSL could not decode it.
    public func withPublicKey<R>(_ body: (OpaquePointer?) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(X509_get0_pubkey(x509)) }
    }

    /// Whether `derSignature` is a valid signature of `digest` under this certificate's key, on a
    /// verify context made once for the key (`DigestVerification`); false when there is none.
    public func verifies(digest: [UInt8], derSignature: [UInt8]) -> Bool {
        withExtendedLifetime(self) {
            guard let context = verifyContexts.take() ?? X509_get0_pubkey(x509).flatMap(DigestVerification.makeContext) else { return false }
            defer { verifyContexts.put(context) }
            return DigestVerification.verify(context, digest: digest, derSignature: derSignature)
        }
    }

    /// Whether this certificate's signature verifies with `issuer`'s public key.
    public func isSigned(by issuer: DecodedCertificate) -> Bool {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        return issuer.withPublicKey { key in
            guard let key else { return false }
            return withX509 { X509_verify($0, key) == 1 }
        }
    }
}

/// Decoded certificates by their bytes, for one verification session: each distinct certificate is
/// decoded once, however many tokens, root files and path checks use it. Entries live as long as the
/// cache (one document's verification), so a certificate is freed once, when the cache goes.
public final class CertificateCache {
    private var byDER: [DERKey: DecodedCertificate?] = [:]
    /// How many certificates were decoded (`d2i_X509` or one PEM block each), for tests and benchmarks.
    public private(set) var decodeCount = 0

    public init() {}

    /// Certificates decoded elsewhere (a prepared `TrustAnchorSet`'s roots), handed out for their
    /// bytes from now on as if decoded here; one already known keeps its object. Not counted.
    public func adopt(_ certificates: [DecodedCertificate]) {
        for certificate in certificates where byDER[DERKey(certificate.info.der)] == nil {
            byDER[DERKey(certificate.info.der)] = certificate
        }
    }

    /// The certificate `der` encodes (exactly, nothing after it); nil when it is not one.
    public func certificate(der: [UInt8]) -> DecodedCertificate? {
        if let known = byDER[DERKey(der)] { return known }
        if let pooled = DecodedCertificatePool.shared.certificate(der: der) {
            byDER[DERKey(der)] = pooled
            return pooled
        }
        decodeCount += 1
        let decoded = DecodedCertificate(der: der)
        byDER[DERKey(der)] = decoded
        if let decoded { DecodedCertificatePool.shared.keep(decoded) }
        return decoded
    }

    /// Every certificate of a root file, read as `CertificateInfo.parseCertificates(fileBytes:)`
    /// reads it (DER or PEM, same errors), each one taken from the cache when already decoded.
    public func certificates(fileBytes bytes: [UInt8]) throws -> [DecodedCertificate] {
        if !CertificateFile.looksLikePEM(bytes), let known = byDER[DERKey(bytes)], let known { return [known] }
        let read = try CertificateFile.read(bytes)
        decodeCount += read.count
        return read.map { x in
            let der = OpenSSLBridge.der(of: x)
            if let known = byDER[DERKey(der)], let known {
                X509_free(x)  // the same certificate decoded before: keep that one
                return known
            }
            let decoded = DecodedCertificate(adopting: x)
            byDER[DERKey(der)] = decoded
            return decoded
        }
    }
}
