/// Finding bytes inside bytes with the C library's `memchr` and `memcmp` (memmem is a GNU extension
/// that Swift's Glibc does not import): the explorer's search and the paste finder's tests on a
/// token header, which a `String` search would walk Character by Character (issue 32's profile).
public enum ByteSearch {
    /// The first position at or after `from` where the `n` bytes at `key` occur before `end`.
    public static func find(_ key: UnsafePointer<UInt8>, _ n: Int, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
        var position = from
        while position + n <= end {
            guard let hit = memchr(base + position, Int32(key[0]), end - position - n + 1) else { return nil }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if n == 1 || memcmp(base + at + 1, key + 1, n - 1) == 0 { return at }
            position = at + 1
        }
        return nil
    }

    /// Whether `needle`'s UTF-8 occurs in `haystack`.
    public static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let key = Array(needle.utf8)
        guard !key.isEmpty else { return true }
        return haystack.withUnsafeBufferPointer { hay in
            key.withUnsafeBufferPointer { k in
                guard let base = hay.baseAddress, let keyBase = k.baseAddress else { return false }
                return find(keyBase, k.count, in: base, from: 0, to: hay.count) != nil
            }
        }
    }
}

extension ByteSearch {
    /// The first index at or after `from` where `byte` occurs in `bytes` (`memchr`).
    public static func firstIndex(of byte: UInt8, in bytes: [UInt8], from: Int = 0) -> Int? {
        firstIndex(of: byte, in: bytes[...], from: from)
    }

    /// The first index of `bytes` (the slice's own indices) at or after `from` where `byte` occurs.
    public static func firstIndex(of byte: UInt8, in bytes: ArraySlice<UInt8>, from: Int? = nil) -> Int? {
        let start = from ?? bytes.startIndex
        guard start >= bytes.startIndex, start < bytes.endIndex else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            let offset = start - bytes.startIndex
            guard let base = buffer.baseAddress, let hit = memchr(base + offset, Int32(byte), buffer.count - offset) else { return nil }
            return bytes.startIndex + base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Whether `a` and `b` hold the same bytes (`memcmp`: `==` on arrays compares one element at a time).
    public static func same(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { p in
            b.withUnsafeBufferPointer { q in
                guard let x = p.baseAddress, let y = q.baseAddress else { return true }  // both empty
                return memcmp(x, y, p.count) == 0
            }
        }
    }
}
