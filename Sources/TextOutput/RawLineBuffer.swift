import ASN1Lenient
import ByteText

// The byte buffer the dump formats (tree, openssl, json) assemble each line in: unchecked stores
// into reserved room, kept apart from each listing's formatting rules.

/// Bytes assembled at a raw pointer with a manual count: the `put` methods store without
/// bounds, uniqueness or refcount checks, so the caller `reserve`s room first (lines are
/// short and bounded except for values, which reserve their own length).
struct RawBytes {
    static let hexDigits: StaticString = "0123456789ABCDEF"
    /// "00" through "99".
    static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    var base: UnsafeMutablePointer<UInt8>
    var count = 0
    var capacity: Int

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    func deallocate() { base.deallocate() }

    var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func reserve(_ n: Int) {
        if capacity &- count < n { grow(n) }
    }

    @inline(never)
    mutating func grow(_ n: Int) {
        let newCapacity = Swift.max(capacity * 2, count + n)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = newCapacity
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        (base + count).initialize(from: text.utf8Start, count: n)
        count &+= n
    }

    @inline(__always)
    mutating func put(_ source: UnsafePointer<UInt8>, count n: Int) {
        (base + count).initialize(from: source, count: n)
        count &+= n
    }

    /// `n` spaces, stored eight at a time: may write up to 7 bytes past them (within the
    /// room the caller reserved; they are overwritten or ignored).
    @inline(__always)
    mutating func spaces(_ n: Int) {
        guard n > 0 else { return }
        let p = UnsafeMutableRawPointer(base + count)
        p.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
        if n > 8 { spacesBeyondEight(p, n) }
        count &+= n
    }

    @inline(never)
    func spacesBeyondEight(_ start: UnsafeMutableRawPointer, _ n: Int) {
        var p = start + 8
        var k = n &- 8
        while k > 0 {
            p.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
            p += 8
            k &-= 8
        }
    }

    /// `value` in decimal, padded with spaces to `width` columns (reserve `width` + 20).
    @inline(__always)
    mutating func decimal(_ value: UInt, width: Int = 0, leftAlign: Bool = false) {
        var digits = 1
        var rest = value
        while rest >= 100 {
            rest /= 100
            digits &+= 2
        }
        if rest >= 10 { digits &+= 1 }
        if !leftAlign { spaces(width &- digits) }
        let pairs = RawBytes.digitPairs.utf8Start
        var v = value
        var p = base + count + digits
        while v >= 100 {
            let r = Int(truncatingIfNeeded: v % 100) &* 2
            v /= 100
            p -= 2
            p[0] = pairs[r]
            p[1] = pairs[r &+ 1]
        }
        if v >= 10 {
            let r = Int(truncatingIfNeeded: v) &* 2
            p[-2] = pairs[r]
            p[-1] = pairs[r &+ 1]
        } else {
            p[-1] = 0x30 &+ UInt8(truncatingIfNeeded: v)
        }
        count &+= digits
        if leftAlign { spaces(width &- digits) }
    }

    /// Upper-case hex digits of `source`, no separators (reserves its own room).
    @inline(__always)
    mutating func hex(_ source: UnsafeBufferPointer<UInt8>) {
        reserve(source.count &* 2)
        let digits = RawBytes.hexDigits.utf8Start
        for b in source {
            base[count] = digits[Int(b >> 4)]
            base[count &+ 1] = digits[Int(b & 0xF)]
            count &+= 2
        }
    }

    /// Copies the UTF-8 of `text` (reserves its own room).
    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            reserve(utf8.count)
            if let start = utf8.baseAddress { put(start, count: utf8.count) }
        }
    }

    /// Hands the bytes to `out` once a chunk is full (or always, with `force`).
    @inline(__always)
    mutating func drain(to out: OutputWriter, force: Bool = false) {
        if force || count >= OutputWriter.chunkSize {
            out.write(raw: raw)
            count = 0
        }
    }

    /// Copies `bytes` (reserves its own room).
    @inline(__always)
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { put($0.baseAddress!, count: $0.count) }
    }
}
