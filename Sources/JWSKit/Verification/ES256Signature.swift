import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import X509Trust

/// ES256 (ECDSA P-256 with SHA-256) as JWS uses it: the signature is raw r‖s, 32 bytes each
/// (RFC 7518 §3.4), while OpenSSL, X.509 and CMS want the DER `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`.
public enum ES256Signature {
    public static let rawLength = 64

    /// DER `ECDSA-Sig-Value` for a 64-byte r‖s; nil for any other length. Written into one buffer:
    /// every token of a batch line goes through here.
    public static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == rawLength else { return nil }
        var der: [UInt8] = [0x30, 0]
        der.reserveCapacity(2 + 2 * 35)
        appendInteger(raw[0..<32], to: &der)
        appendInteger(raw[32..<64], to: &der)
        // At most 2 × 35 content bytes: the short length form always fits.
        der[1] = UInt8(der.count - 2)
        return der
    }

    /// The 64-byte r‖s of a DER `ECDSA-Sig-Value` (what OpenSSL signs), for a JWS; nil unless it is
    /// one SEQUENCE of two INTEGERs, each at most 32 bytes once its sign byte is dropped.
    public static func raw(fromDER der: [UInt8]) -> [UInt8]? {
        guard looksLikeDER(der) else { return nil }
        var at = der[1] == 0x81 ? 3 : 2
        var raw: [UInt8] = []
        for _ in 0..<2 {
            let length = Int(der[at + 1])
            let magnitude = der[(at + 2)..<(at + 2 + length)].drop { $0 == 0 }
            guard magnitude.count <= 32 else { return nil }
            raw += [UInt8](repeating: 0, count: 32 - magnitude.count) + magnitude
            at += 2 + length
        }
        return raw
    }

    /// A positive INTEGER: leading zero bytes dropped (a zero keeps one), one 0x00 put back when the high bit is set.
    static func appendInteger(_ magnitude: ArraySlice<UInt8>, to der: inout [UInt8]) {
        var body = magnitude.drop { $0 == 0 }
        if body.isEmpty { body = magnitude.suffix(1) }
        let signByte = body[body.startIndex] & 0x80 != 0
        der.append(0x02)
        der.append(UInt8(body.count + (signByte ? 1 : 0)))
        if signByte { der.append(0) }
        der.append(contentsOf: body)
    }

    /// Whether `bytes` is exactly one DER SEQUENCE of two INTEGERs: the X.509 / CMS form, which a
    /// JWS must not carry.
    public static func looksLikeDER(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8, bytes[0] == 0x30 else { return false }
        var at = 1
        guard let seqLength = shortOrOneByteLength(bytes, &at), at + seqLength == bytes.count else { return false }
        for _ in 0..<2 {
            guard at < bytes.count, bytes[at] == 0x02 else { return false }
            at += 1
            guard let n = shortOrOneByteLength(bytes, &at), n > 0, at + n <= bytes.count else { return false }
            at += n
        }
        return at == bytes.count
    }

    private static func shortOrOneByteLength(_ bytes: [UInt8], _ at: inout Int) -> Int? {
        guard at < bytes.count else { return nil }
        let first = bytes[at]
        at += 1
        if first < 0x80 { return Int(first) }
        guard first == 0x81, at < bytes.count else { return nil }
        defer { at += 1 }
        return Int(bytes[at])
    }

    /// The failure a signature of the wrong shape gets before any cryptography; nil for 64 bytes.
    public static func shapeProblem(_ signature: [UInt8]) -> JWSFailure? {
        if signature.isEmpty { return .signatureEmpty }
        if signature.count == rawLength { return nil }
        if looksLikeDER(signature) { return .signatureIsDER(length: signature.count) }
        return signature.count < rawLength ? .signatureTruncated(length: signature.count)
                                           : .signatureTooLong(length: signature.count)
    }

    /// Verifies `derSignature` over `message` with the key of `signer` (decoded once per session,
    /// its verify context made once per process). Returns nil when it verifies, otherwise the failure.
    public static func verify(message: ArraySlice<UInt8>, derSignature: [UInt8], signer: DecodedCertificate) -> JWSFailure? {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        guard signer.keyName.isEC, signer.keyName.name == "prime256v1" else {
            return .leafKeyNotP256(curve: signer.keyName.name)
        }
        // The header (up to its '.') is shared by every token signed with the same chain.
        let header = ByteSearch.firstIndex(of: UInt8(ascii: "."), in: message).map { $0 + 1 - message.startIndex } ?? 0
        guard let digest = DigestVerification.sha256(message, sharedPrefix: header) else { return .signatureMismatch }
        return signer.verifies(digest: digest, derSignature: derSignature) ? nil : .signatureMismatch
    }

    /// Verifies with a developer's key (`verify --key`): nil when it verifies.
    public static func verify(message: ArraySlice<UInt8>, derSignature: [UInt8], developerKey: DeveloperKey) -> JWSFailure? {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        return developerKey.withPublicKey { key in
            guard let key, DigestVerification.keyName(key) == (true, "prime256v1"),
                  let digest = DigestVerification.sha256(message), let context = DigestVerification.makeContext(key) else {
                return .developerSignatureMismatch
            }
            defer { EVP_PKEY_CTX_free(context) }
            return DigestVerification.verify(context, digest: digest, derSignature: derSignature) ? nil : .developerSignatureMismatch
        }
    }

    /// OpenSSL's group name ("prime256v1", "secp384r1"), or the key type for non-EC keys.
    static func curveName(_ key: OpaquePointer) -> String? { DigestVerification.keyName(key).name }
}
