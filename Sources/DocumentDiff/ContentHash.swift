import ASN1Lenient
import DocumentCore

/// A 64-bit FNV-1a hash of a node's decoded content, made of its elements' hashes for a constructed
/// node (`ContentHasher` makes them when asked). Encoding choices do not enter it: length forms, indefinite lengths, how a string is
/// cut into chunks, and the order of a SET's elements. Equal hashes mean "same content" (collisions
/// are possible in theory; the structural diff then reports a re-encoding where bytes differ).
enum ContentHash {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x100_0000_01b3

    @inline(__always)
    static func mix(_ h: inout UInt64, _ byte: UInt8) {
        h = (h ^ UInt64(byte)) &* prime
    }

    static func mix(_ h: inout UInt64, word: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { mix(&h, UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    /// SplitMix64's finaliser: spreads every bit of `x` over the word before SET hashes are summed.
    static func scramble(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Universal string types whose BER form may be constructed from chunks.
    static func isStringTag(_ node: Node) -> Bool {
        guard node.tagClass == .universal else { return false }
        switch node.tagNumber {
        case 3, 4, 12, 18...22, 25...28, 30: return true
        default: return false
        }
    }

    /// Hashes of a pre-order arena from the last node back, so every child's hash is ready when its
    /// parent's is made (JSON trees; ASN.1 trees hash on demand, `ContentHasher`).
    static func bottomUp(count: Int, _ hash: (Int, [UInt64]) -> UInt64) -> [UInt64] {
        var out = [UInt64](repeating: 0, count: count)
        var index = count - 1
        while index >= 0 {
            out[index] = hash(index, out)
            index -= 1
        }
        return out
    }

    /// The hash of a node whose content is its bytes (a primitive, encapsulating or not; an
    /// unparsed region; a constructed string, whose chunks' contents are joined); nil for a node
    /// whose hash is made of its elements' (`ContentHasher`), with `h` then begun.
    static func begin(_ tree: Tree, _ node: Node, _ index: Int, _ h: inout UInt64) -> Bool {
        h = offsetBasis
        mix(&h, node.kind == .unparsed ? 0xFF : node.tagClass.rawValue)
        mix(&h, word: UInt64(node.tagNumber))
        if node.kind == .unparsed || !node.isConstructed {
            mix(&h, 0)
            for byte in tree.bytes[node.contentRange] { mix(&h, byte) }
            return true
        }
        if isStringTag(node) {
            // A constructed string is the concatenation of its chunks' contents: the same as primitive.
            mix(&h, 0)
            var i = index + 1
            while i < Int(node.subtreeEnd) {
                let chunk = tree.nodes[i]
                if !chunk.isConstructed { for byte in tree.bytes[chunk.contentRange] { mix(&h, byte) } ; i = Int(chunk.subtreeEnd) } else { i += 1 }
            }
            return true
        }
        mix(&h, 1)
        return false
    }
}
