/// A bit per node. Subtrees are contiguous index ranges in the pre-order arena, so "expand this
/// subtree", "expand all" and "collapse all" are range fills over 64-bit words: expanding all of a
/// million-node tree writes about 16,000 words.
public struct NodeBitSet: Equatable, Sendable {
    public private(set) var count: Int
    var words: [UInt64]

    public init(count: Int) {
        self.count = count
        self.words = Array(repeating: 0, count: (count + 63) / 64)
    }

    @inline(__always)
    public subscript(index: Int) -> Bool {
        get { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
        set {
            if newValue { words[index >> 6] |= 1 << UInt64(index & 63) } else { words[index >> 6] &= ~(1 << UInt64(index & 63)) }
        }
    }

    /// Sets or clears every bit in `range`.
    public mutating func fill(_ range: Range<Int>, _ on: Bool) {
        let lo = max(0, range.lowerBound), hi = min(count, range.upperBound)
        guard lo < hi else { return }
        var i = lo
        while i < hi && i & 63 != 0 { self[i] = on; i += 1 }
        let wordValue: UInt64 = on ? ~0 : 0
        while i + 64 <= hi { words[i >> 6] = wordValue; i += 64 }
        while i < hi { self[i] = on; i += 1 }
    }

    /// Number of set bits (O(n/64)); for tests and diagnostics.
    public var population: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Indices of the set bits, in order (O(n/64 + set bits)); for tests.
    public var members: [Int] {
        var out: [Int] = []
        for (w, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                let b = bits.trailingZeroBitCount
                out.append(w * 64 + b)
                bits &= bits - 1
            }
        }
        return out
    }
}
