import COpenSSL
import X509Trust

/// Signs ES256 with the developer's In-App Purchase private key (the `.p8`), for the App Store
/// Server API's bearer token. The file's bytes are overwritten as soon as OpenSSL has read them; the
/// key lives in OpenSSL's memory only as long as this signer, which frees it (`EVP_PKEY_free`
/// clears the key material) when the last reference goes. Nothing here prints or returns the key.
public final class DeveloperSigner: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never mutated after loading; OpenSSL signs with a const key.
    private let key: OpaquePointer
    /// The key id the file name gives (`SubscriptionKey_<KID>.p8`), nil otherwise.
    public let keyIDFromName: String?

    private init(key: OpaquePointer, keyIDFromName: String?) {
        self.key = key
        self.keyIDFromName = keyIDFromName
    }

    deinit { EVP_PKEY_free(key) }

    /// Reads `bytes` (consumed: overwritten with zeros before returning); a public key is refused,
    /// since it cannot sign. The error never contains any of the file's bytes.
    public static func load(_ bytes: inout [UInt8], fileName: String) throws -> DeveloperSigner {
        defer { for i in bytes.indices { bytes[i] = 0 } }
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        let (key, source) = try DeveloperKey.readP256(bytes)
        guard source == .privateKey else {
            EVP_PKEY_free(key)
            throw DeveloperKey.LoadError(description: "a public key cannot sign: give the .p8 private key App Store Connect gave you")
        }
        return DeveloperSigner(key: key, keyIDFromName: DeveloperKey.keyID(fromFileName: fileName))
    }

    /// The JWS signature (raw r‖s, 64 bytes) over `message`; nil if OpenSSL fails.
    public func sign(_ message: [UInt8]) -> [UInt8]? {
        OpenSSLError.clear()
        defer { OpenSSLError.clear() }
        guard let ctx = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, EVP_sha256(), nil, key) == 1 else { return nil }
        var length = 0
        let sized = message.withUnsafeBufferPointer { EVP_DigestSign(ctx, nil, &length, $0.baseAddress, $0.count) }
        guard sized == 1, length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: length)
        let signed = der.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { EVP_DigestSign(ctx, out.baseAddress, &length, $0.baseAddress, $0.count) }
        }
        guard signed == 1 else { return nil }
        return ES256Signature.raw(fromDER: Array(der.prefix(length)))
    }
}
