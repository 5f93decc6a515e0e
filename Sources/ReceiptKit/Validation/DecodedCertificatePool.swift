import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Certificates decoded once per process instead of once per document, for batch runs: every
/// token of a day of notifications carries the same three x5c certificates, and decoding them
/// (`d2i_X509`, whose public key goes through OpenSSL 3's provider decoders) was about 40% of
/// verifying a notification. Off unless a batch run switches it on (`isEnabled`), so a single
/// document still decodes, and counts, its own certificates (`CertificateCache.decodeCount`).
///
/// Thread-safe: `entries` and `enabled` are read and written with `lock` held; the certificates
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
}
