/// Makes text from an input file safe to show on a terminal.
///
/// A receipt is attacker-controlled: a UTF8String can hold `ESC [ 2 J`, a BEL, a carriage return
/// that rewrites the line, or a right-to-left override that makes `gpj.exe` read as `exe.jpg`.
/// Every string that comes from the input goes through this one function before it reaches a
/// screen, in every output format and in the terminal UI.
///
/// - C0 controls, DEL and C1 controls become `\xNN` (`\n`, `\r`, `\t` keep their short forms).
/// - Invisible format characters (general category Cf: zero-width spaces and joiners, bidi
///   embeddings, overrides and isolates, the byte-order mark, …) and the line/paragraph separators
///   U+2028/U+2029 become `\u{XXXX}`.
/// - A backslash becomes `\\`, so an escape in the output always means an escaped character and
///   never text that happened to look like one.
public enum TerminalSafe {
    /// True for a scalar that must never be written to a terminal as it is.
    @inline(__always)
    public static func mustEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v <= 0x9F) { return true }
        if v < 0xA0 { return false }
        // The only format character of Latin-1 Supplement (the rest are letters, symbols, a space).
        if v <= 0xFF { return v == 0xAD }
        switch scalar.properties.generalCategory {
        case .format, .lineSeparator, .paragraphSeparator, .control, .surrogate: return true
        default: return false
        }
    }

    /// The escaped form of `text`. ASCII text without controls or backslashes is returned as is.
    public static func escape(_ text: String) -> String { escape(text, quote: nil) }

    /// `escape` for text shown inside double quotes: the result is quoted and a `"` becomes `\"`.
    public static func quoted(_ text: String) -> String { "\"" + escape(text, quote: "\"") + "\"" }

    static func escape(_ text: String, quote: Unicode.Scalar?) -> String {
        var fast = true
        for b in text.utf8 where b < 0x20 || b >= 0x7F || b == 0x5C || b == 0x22 {
            fast = false
            break
        }
        if fast { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == quote {
                out.unicodeScalars.append("\\")
                out.unicodeScalars.append(scalar)
            } else if mustEscape(scalar) {
                out += escapeSequence(scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Appends the UTF-8 bytes of `bytes`, escaped, to `out`: valid UTF-8 is decoded and each
    /// scalar escaped as `escape` does; a byte that is not part of valid UTF-8 becomes `\xNN`.
    /// Used by the streaming writers, which never build a `String` for a value.
    public static func appendEscaped<C: Collection>(_ bytes: C, to out: inout [UInt8], quote: UInt8? = nil)
    where C.Element == UInt8, C.Index == Int {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let b = bytes[i]
            if b >= 0x20 && b < 0x7F {
                if b == 0x5C || b == quote { out.append(0x5C) }
                out.append(b)
                i += 1
                continue
            }
            if b < 0x80 {
                appendSequence(UInt32(b), to: &out)
                i += 1
                continue
            }
            let (scalar, length) = UTF8Text.decode(bytes, at: i)
            if let scalar {
                if mustEscape(scalar) {
                    appendSequence(scalar.value, to: &out)
                } else {
                    for k in 0..<length { out.append(bytes[i + k]) }
                }
                i += length
            } else {
                appendHexEscape(b, to: &out)
                i += 1
            }
        }
    }

    static func escapeSequence(_ value: UInt32) -> String {
        var bytes: [UInt8] = []
        appendSequence(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func appendSequence(_ value: UInt32, to out: inout [UInt8]) {
        switch value {
        case 0x0A: out.append(contentsOf: [0x5C, 0x6E])  // \n
        case 0x0D: out.append(contentsOf: [0x5C, 0x72])  // \r
        case 0x09: out.append(contentsOf: [0x5C, 0x74])  // \t
        case 0..<0xA0: appendHexEscape(UInt8(value), to: &out)
        default:
            out.append(contentsOf: [0x5C, 0x75, 0x7B])  // \u{
            var digits: [UInt8] = []
            var v = value
            repeat {
                digits.append(Hex.upperDigits[Int(v & 0xF)])
                v >>= 4
            } while v > 0
            while digits.count < 4 { digits.append(0x30) }
            out.append(contentsOf: digits.reversed())
            out.append(0x7D)
        }
    }

    static func appendHexEscape(_ b: UInt8, to out: inout [UInt8]) {
        out.append(0x5C)
        out.append(0x78)
        Hex.append(b, to: &out, .lower)
    }

}
