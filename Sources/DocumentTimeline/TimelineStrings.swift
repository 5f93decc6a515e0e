/// The timeline's strings, each kept once in one byte buffer and named by a 4-byte reference: a
/// 20,000-purchase receipt's facts, observations and events held their ids, product ids and places
/// as separate heap strings, ≈ 35 MB at the timeline's peak (issue 32). Equal strings get the same
/// reference, so records compare strings by comparing references.
package struct TimelineStrings: Sendable {
    /// No string (an optional that is nil).
    package static let none: Int32 = -1

    private var bytes: [UInt8] = []
    /// String `i` is `bytes[ends[i - 1]..<ends[i]]` (from 0 for the first).
    private var ends: [Int] = []
    /// Open addressing over the references, -1 empty; kept at most three quarters full (half full
    /// took 4 MB for a 50 MB receipt's 326,000 strings, beside the opened receipt). Hashed with
    /// `Hasher` (seeded per process), so that input cannot be made to collide on purpose.
    private var slots: [Int32] = []

    package init() {}

    package var count: Int { ends.count }

    /// Room for `more` strings of up to 24 bytes without growing by doubling (each doubling held
    /// the old buffer beside its copy).
    package mutating func reserve(_ more: Int) {
        ends.reserveCapacity(ends.count + more)
        bytes.reserveCapacity(bytes.count + 24 * more)
        var size = max(64, slots.count)
        while size * 3 < (ends.count + more) * 4 { size *= 2 }
        if size > slots.count { rehash(to: size) }
    }

    /// The reference of `text` (the same for equal strings), `none` for nil.
    package mutating func intern(_ text: String?) -> Int32 {
        guard var text else { return Self.none }
        return text.withUTF8 { intern(utf8: $0) }
    }

    package mutating func intern(_ text: Substring) -> Int32 {
        var text = text
        return text.withUTF8 { intern(utf8: $0) }
    }

    package mutating func intern(utf8: UnsafeBufferPointer<UInt8>) -> Int32 {
        if slots.count * 3 < (ends.count + 1) * 4 { rehash(to: max(64, slots.count * 2)) }
        let mask = slots.count - 1
        var slot = Self.hash(utf8) & mask
        while slots[slot] >= 0 {
            if equals(slots[slot], utf8) { return slots[slot] }
            slot = (slot + 1) & mask
        }
        let ref = Int32(ends.count)
        bytes.append(contentsOf: utf8)
        ends.append(bytes.count)
        slots[slot] = ref
        return ref
    }

    /// The string a reference names (nil for `none`).
    package func string(_ ref: Int32) -> String? {
        guard ref >= 0 else { return nil }
        return String(decoding: bytes[range(ref)], as: UTF8.self)
    }

    /// Its length in Characters, as `String.count` gives it.
    package func characterCount(_ ref: Int32) -> Int { string(ref)?.count ?? -1 }

    /// `ref`'s string starts with `prefix`'s bytes.
    package func hasPrefix(_ ref: Int32, _ prefix: String) -> Bool { string(ref)?.hasPrefix(prefix) ?? false }

    private func range(_ ref: Int32) -> Range<Int> {
        let i = Int(ref)
        return (i == 0 ? 0 : ends[i - 1])..<ends[i]
    }

    private func equals(_ ref: Int32, _ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let r = range(ref)
        guard r.count == utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { all in
            utf8.isEmpty || memcmpEqual(all.baseAddress! + r.lowerBound, utf8.baseAddress!, r.count)
        }
    }

    private static func hash(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(utf8))
        return hasher.finalize()
    }

    private mutating func rehash(to size: Int) {
        slots = [Int32](repeating: -1, count: size)
        let mask = size - 1
        bytes.withUnsafeBufferPointer { all in
            for ref in 0..<ends.count {
                let r = range(Int32(ref))
                var slot = Self.hash(UnsafeBufferPointer(rebasing: all[r])) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(ref)
            }
        }
    }
}

private func memcmpEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
    for i in 0..<n where a[i] != b[i] { return false }
    return true
}
