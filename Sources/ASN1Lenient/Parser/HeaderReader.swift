/// The one BER identifier + length reader. The parser, the encapsulation pre-check, the input
/// loader's "is this one element?" test and ReceiptKit's raw-byte scanners all read headers through
/// it, so an overflow fix or a new boundary rule lands in every place at once (issue 8: four copies
/// had drifted and one of them trapped on a length near Int.max).
///
/// Every arithmetic step is checked or clamped: tag numbers saturate at `UInt32.max`, lengths are
/// accumulated in `UInt64` with an overflow flag, and positions are compared against what remains
/// (`n <= limit - p`) rather than added (`p + n <= limit`).
public struct BERHeader: Sendable, Equatable {
    /// The first identifier octet (class, constructed bit, low tag number or 31).
    public var start: Int
    public var first: UInt8
    /// The tag number; `UInt32.max` when it needs more than 32 bits (`tagOverflow`).
    public var tagNumber: UInt32
    public var tagOverflow: Bool
    /// Offset of the first length octet (= identifier start + identifier length).
    public var lengthStart: Int
    /// Offset just past the length octets.
    public var contentStart: Int
    public var length: Length

    /// The length octets' meaning.
    public enum Length: Sendable, Equatable {
        /// A definite length that fits in `Int`. `longForm`: it used the long form.
        case definite(Int, longForm: Bool)
        /// 0x80: the content ends at an end-of-contents marker.
        case indefinite
        /// More than 8 length octets, or a value above `Int.max` (`value` saturates at UInt64.max).
        case unrepresentable(value: UInt64, octets: Int)
    }

    /// Why no header could be read. The element's extent is unknown in every case.
    public enum Failure: Error, Sendable, Equatable {
        /// The long-form tag number runs to `limit` without a final octet.
        case truncatedIdentifier
        /// The identifier runs past `maxIdentifierLength` octets.
        case identifierTooLong
        /// The identifier ends at `limit`: there is no length octet.
        case missingLength(lengthStart: Int)
        /// The long form announces `octets` length octets but only `available` remain.
        case truncatedLength(lengthStart: Int, octets: Int, available: Int)
        /// Length octet 0xFF (reserved by X.690 §8.1.3.5).
        case reservedLength(lengthStart: Int)
    }

    /// A node records its identifier length in one byte; 32-bit tags need at most 6 octets.
    public static let maxIdentifierLength = 255

    public var isConstructed: Bool { first & 0x20 != 0 }
    public var identifierLength: Int { lengthStart - start }

    @inlinable
    init(start: Int, first: UInt8, tagNumber: UInt32, tagOverflow: Bool, lengthStart: Int,
         contentStart: Int, length: Length) {
        self.start = start
        self.first = first
        self.tagNumber = tagNumber
        self.tagOverflow = tagOverflow
        self.lengthStart = lengthStart
        self.contentStart = contentStart
        self.length = length
    }

    /// Reads the header at `start`; `limit` is where the enclosing content (or the input) ends and
    /// must be `<= bytes.count`. Requires `start < limit`.
    @inlinable @inline(__always)
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int) -> Result<BERHeader, Failure> {
        var p = start
        let first = bytes[p]
        p += 1
        var tagNumber = UInt32(first & 0x1F)
        var tagOverflow = false
        if tagNumber == 31 {
            var value: UInt64 = 0
            while true {
                guard p < limit else { return .failure(.truncatedIdentifier) }
                guard p - start < maxIdentifierLength else { return .failure(.identifierTooLong) }
                let octet = bytes[p]
                p += 1
                // Stop accumulating once past 32 bits: 255 octets of 7 bits would overflow UInt64.
                if value <= UInt64(UInt32.max) { value = (value << 7) | UInt64(octet & 0x7F) }
                if octet & 0x80 == 0 { break }
            }
            tagOverflow = value > UInt64(UInt32.max)
            tagNumber = tagOverflow ? UInt32.max : UInt32(value)
        }
        let lengthStart = p
        guard p < limit else { return .failure(.missingLength(lengthStart: lengthStart)) }
        let lengthOctet = bytes[p]
        p += 1
        let length: Length
        if lengthOctet < 0x80 {
            length = .definite(Int(lengthOctet), longForm: false)
        } else if lengthOctet == 0x80 {
            length = .indefinite
        } else if lengthOctet == 0xFF {
            return .failure(.reservedLength(lengthStart: lengthStart))
        } else {
            let octets = Int(lengthOctet & 0x7F)
            guard octets <= limit - p else {
                return .failure(.truncatedLength(lengthStart: lengthStart, octets: octets, available: limit - p))
            }
            var value: UInt64 = 0
            var overflow = false
            for i in 0..<octets {
                if value > UInt64.max >> 8 { overflow = true }
                value = (value &<< 8) | UInt64(bytes[p + i])
            }
            p += octets
            if octets > 8 || overflow || value > UInt64(Int.max) {
                length = .unrepresentable(value: overflow ? UInt64.max : value, octets: octets)
            } else {
                length = .definite(Int(value), longForm: true)
            }
        }
        return .success(BERHeader(start: start, first: first, tagNumber: tagNumber, tagOverflow: tagOverflow,
                                  lengthStart: lengthStart,
                                  contentStart: p, length: length))
    }

    /// The header almost every element has, read without building a `BERHeader`: a one-octet
    /// identifier and a definite length in the short form or the minimal one- or two-octet long
    /// form, whose content fits before `limit`. Nil for anything else, which `read` then judges
    /// (what `read` gives for these headers is exactly this, and carries no issue to report).
    /// Requires `0 <= start < limit <= bytes.count <= UInt32.max`, so the arithmetic cannot overflow.
    @inline(__always)
    static func readCommon(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int,
                           limit: Int) -> (contentStart: Int, length: Int)? {
        let room = limit &- start
        guard room >= 2, bytes[start] & 0x1F != 0x1F else { return nil }
        return readCommonLength(bytes, at: start, room: room)
    }

    /// `readCommon` after its identifier check, for a caller that made it (`room`: `limit - start`,
    /// at least 2; the identifier at `start` is one octet).
    @inline(__always)
    static func readCommonLength(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int,
                                 room: Int) -> (contentStart: Int, length: Int)? {
        let lengthOctet = bytes[start &+ 1]
        if lengthOctet < 0x80 {
            guard Int(lengthOctet) <= room &- 2 else { return nil }
            return (start &+ 2, Int(lengthOctet))
        }
        if lengthOctet == 0x81 && room >= 3 {
            let length = Int(bytes[start &+ 2])
            guard length >= 0x80, length <= room &- 3 else { return nil }
            return (start &+ 3, length)
        }
        if lengthOctet == 0x82 && room >= 4 {
            let high = Int(bytes[start &+ 2])
            let length = high &<< 8 | Int(bytes[start &+ 3])
            guard high != 0, length <= room &- 4 else { return nil }
            return (start &+ 4, length)
        }
        return nil
    }

    /// Whether `bytes[start..<end]` is exactly one element: a header whose definite length spans
    /// the rest, or a constructed element with an indefinite length. A strong sign of DER/BER.
    @inlinable @inline(__always)
    public static func spansExactlyOneElement(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        guard end - start >= 2, case .success(let header) = read(bytes, at: start, limit: end) else { return false }
        switch header.length {
        case .indefinite: return header.isConstructed
        // Compare with what remains instead of adding: `contentStart + n` overflows near Int.max.
        case .definite(let n, _): return n == end - header.contentStart
        case .unrepresentable: return false
        }
    }

    public static func spansExactlyOneElement(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { spansExactlyOneElement($0, from: 0, to: $0.count) }
    }
}
