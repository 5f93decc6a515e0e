import COpenSSL
import Platform
import Threads

/// SHA-256 states after a message's first part, kept for the next message that starts with the
/// same bytes. A JWS's signed text starts with its header, and Apple signs with a handful of
/// chains, so a batch's tokens share a few headers, and a header is most of a token's bytes (a
/// transaction's x5c chain is 4.4 KB of its 5 KB). SHA-256 reads a message front to back, so its
/// state after those bytes is the same for every message that starts with them: a message whose
/// first part is byte for byte a kept one goes on from that state and hashes only the rest.
final class PrefixDigestStates: @unchecked Sendable {  // `kept` is only touched with `lock` held
    static let shared = PrefixDigestStates()
    /// A batch of real tokens meets a handful of chains; beyond this many the oldest state goes.
    static let capacity = 8
    private let lock = Lock()
    private var kept: [(prefix: [UInt8], state: OpaquePointer)] = []

    deinit { for entry in kept { EVP_MD_CTX_free(entry.state) } }

    /// How many states are kept (for tests).
    var count: Int { lock.withLock { kept.count } }

    /// A new context, which the caller frees, that has read `prefix`: a copy of the state kept for
    /// these bytes, or else made now, and a copy of it kept.
    func context(after prefix: ArraySlice<UInt8>, md: OpaquePointer) -> OpaquePointer? {
        guard let context = EVP_MD_CTX_new() else { return nil }
        // The copy is made with the lock held, so a state is never freed while it is read.
        let copied = lock.withLock {
            guard let entry = kept.first(where: { ByteSearch.same($0.prefix, prefix) }) else { return false }
            return EVP_MD_CTX_copy_ex(context, entry.state) == 1
        }
        if copied { return context }
        guard EVP_DigestInit_ex(context, md, nil) == 1,
              prefix.withUnsafeBufferPointer({ EVP_DigestUpdate(context, $0.baseAddress, $0.count) }) == 1 else {
            EVP_MD_CTX_free(context)
            return nil
        }
        keep(prefix, copyOf: context)
        return context
    }

    private func keep(_ prefix: ArraySlice<UInt8>, copyOf context: OpaquePointer) {
        guard let state = EVP_MD_CTX_new() else { return }
        guard EVP_MD_CTX_copy_ex(state, context) == 1 else { EVP_MD_CTX_free(state); return }
        let unused: OpaquePointer? = lock.withLock {
            // Another thread may have kept the same bytes meanwhile: one state is enough.
            if kept.contains(where: { ByteSearch.same($0.prefix, prefix) }) { return state }
            kept.append((Array(prefix), state))
            return kept.count > Self.capacity ? kept.removeFirst().state : nil
        }
        if let unused { EVP_MD_CTX_free(unused) }
    }
}
