import ASN1Lenient
import COpenSSL
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Certificates decoded once per process instead of once per document, for batch runs: every
/// token of a day of notifications carries the same three x5c certificates, and decoding them
/// (`d2i_X509`, whose public key goes through OpenSSL 3's provider decoders) was about 40% of
/// verifying a notification. Every receipt of an export embeds the same chain too, and its facts
/// (`CertificateInfo`: names, fingerprint, the self-signature check) are the same for every input
/// (the `--root` files are read once a run by their `TrustAnchorSet`). Off unless a batch run
/// switches it on (`isEnabled`), so a single document still decodes, and counts, its own
/// certificates (`CertificateCache.decodeCount`).
///
/// Thread-safe: every stored property is read and written with `lock` held; the certificates
/// handed out are immutable and may be used by several threads at once (see `DecodedCertificate`).
/// Bounded: at `capacity` distinct certificates the pool starts again.
public final class DecodedCertificatePool: @unchecked Sendable {
    public static let shared = DecodedCertificatePool()

    private let lock = Lock()
    private var entries: [DERKey: DecodedCertificate] = [:]
    private var enabled = false
    let capacity = 256

    public var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue; if !newValue { entries.removeAll() } } }
    }

    /// The pooled certificate for `der`, or nil when the pool is off or has not seen it.
    func certificate(der: [UInt8]) -> DecodedCertificate? {
        lock.withLock { enabled ? entries[DERKey(der)] : nil }
    }

    /// Keeps `certificate` for later documents (when the pool is on).
    func keep(_ certificate: DecodedCertificate) {
        lock.withLock {
            guard enabled else { return }
            if entries.count >= capacity { entries.removeAll() }
            entries[DERKey(certificate.info.der)] = certificate
        }
    }

    /// The certificate `der` encodes, decoded once per distinct certificate while the pool is on.
    public func decoded(der: [UInt8]) -> DecodedCertificate? {
        if let known = certificate(der: der) { return known }
        guard let decoded = DecodedCertificate(der: der) else { return nil }
        keep(decoded)
        return decoded
    }

    /// `CertificateInfo(der:)`, decoded once per distinct certificate while the pool is on.
    public func info(der: [UInt8]) -> CertificateInfo? {
        guard isEnabled else { return CertificateInfo(der: der) }
        if let known = certificate(der: der) { return known.info }
        guard let decoded = DecodedCertificate(der: der) else { return nil }
        keep(decoded)
        return decoded.info
    }

    /// `CertificateInfo(x509:)` of a borrowed `X509`, read once per distinct certificate while the
    /// pool is on (the DER is the key: `i2d_X509` costs far less than the facts).
    public func info(x509: OpaquePointer) -> CertificateInfo {
        guard isEnabled else { return CertificateInfo(x509: x509) }
        let der = OpenSSLBridge.der(of: x509)
        if !der.isEmpty, let known = certificate(der: der) { return known.info }
        X509_up_ref(x509)
        let decoded = DecodedCertificate(adopting: x509)
        if !der.isEmpty { keep(decoded) }
        return decoded.info
    }
}
