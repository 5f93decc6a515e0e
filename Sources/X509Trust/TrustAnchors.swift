import ASN1Lenient
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which trust anchor a verified chain ends at.
public enum TrustAnchorKind: String, Sendable, Equatable, CaseIterable {
    case appleIncRoot = "apple-inc-root"
    case appleRootCAG2 = "apple-root-ca-g2"
    case appleRootCAG3 = "apple-root-ca-g3"
    /// The self-signed certificate Xcode signs local StoreKit test receipts with.
    case xcodeStoreKitTesting = "xcode-storekit-testing"
    /// A certificate the user supplied as an extra root that is none of the pinned ones.
    case userSupplied = "user-supplied"

    public var displayName: String {
        switch self {
        case .appleIncRoot: return "Apple Inc. Root"
        case .appleRootCAG2: return "Apple Root CA - G2"
        case .appleRootCAG3: return "Apple Root CA - G3"
        case .xcodeStoreKitTesting: return "Xcode StoreKit Testing"
        case .userSupplied: return "user-supplied root"
        }
    }

    /// An Apple production root: receipts anchored here can be App Store receipts.
    public var isAppleRoot: Bool {
        switch self {
        case .appleIncRoot, .appleRootCAG2, .appleRootCAG3: return true
        case .xcodeStoreKitTesting, .userSupplied: return false
        }
    }
}

/// The pinned anchors. A certificate is trusted because its SHA-256 fingerprint is listed here
/// (or because the user supplied it), never because a receipt carries it.
public enum TrustAnchors {
    public struct Pin: Sendable, Equatable {
        public var kind: TrustAnchorKind
        /// SHA-256 of the DER certificate, uppercase hex without separators.
        public var sha256: String
    }

    public static let pinned: [Pin] = [
        Pin(kind: .appleIncRoot, sha256: "B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024"),
        Pin(kind: .appleRootCAG2, sha256: "C2B9B042DD57830E7D117DAC55AC8AE19407D38E41D88F3215BC3A890444A050"),
        Pin(kind: .appleRootCAG3, sha256: "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179"),
        Pin(kind: .xcodeStoreKitTesting, sha256: "FF0BA36E721D2DB741D2AA11E6112EF78BF7131B46C7F035B00891D045C864FE"),
    ]

    /// Fingerprints of the pinned roots whose signature is known to verify with their own key:
    /// bytes with one of these SHA-256s are that root, so `CertificateInfo.isSelfSigned` needs no
    /// verification for them. Only roots whose self-signature the tests verify are listed
    /// (`DecodedCertificateTests`, from the corpus copies); Apple Root CA - G2 is not in the corpus.
    /// A user-supplied root's self-signature is checked once, when its `TrustAnchorSet` is prepared.
    static let knownSelfSigned: Set<String> = Set(pinned.filter { $0.kind != .appleRootCAG2 }.map(\.sha256))

    /// The pinned kind for a fingerprint (hex, any case, separators `:`/space ignored), if any.
    /// Byte by byte, not through `uppercased()` and a `Character` filter: every token's chain asks
    /// (15 % of a batch line's Swift work went to normalizing fingerprints that already were).
    public static func kind(forSHA256 fingerprint: String) -> TrustAnchorKind? {
        let utf8 = fingerprint.utf8
        let normal = utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x46) }
        let normalized = normal ? fingerprint : String(decoding: utf8.compactMap { c -> UInt8? in
            c == UInt8(ascii: ":") || c == UInt8(ascii: " ") ? nil : (c >= 0x61 && c <= 0x7A ? c - 0x20 : c)
        }, as: UTF8.self)
        return kindByFingerprint[normalized]
    }

    static let kindByFingerprint = Dictionary(uniqueKeysWithValues: pinned.map { ($0.sha256, $0.kind) })

    public static func kind(of certificate: CertificateInfo) -> TrustAnchorKind? {
        kind(forSHA256: certificate.sha256Fingerprint)
    }

    /// The sentence the chain step carries for receipts made by Xcode.
    public static let xcodeTestingNote =
        "signed by Xcode StoreKit Testing — local testing only, not the App Store"
}

/// The roots a user supplied (`--root` files), prepared once for every verification that trusts
/// them: each file read once, each certificate decoded once and its facts read once, its
/// self-signature included. Trusting a root is a decision made once per run, so whether its
/// signature verifies with its own key is checked here rather than in every verification (a
/// session's `CertificateCache` starts with these certificates, so a chain carrying the same bytes
/// reads the fact); a root that is not self-signed is still one, and reported so, from that fact.
///
/// Prepared on first use (a value that is never used to verify costs nothing), under a lock;
/// read-only afterwards, so verifications on several threads may share one.
// @unchecked: `made` is written once with `lock` held and read with it held; `files` is a constant.
public final class TrustAnchorSet: @unchecked Sendable {
    /// The files' certificates, decoded.
    public struct Prepared: Sendable {
        /// Every certificate of every readable file, in file order (one object per distinct certificate).
        public let certificates: [DecodedCertificate]
        /// The files that hold no readable certificate, in file order: each by its index in `files`
        /// with `CertificateFile.read`'s reason, for the command line's complaint and the chain step's details.
        public let unreadable: [(index: Int, reason: CertificateParseError)]
        /// The first of them, by its index.
        public var firstUnreadable: Int? { unreadable.first?.index }
        /// How many certificates preparing decoded (`CertificateCache.decodeCount`), for tests and benchmarks.
        public let decodeCount: Int
    }

    /// Each element is a file's bytes, DER or PEM (several PEM blocks allowed).
    public let files: [[UInt8]]
    private let lock = Lock()
    private var made: Prepared?

    public init(files: [[UInt8]] = []) {
        self.files = files
    }

    /// Whether the files have been read already (for tests and benchmarks).
    public var isPrepared: Bool { lock.withLock { made != nil } }

    /// The decoded roots, read the first time this is asked and then kept.
    public func prepared() -> Prepared {
        lock.withLock {
            if let made { return made }
            let cache = CertificateCache()
            var certificates: [DecodedCertificate] = []
            var unreadable: [(index: Int, reason: CertificateParseError)] = []
            for (index, file) in files.enumerated() {
                do {
                    certificates += try cache.certificates(fileBytes: file)
                } catch {
                    unreadable.append((index, error as? CertificateParseError ?? CertificateParseError(description: "\(error)")))
                }
            }
            let prepared = Prepared(certificates: certificates, unreadable: unreadable, decodeCount: cache.decodeCount)
            made = prepared
            return prepared
        }
    }
}
