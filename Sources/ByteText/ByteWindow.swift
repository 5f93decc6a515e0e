/// Bytes that may be a window into a larger array, counted from 0: a JWS token inside a JSON body
/// reads the body's own bytes instead of a copy of its characters (a 50 MB transaction history
/// held its text twice). Slices keep the window's indices, as an `Array`'s slices do.
@frozen
public struct ByteWindow: RandomAccessCollection, Sendable {
    public let base: [UInt8]
    public let offset: Int
    public let count: Int

    @inlinable
    public init(_ bytes: [UInt8]) {
        base = bytes
        offset = 0
        count = bytes.count
    }

    /// `range` of `base`, without copying it.
    @inlinable
    public init(_ base: [UInt8], window range: Range<Int>) {
        self.base = base
        offset = range.lowerBound
        count = range.count
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "ByteWindow index out of range")
        return base[offset &+ position]
    }

    /// The bytes as an array: the base itself when the window is all of it, else a copy.
    @inlinable
    public var array: [UInt8] {
        offset == 0 && count == base.count ? base : Array(base[offset..<(offset + count)])
    }

    /// `range` (window indices) as a slice of the base: indices are the base's, so use it only
    /// where a slice's own `startIndex` is respected (hashing, decoding, comparing).
    @inlinable
    public func baseSlice(_ range: Range<Int>) -> ArraySlice<UInt8> {
        base[(offset + range.lowerBound)..<(offset + range.upperBound)]
    }

    /// All of the window as a slice of the base (see `baseSlice`).
    @inlinable
    public var whole: ArraySlice<UInt8> { baseSlice(0..<count) }

    @inlinable
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try whole.withUnsafeBufferPointer(body)
    }

    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try whole.withUnsafeBufferPointer(body)
    }
}

extension ByteWindow: Equatable {
    @inlinable
    public static func == (a: ByteWindow, b: ByteWindow) -> Bool { a.whole == b.whole }
}

extension ByteWindow: ExpressibleByArrayLiteral {
    @inlinable
    public init(arrayLiteral elements: UInt8...) { self.init(elements) }
}

extension ByteWindow: Hashable {
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(whole) }
}
