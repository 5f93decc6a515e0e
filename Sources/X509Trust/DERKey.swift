/// DER bytes as a dictionary key, hashed in bulk: `[UInt8]`'s own hashing feeds the hasher one
/// byte at a time, which for certificates (≈ 1 KB each) cost more than the lookups it served.
public struct DERKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
