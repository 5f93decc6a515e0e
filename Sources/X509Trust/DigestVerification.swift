import COpenSSL
import Threads

/// Signatures checked over a digest with a verify context made once per key: `EVP_DigestVerifyInit`
/// fetches the digest and the signature algorithm from the provider, checks the key's type names
/// and allocates two contexts on every call (≈ 30 K instructions a token, and a provider lock
/// taken on every check). A token's SHA-256 is taken with a digest fetched once, and the ECDSA check
/// runs on the key's context (`EVP_PKEY_verify`), as `openssl speed` measures it.
public enum DigestVerification {
    /// SHA-256, fetched once for the process (an `EVP_MD` may be used by several threads at once).
    nonisolated(unsafe) private static let sha256MD: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// SHA-256 of `message` with OpenSSL (its SHA extensions), nil only when OpenSSL fails.
    public static func sha256(_ message: [UInt8]) -> [UInt8]? { sha256(message[...]) }

    /// SHA-256 of `message` where it lies (a token's signed text, sliced from the token).
    public static func sha256(_ message: ArraySlice<UInt8>) -> [UInt8]? {
        guard let md = sha256MD else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let ok = message.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(input.baseAddress, input.count, $0.baseAddress, &length, md, nil) }
        }
        return ok == 1 && length == 32 ? digest : nil
    }

    /// SHA-256 of `message` whose first `sharedPrefix` bytes other messages share (a JWS's header):
    /// the state after them is kept (`PrefixDigestStates`) and the next message that starts with
    /// the same bytes hashes only the rest. The digest is the same as `sha256(message)`'s.
    public static func sha256(_ message: ArraySlice<UInt8>, sharedPrefix: Int) -> [UInt8]? {
        // A short first part costs less to hash than to look up.
        guard let md = sha256MD, sharedPrefix >= minimumSharedPrefix, sharedPrefix <= message.count else { return sha256(message) }
        let split = message.startIndex + sharedPrefix
        guard let context = PrefixDigestStates.shared.context(after: message[..<split], md: md) else { return nil }
        defer { EVP_MD_CTX_free(context) }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard message[split...].withUnsafeBufferPointer({ EVP_DigestUpdate(context, $0.baseAddress, $0.count) }) == 1,
              digest.withUnsafeMutableBufferPointer({ EVP_DigestFinal_ex(context, $0.baseAddress, &length) }) == 1,
              length == 32 else { return nil }
        return digest
    }

    /// Below this, a first part is hashed with the rest (a developer token's header is 50 bytes).
    static let minimumSharedPrefix = 512

    /// A context ready to verify signatures with `key`; the caller frees it (`EVP_PKEY_CTX_free`).
    public static func makeContext(_ key: OpaquePointer) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return nil }
        guard EVP_PKEY_verify_init(context) == 1 else { EVP_PKEY_CTX_free(context); return nil }
        return context
    }

    /// Whether `derSignature` is a valid signature of `digest` under the context's key.
    public static func verify(_ context: OpaquePointer, digest: [UInt8], derSignature: [UInt8]) -> Bool {
        derSignature.withUnsafeBufferPointer { sig in
            digest.withUnsafeBufferPointer { EVP_PKEY_verify(context, sig.baseAddress, sig.count, $0.baseAddress, $0.count) == 1 }
        }
    }

    /// OpenSSL's group name ("prime256v1", "secp384r1") for an EC key, else the key type's name.
    public static func keyName(_ key: OpaquePointer) -> (isEC: Bool, name: String?) {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC else {
            return (false, EVP_PKEY_get0_type_name(key).map { String(cString: $0) })
        }
        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else { return (true, nil) }
        return (true, OpenSSLBridge.text(ofFilled: buffer))
    }
}

/// The verify contexts of one certificate's key. A context serves one thread at a time: a check
/// takes one (or makes one) and puts it back, so a batch's workers never share one.
final class VerifyContextPool: @unchecked Sendable {  // `idle` is only touched with `lock` held
    private let lock = Lock()
    private var idle: [OpaquePointer] = []

    deinit { for context in idle { EVP_PKEY_CTX_free(context) } }

    func take() -> OpaquePointer? { lock.withLock { idle.popLast() } }
    func put(_ context: OpaquePointer) { lock.withLock { idle.append(context) } }
}
