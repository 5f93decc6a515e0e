import Platform

/// DER bytes as a dictionary key. Hashed on the length and the first and last 64 bytes only:
/// equality still compares every byte, so keys that share those bytes only share a bucket. Every
/// input of a batch looks its certificates up (≈ 1 KB each, three a receipt or token), and hashing
/// them whole was most of what the pool cost; a certificate's first bytes hold its serial number
/// and its last ones its signature, which differ between certificates.
public struct DERKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let sampled = 64

    /// Every byte compared, with `memcmp`: `[UInt8]`'s own `==` compares element by element, which
    /// for a certificate cost as much as decoding the rest of a receipt.
    public static func == (a: DERKey, b: DERKey) -> Bool { ByteSearch.same(a.bytes, b.bytes[...]) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { all in
            guard all.count > 2 * Self.sampled else { return hasher.combine(bytes: all) }
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[..<Self.sampled]))
            hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: all[(all.count - Self.sampled)...]))
        }
    }
}
