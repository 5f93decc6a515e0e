/// The one hexadecimal writer and reader: dumps, diagnostics, fingerprints, JSON, the explorer's
/// panes. Which letters a place prints (`3A` or `3a`) is part of its output format, so every call
/// says which.
public enum Hex {
    public enum Letters: Sendable { case upper, lower }

    public static let upperDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
    public static let lowerDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inlinable
    public static func digits(_ letters: Letters) -> [UInt8] { letters == .upper ? upperDigits : lowerDigits }

    /// Two digits for each byte, `separator` between bytes: `3082`, `30 82`, `30:82`.
    public static func string<Bytes: Sequence>(_ bytes: Bytes, _ letters: Letters, separator: String = "") -> String
    where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * (2 + separator.utf8.count))
        let digits = digits(letters)
        var first = true
        for b in bytes {
            if !first { out += separator.utf8 }
            first = false
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `0A`, `0a`.
    public static func byte(_ b: UInt8, _ letters: Letters) -> String { string(CollectionOfOne(b), letters) }

    /// Appends two digits for `b` to a byte buffer.
    @inlinable
    public static func append(_ b: UInt8, to out: inout [UInt8], _ letters: Letters) {
        let digits = digits(letters)
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 0xF)])
    }

    /// The value of one hex digit (either case), or nil.
    @inlinable
    public static func value(ofDigit c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x41 + 10
        case 0x61...0x66: c - 0x61 + 10
        default: nil
        }
    }

    /// The bytes an even number of hex digits (either case, no separators) spell, or nil.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            guard let high = value(ofDigit: digits[i]), let low = value(ofDigit: digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }
}
