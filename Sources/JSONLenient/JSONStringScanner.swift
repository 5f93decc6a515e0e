import ASN1Lenient
import ByteText

/// Reads one JSON string starting at its opening quote: decodes escapes (surrogate pairs included)
/// and validates UTF-8, recording a diagnostic with the exact bytes of every defect. Invalid input
/// decodes to U+FFFD so that the rest of the string stays readable.
struct JSONStringScanner {
    let bytes: [UInt8]
    let start: Int
    /// Only `JSONTree.sourceOffsets(ofString:)` needs the per-byte offsets; parsing skips them.
    var recordsOffsets = false

    struct Result {
        var value: [UInt8] = []
        /// Input offset of each byte of `value`.
        var sourceOffsets: [Int] = []
        var end: Int = 0
        var diagnostics: [Diagnostic] = []
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    mutating func scan() -> Result {
        var r = Result()
        var pos = start + 1
        let n = bytes.count
        while pos < n {
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") {
                r.end = pos + 1
                return r
            } else if c == UInt8(ascii: "\\") {
                pos = escape(at: pos, into: &r)
            } else if c < 0x20 {
                report(&r, .controlCharacter, "control character 0x\(Hex.byte(c, .upper)) must be escaped in a string", pos, 1)
                append(&r, [c], from: pos)
                pos += 1
            } else if c < 0x80 {
                // A run of plain ASCII is copied at once (one array per byte was the JSON reader's
                // main cost on token-heavy input); each byte keeps its own source offset.
                var end = pos + 1
                while end < n {
                    let d = bytes[end]
                    if d < 0x20 || d >= 0x80 || d == UInt8(ascii: "\"") || d == UInt8(ascii: "\\") { break }
                    end += 1
                }
                r.value.append(contentsOf: bytes[pos..<end])
                if recordsOffsets { r.sourceOffsets.append(contentsOf: pos..<end) }
                pos = end
            } else {
                let length = UTF8Text.sequenceLength(bytes, at: pos, end: n)
                if length > 0 {
                    append(&r, Array(bytes[pos..<pos + length]), from: pos)
                    pos += length
                } else {
                    let bad = Self.invalidRunLength(bytes, at: pos)
                    report(&r, .invalidUTF8, "invalid UTF-8 in a string", pos, bad)
                    append(&r, Self.replacement, from: pos)
                    pos += bad
                }
            }
        }
        report(&r, .unterminatedString, "string is not closed by a quote", start, n - start)
        r.end = n
        return r
    }

    private func append(_ r: inout Result, _ value: [UInt8], from offset: Int) {
        r.value += value
        if recordsOffsets { r.sourceOffsets += repeatElement(offset, count: value.count) }
    }

    private func report(_ r: inout Result, _ code: JSONCode, _ message: String, _ offset: Int, _ length: Int) {
        r.diagnostics.append(code.diagnostic(message, offset..<(offset + length)))
    }

    /// Handles the escape at `pos` (a backslash); returns the offset after it.
    private func escape(at pos: Int, into r: inout Result) -> Int {
        guard pos + 1 < bytes.count else {
            report(&r, .invalidEscape, "backslash at the end of the input", pos, 1)
            return pos + 1
        }
        let simple: UInt8? = switch bytes[pos + 1] {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
        if let simple {
            append(&r, [simple], from: pos)
            return pos + 2
        }
        guard bytes[pos + 1] == UInt8(ascii: "u") else {
            report(&r, .invalidEscape, "unknown escape; JSON allows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", pos, 2)
            append(&r, Self.replacement, from: pos)
            return pos + 2
        }
        guard let unit = hex4(at: pos + 2) else {
            let length = min(6, bytes.count - pos)
            report(&r, .invalidEscape, "\\u must be followed by four hexadecimal digits", pos, length)
            append(&r, Self.replacement, from: pos)
            return pos + 2
        }
        var scalar = unit
        var end = pos + 6
        if (0xD800...0xDBFF).contains(unit) {
            if end + 1 < bytes.count, bytes[end] == UInt8(ascii: "\\"), bytes[end + 1] == UInt8(ascii: "u"),
               let low = hex4(at: end + 2), (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                end += 6
            } else {
                report(&r, .loneSurrogate, "high surrogate \\u\(hex16(unit)) not followed by a low surrogate", pos, 6)
                append(&r, Self.replacement, from: pos)
                return end
            }
        } else if (0xDC00...0xDFFF).contains(unit) {
            report(&r, .loneSurrogate, "low surrogate \\u\(hex16(unit)) without a high surrogate before it", pos, 6)
            append(&r, Self.replacement, from: pos)
            return end
        }
        append(&r, Array(String(Character(Unicode.Scalar(scalar)!)).utf8), from: pos)
        return end
    }

    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for b in bytes[offset..<offset + 4] {
            guard let digit = Hex.value(ofDigit: b) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The bad lead byte and any continuation bytes right after it: one diagnostic per defect.
    static func invalidRunLength(_ bytes: [UInt8], at pos: Int) -> Int {
        var end = pos + 1
        while end < bytes.count, end - pos < 4, (0x80...0xBF).contains(bytes[end]) { end += 1 }
        return end - pos
    }
}

private func hex16(_ value: UInt32) -> String {
    Hex.string([UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)], .upper)
}
