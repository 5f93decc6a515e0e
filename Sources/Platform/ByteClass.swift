/// A set of byte values, tested a whole buffer at a time: each byte is one table load OR-ed into a
/// flag, with no branch a byte, checked once every 4 KB so that a hit stops the scan early. The
/// loader's text test and the compact-JWS shape test read every byte of every batch line; a
/// branch a byte cost them 8 to 16 instructions a byte.
public struct ByteClass: @unchecked Sendable {
    /// 1 for each member, made once and never written again (so threads may share it); never
    /// freed, since every class is a `static let`.
    private let members: UnsafePointer<UInt8>

    public init(_ isMember: (UInt8) -> Bool) {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for value in 0..<256 { table[value] = isMember(UInt8(value)) ? 1 : 0 }
        members = UnsafePointer(table)
    }

    public func contains(_ byte: UInt8) -> Bool { members[Int(byte)] != 0 }

    /// Whether any byte of `buffer` is a member.
    public func occurs(in buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        var start = 0
        while start < buffer.count {
            let end = min(start + 4096, buffer.count)
            // Two flags, eight bytes a step: each OR waits only on its own flag, so the table loads
            // overlap (one flag chained every load behind the one before it).
            var hit: UInt8 = 0, other: UInt8 = 0
            // Wrapping arithmetic: `i` stays within a buffer's count, and overflow checks were a
            // fifth of a step's instructions.
            var i = start
            while i &+ 8 <= end {
                hit |= members[Int(base[i])] | members[Int(base[i &+ 1])] | members[Int(base[i &+ 2])] | members[Int(base[i &+ 3])]
                other |= members[Int(base[i &+ 4])] | members[Int(base[i &+ 5])] | members[Int(base[i &+ 6])] | members[Int(base[i &+ 7])]
                i &+= 8
            }
            while i < end {
                hit |= members[Int(base[i])]
                i &+= 1
            }
            if hit | other != 0 { return true }
            start = end
        }
        return false
    }

    public func occurs(in bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { occurs(in: $0) } }
}
