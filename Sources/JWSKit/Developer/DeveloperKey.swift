import COpenSSL
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509Trust

/// The developer's In-App Purchase key, as `verify --key` reads it: a PEM (or DER) public key, or
/// the `.p8` PKCS#8 private key App Store Connect hands out, from which OpenSSL derives the public
/// key. Only the public key (SubjectPublicKeyInfo DER) is kept; the private key's bytes are
/// overwritten as soon as it is read, and no message ever quotes them.
public struct DeveloperKey: Sendable, Equatable {
    public enum Source: String, Sendable, Equatable {
        case publicKey = "public key"
        case privateKey = "private key (.p8)"
    }

    /// SubjectPublicKeyInfo DER of the P-256 public key.
    public var publicKeyDER: [UInt8]
    public var source: Source
    /// The key id the file name gives (`SubscriptionKey_<KID>.p8`, `AuthKey_<KID>.p8`), nil otherwise.
    public var keyIDFromName: String?

    /// SHA-256 of `publicKeyDER`, uppercase hex: names the key without showing it.
    public var fingerprint: String { Digest.hex(Digest.sha256(publicKeyDER)) }

    public struct LoadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `bytes` (the file's contents, consumed: overwritten with zeros before returning) named
    /// `fileName`. The error never contains any of the file's bytes.
    public static func load(_ bytes: inout [UInt8], fileName: String) throws -> DeveloperKey {
        defer { for i in bytes.indices { bytes[i] = 0 } }
        let keyID = keyID(fromFileName: fileName)
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        let (key, source) = try readP256(bytes)
        defer { EVP_PKEY_free(key) }
        // i2d_PUBKEY writes only the public half, whichever half was read.
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { throw LoadError(description: "OpenSSL could not encode the public key") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written: Int32 = der.withUnsafeMutableBufferPointer { out in
            var p: UnsafeMutablePointer<UInt8>? = out.baseAddress
            return i2d_PUBKEY(key, &p)
        }
        guard written == length else { throw LoadError(description: "OpenSSL could not encode the public key") }
        return DeveloperKey(publicKeyDER: der, source: source, keyIDFromName: keyID)
    }

    /// `SubscriptionKey_ABC123DEFG.p8` / `AuthKey_ABC123DEFG.p8` → "ABC123DEFG".
    public static func keyID(fromFileName name: String) -> String? {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        for prefix in ["SubscriptionKey_", "AuthKey_"] where file.hasPrefix(prefix) && file.hasSuffix(".p8") {
            let id = file.dropFirst(prefix.count).dropLast(3)
            if !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) { return String(id) }
        }
        return nil
    }

    /// The key in `bytes` (PEM or DER, public or PKCS#8 private) as an EVP_PKEY the caller frees,
    /// refused unless it is P-256. Shared by this loader and `DeveloperSigner`; errors quote no byte.
    static func readP256(_ bytes: [UInt8]) throws -> (OpaquePointer, Source) {
        let text = bytes.starts(with: Array("-----BEGIN".utf8)) || bytes.contains(UInt8(ascii: "-"))
        let parsed: (OpaquePointer, Source)? = bytes.withUnsafeBufferPointer { buffer -> (OpaquePointer, Source)? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            // One memory BIO per attempt: BIO_reset is a macro Swift cannot call.
            func pem(_ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
                guard text, let bio = BIO_new_mem_buf(base, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                return read(bio)
            }
            if let key = pem({ PEM_read_bio_PUBKEY($0, nil, nil, nil) }) { return (key, .publicKey) }
            if let key = pem({ PEM_read_bio_PrivateKey($0, nil, nil, nil) }) { return (key, .privateKey) }
            var p: UnsafePointer<UInt8>? = base
            if let key = d2i_PUBKEY(nil, &p, buffer.count) { return (key, .publicKey) }
            p = base
            if let key = d2i_AutoPrivateKey(nil, &p, buffer.count) { return (key, .privateKey) }
            return nil
        }
        guard let (key, source) = parsed else {
            throw LoadError(description: "not a PEM or DER public key, nor a PKCS#8 private key (.p8)")
        }
        let group = ES256Signature.curveName(key)
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, group == "prime256v1" else {
            EVP_PKEY_free(key)
            throw LoadError(description: "the key is \(group ?? "not an EC key"), not P-256: In-App Purchase keys are ES256 (P-256)")
        }
        // A .p8 carries its public key beside the private one, and OpenSSL keeps the one it reads:
        // with one character of the private part changed, `--key` would check with the file's
        // public key while `api` signed with another (FuzzKeys). The whole pair is checked instead.
        if source == .privateKey, !keyPairHolds(key) {
            EVP_PKEY_free(key)
            throw LoadError(description: "the private key does not match the public key the file carries: the file is damaged or was edited")
        }
        return (key, source)
    }

    /// OpenSSL's full check of a private key: the curve, the public point on it, the private value
    /// in range, and the public key equal to the private one times the generator.
    static func keyPairHolds(_ key: OpaquePointer) -> Bool {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
        defer { EVP_PKEY_CTX_free(context) }
        return EVP_PKEY_check(context) == 1
    }

    /// Runs `body` with the public key as an OpenSSL EVP_PKEY (nil if it does not decode).
    func withPublicKey<R>(_ body: (OpaquePointer?) -> R) -> R {
        publicKeyDER.withUnsafeBufferPointer { buffer in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            let key = d2i_PUBKEY(nil, &p, buffer.count)
            defer { if let key { EVP_PKEY_free(key) } }
            return body(key)
        }
    }
}
