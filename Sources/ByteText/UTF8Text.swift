/// The one UTF-8 validator (RFC 3629: no overlongs, no encoded surrogates, nothing past U+10FFFF),
/// for ASN.1 UTF8Strings, JSON strings, terminal-safe escaping and the loader's messages.
public enum UTF8Text {
    /// The length (2–4) of the valid multi-byte sequence that starts at `i` and ends before `end`,
    /// or 0 when the bytes there do not start one (an ASCII byte included: callers handle ASCII first).
    @inlinable
    public static func sequenceLength<Bytes: Collection>(_ bytes: Bytes, at i: Int, end: Int) -> Int
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let length: Int
        var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF
        switch bytes[i] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowest = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; highest = 0x9F  // no encoded surrogates
        case 0xF0: length = 4; lowest = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; highest = 0x8F  // nothing past U+10FFFF
        default: return 0
        }
        guard i + length <= end else { return 0 }
        let second = bytes[i + 1]
        guard second >= lowest && second <= highest else { return 0 }
        var k = 2
        while k < length {
            guard bytes[i + k] & 0xC0 == 0x80 else { return 0 }
            k += 1
        }
        return length
    }

    /// Index of the first byte in `range` that breaks UTF-8, or nil when the range is valid.
    @inlinable
    public static func firstInvalid<Bytes: Collection>(_ bytes: Bytes, _ range: Range<Int>) -> Int?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] < 0x80 { i += 1; continue }
            let length = sequenceLength(bytes, at: i, end: range.upperBound)
            if length == 0 { return i }
            i += length
        }
        return nil
    }

    /// The text of `range` when it is valid UTF-8, else nil. `String(validating:as:)` does the same
    /// but needs macOS 15; the package's floor is macOS 13 (issue 35).
    @inlinable
    public static func string<Bytes: Collection>(_ bytes: Bytes, _ range: Range<Int>) -> String?
    where Bytes.Element == UInt8, Bytes.Index == Int {
        guard firstInvalid(bytes, range) == nil else { return nil }
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// Decodes one UTF-8 sequence at `i`: the scalar and its length, or nil (length 1) for a byte
    /// that does not start valid UTF-8.
    @inlinable
    public static func decode<Bytes: Collection>(_ bytes: Bytes, at i: Int) -> (Unicode.Scalar?, Int)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let lead = bytes[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = sequenceLength(bytes, at: i, end: bytes.endIndex)
        guard length > 0 else { return (nil, 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return (Unicode.Scalar(value), length)
    }
}
