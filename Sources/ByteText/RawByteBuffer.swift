/// The one owned raw byte buffer the fast writers assemble output in (the dump formats' lines, the
/// JSON reports): bytes at a raw pointer with a manual count. The `put` methods store without bounds,
/// uniqueness or refcount checks, so the caller `reserve`s room first; each writer keeps its own
/// format rules on top. Copyable on purpose (the dump loops pass it by `inout`): the owner calls
/// `deallocate()` once.
///
/// Everything is `@inlinable`: the writers live in other modules, and a call per byte would cost
/// more than the byte (a receipt's JSON line makes several thousand stores).
@frozen
public struct RawByteBuffer {
    /// The bytes written are `base[0..<count]`, in `capacity` bytes of room.
    public var base: UnsafeMutablePointer<UInt8>
    public var count: Int
    public var capacity: Int

    @inlinable
    public init(capacity: Int) {
        base = .allocate(capacity: capacity)
        count = 0
        self.capacity = capacity
    }

    @inlinable
    public func deallocate() { base.deallocate() }

    @inlinable
    public var raw: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// A copy of the bytes written.
    @inlinable
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Room for `n` more bytes.
    @inlinable @inline(__always)
    public mutating func reserve(_ n: Int) {
        if capacity &- count < n { grow(n) }
    }

    @inline(never)
    public mutating func grow(_ n: Int) {
        let larger = Swift.max(capacity * 2, count + n)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }

    // MARK: unchecked stores (room reserved by the caller)

    @inlinable @inline(__always)
    public mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inlinable @inline(__always)
    public mutating func put(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        (base + count).initialize(from: text.utf8Start, count: n)
        count &+= n
    }

    @inlinable @inline(__always)
    public mutating func put(_ source: UnsafePointer<UInt8>, count n: Int) {
        (base + count).initialize(from: source, count: n)
        count &+= n
    }

    /// `source`'s bytes, with `copySmall`'s word moves up to 64 bytes and `memcpy` beyond.
    @inlinable @inline(__always)
    public mutating func putCopying(_ source: UnsafePointer<UInt8>, count n: Int) {
        let target = base + count
        if n <= 64 {
            // Most copies are a key or a short value: word moves cost less than the call into
            // the standard library and `memcpy`.
            Self.copySmall(source, target, n)
        } else {
            target.initialize(from: source, count: n)
        }
        count &+= n
    }

    /// `n` spaces, stored eight at a time: may write up to 7 bytes past them (within the room the
    /// caller reserved, `n + 7`; they are overwritten or ignored).
    @inlinable @inline(__always)
    public mutating func putSpaces(_ n: Int) {
        guard n > 0 else { return }
        let p = UnsafeMutableRawPointer(base + count)
        p.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
        if n > 8 { Self.spacesBeyondEight(p, n) }
        count &+= n
    }

    @inline(never)
    public static func spacesBeyondEight(_ start: UnsafeMutableRawPointer, _ n: Int) {
        var p = start + 8
        var k = n &- 8
        while k > 0 {
            p.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
            p += 8
            k &-= 8
        }
    }

    /// `value` in decimal (up to 20 digits; reserve them), written from its last digit back into
    /// room counted first: no scratch buffer and copy.
    @inlinable @inline(__always)
    public mutating func putDecimal(_ value: UInt64) {
        let n = Self.decimalDigitCount(value)
        Self.writeDecimal(value, endingAt: base + (count &+ n))
        count &+= n
    }

    // MARK: shared pieces

    /// How many decimal digits `value` has (1 for 0).
    @inlinable @inline(__always)
    public static func decimalDigitCount(_ value: UInt64) -> Int {
        var digits = 1
        var rest = value
        while rest >= 100 {
            rest /= 100
            digits &+= 2
        }
        if rest >= 10 { digits &+= 1 }
        return digits
    }

    /// `value`'s decimal digits, the last one at `end - 1`, two at a time from `digitPairs`.
    @inlinable @inline(__always)
    public static func writeDecimal(_ value: UInt64, endingAt end: UnsafeMutablePointer<UInt8>) {
        var p = end
        var v = value
        while v >= 100 {
            p -= 2
            twoDigits(Int(truncatingIfNeeded: v % 100), p)
            v /= 100
        }
        if v >= 10 {
            twoDigits(Int(truncatingIfNeeded: v), p - 2)
        } else {
            p[-1] = 0x30 &+ UInt8(truncatingIfNeeded: v)
        }
    }

    /// "00" through "99": the one table of the hundred digit pairs. A literal, not a stored
    /// `static let`, so that each use folds to a constant address instead of a call to a lazy
    /// global's accessor from another module.
    @inlinable
    public static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// `value` (0…99) as two decimal digits at `p`.
    @inlinable @inline(__always)
    public static func twoDigits(_ value: Int, _ p: UnsafeMutablePointer<UInt8>) {
        let pair = UnsafeRawPointer(digitPairs.utf8Start).loadUnaligned(fromByteOffset: value &* 2, as: UInt16.self)
        UnsafeMutableRawPointer(p).storeBytes(of: pair, as: UInt16.self)
    }

    /// Copies `n` bytes with word moves, the last (or only) one overlapping the one before it
    /// instead of a byte loop for the rest: a key of 6 bytes is two 4-byte moves. It reads and
    /// writes only `from[0..<n]` and `to[0..<n]`.
    @inlinable @inline(__always)
    public static func copySmall(_ from: UnsafePointer<UInt8>, _ to: UnsafeMutablePointer<UInt8>, _ n: Int) {
        let s = UnsafeRawPointer(from), d = UnsafeMutableRawPointer(to)
        if n >= 8 {
            var i = 0
            while n &- i > 8 {
                d.storeBytes(of: s.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
                i &+= 8
            }
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            let head = s.loadUnaligned(as: UInt32.self), tail = s.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            d.storeBytes(of: head, as: UInt32.self)
            d.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else if n >= 2 {
            let head = s.loadUnaligned(as: UInt16.self), tail = s.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self)
            d.storeBytes(of: head, as: UInt16.self)
            d.storeBytes(of: tail, toByteOffset: n &- 2, as: UInt16.self)
        } else if n == 1 {
            to[0] = from[0]
        }
    }
}
