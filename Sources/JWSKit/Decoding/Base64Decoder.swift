import ASN1Lenient
import ByteText

/// Base64 with exact positions: JWS segments are base64url without padding, `x5c` entries are
/// standard base64 with optional padding. Every character position is kept: a bad character is
/// reported at its offset and decodes as zero bits, so `Base64Map` stays exact for the rest.
enum Base64Decoder {
    enum Alphabet {
        case url, standard
    }

    struct Result {
        var bytes: [UInt8]
        /// Offsets are positions in `text` (the caller shifts them into its layer).
        var diagnostics: [Diagnostic]
    }

    /// Sextet of each byte, 0xFF for a byte outside the alphabet (a table: the character switch
    /// was a third of decoding a transaction history).
    private static let urlTable = table(.url)
    private static let standardTable = table(.standard)

    private static func table(_ alphabet: Alphabet) -> [UInt8] {
        (0...255).map { sextet(UInt8($0), alphabet) ?? 0xFF }
    }

    /// Each character's sextet already in place for each position of a group of four (bits 18, 12,
    /// 6 and 0: entries 0-255, 256-511, 512-767, 768-1023), bit 31 for a character outside the
    /// alphabet: a group is four loads OR-ed together, with no shift, and one flag for the text.
    private static let urlPlaced = placed(urlTable)
    private static let standardPlaced = placed(standardTable)

    static func placed(_ alphabet: Alphabet) -> [UInt32] { alphabet == .url ? urlPlaced : standardPlaced }

    private static func placed(_ table: [UInt8]) -> [UInt32] {
        (0..<4).flatMap { position in
            table.map { $0 == 0xFF ? 0x8000_0000 : UInt32($0) << UInt32(18 - 6 * position) }
        }
    }

    /// `range` of a window, with diagnostics at window offsets (the window may sit inside a body).
    static func decode(_ window: ByteWindow, _ range: Range<Int>, alphabet: Alphabet) -> Result {
        var result = decode(window.baseSlice(range), alphabet: alphabet)
        if window.offset != 0 {
            for i in result.diagnostics.indices { result.diagnostics[i].offset -= window.offset }
        }
        return result
    }

    static func decode(_ text: ArraySlice<UInt8>, alphabet: Alphabet) -> Result {
        if let bytes = decodeClean(text, placed: placed(alphabet)) {
            return Result(bytes: bytes, diagnostics: [])
        }
        return decodeReporting(text, alphabet: alphabet)
    }

    /// The bytes of `text` when it has nothing to report: every character in the alphabet, no
    /// padding, no lone last character, zero unused bits. Two groups of four a step into an exactly
    /// sized buffer, written as one 8-byte store whose last two bytes the next step overwrites
    /// (per character, the reporting loop was a tenth of a history's decode, and three byte stores
    /// and the shifts a group a third of this one); nil sends the text to `decodeReporting`, which
    /// gives the same bytes with diagnostics.
    static func decodeClean(_ text: ArraySlice<UInt8>, placed: [UInt32]) -> [UInt8]? {
        let count = text.count
        let tail = count % 4
        guard tail != 1 else { return nil }
        let outputCount = count / 4 * 3 + (tail == 0 ? 0 : tail - 1)
        var clean = true
        let bytes = [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
            text.withUnsafeBufferPointer { input in
                placed.withUnsafeBufferPointer { p in
                    var invalid: UInt32 = 0
                    var i = 0, o = 0
                    @inline(__always) func group(_ i: Int) -> UInt32 {
                        p[Int(input[i])] | p[256 + Int(input[i + 1])] | p[512 + Int(input[i + 2])] | p[768 + Int(input[i + 3])]
                    }
                    // A full group follows the two, so the 8-byte store stays inside the buffer.
                    if let base = UnsafeMutableRawPointer(out.baseAddress) {
                        while i + 12 <= count {
                            let first = group(i), second = group(i + 4)
                            invalid |= first | second
                            base.storeBytes(of: (UInt64(first) << 40 | UInt64(second) << 16).bigEndian, toByteOffset: o, as: UInt64.self)
                            i += 8
                            o += 6
                        }
                    }
                    while i + 4 <= count {
                        let whole = group(i)
                        invalid |= whole
                        out[o] = UInt8(truncatingIfNeeded: whole >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: whole >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: whole)
                        i += 4
                        o += 3
                    }
                    if tail >= 2 {
                        let part = p[Int(input[i])] | p[256 + Int(input[i + 1])] | (tail == 3 ? p[512 + Int(input[i + 2])] : 0)
                        invalid |= part
                        out[o] = UInt8(truncatingIfNeeded: part >> 16)
                        if tail == 3 { out[o + 1] = UInt8(truncatingIfNeeded: part >> 8) }
                        // Unused bits: the low 4 of the second sextet (bits 12-15) with two characters,
                        // the low 2 of the third (bits 6-7) with three.
                        if part & (tail == 2 ? 0xF000 : 0xC0) != 0 { clean = false }
                    }
                    if invalid & 0x8000_0000 != 0 { clean = false }
                }
            }
            initialized = outputCount
        }
        return clean ? bytes : nil
    }

    static func decodeReporting(_ text: ArraySlice<UInt8>, alphabet: Alphabet) -> Result {
        var diagnostics: [Diagnostic] = []
        var accumulator: UInt32 = 0
        var bits = 0
        var paddingStart: Int?
        let table = alphabet == .url ? urlTable : standardTable
        let base = text.startIndex
        let bytes = [UInt8](unsafeUninitializedCapacity: text.count * 3 / 4 + 1) { out, count in
            var n = 0
            text.withUnsafeBufferPointer { input in
                table.withUnsafeBufferPointer { sextets in
                    for k in 0..<input.count {
                        let c = input[k]
                        if c == UInt8(ascii: "=") {
                            if paddingStart == nil { paddingStart = base + k }
                            continue
                        }
                        var value = sextets[Int(c)]
                        if value == 0xFF || paddingStart != nil {
                            diagnostics.append(JWSCode.base64InvalidCharacter.diagnostic(
                                invalidMessage(c, alphabet, afterPadding: paddingStart != nil), (base + k)..<(base + k + 1)))
                            value = 0
                        }
                        accumulator = (accumulator << 6) | UInt32(value)
                        bits += 6
                        if bits >= 8 {
                            bits -= 8
                            out[n] = UInt8((accumulator >> UInt32(bits)) & 0xFF)
                            n += 1
                        }
                    }
                }
            }
            count = n
        }
        let dataEnd = paddingStart ?? text.endIndex
        let dataCount = dataEnd - text.startIndex
        if let paddingStart {
            if alphabet == .url {
                diagnostics.append(JWSCode.base64Padding.diagnostic(
                    "JWS segments are base64url without '=' padding (RFC 7515 §2)", paddingStart..<text.endIndex))
            } else if (dataCount + (text.endIndex - paddingStart)) % 4 != 0 {
                diagnostics.append(JWSCode.base64Padding.diagnostic(
                    "padding does not complete a 4-character group", paddingStart..<text.endIndex))
            }
        }
        if dataCount % 4 == 1 {
            diagnostics.append(JWSCode.base64Truncated.diagnostic(
                "one character left over: 6 bits cannot make a byte", (dataEnd - 1)..<dataEnd))
        } else if bits > 0, accumulator & ((1 << UInt32(bits)) - 1) != 0 {
            diagnostics.append(JWSCode.base64NonCanonical.diagnostic(
                "the last character carries nonzero unused bits (another encoder would write it differently)",
                (dataEnd - 1)..<dataEnd))
        }
        return Result(bytes: bytes, diagnostics: diagnostics)
    }

    static func sextet(_ c: UInt8, _ alphabet: Alphabet) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-") where alphabet == .url: 62
        case UInt8(ascii: "_") where alphabet == .url: 63
        case UInt8(ascii: "+") where alphabet == .standard: 62
        case UInt8(ascii: "/") where alphabet == .standard: 63
        default: nil
        }
    }

    static func invalidMessage(_ c: UInt8, _ alphabet: Alphabet, afterPadding: Bool) -> String {
        let shown = (0x21...0x7E).contains(c) ? "'\(Character(Unicode.Scalar(c)))'" : "byte \(c)"
        if afterPadding { return "\(shown) after '=' padding" }
        switch (alphabet, c) {
        case (.url, UInt8(ascii: "+")), (.url, UInt8(ascii: "/")):
            return "\(shown) is standard base64; base64url uses '-' and '_'"
        case (.standard, UInt8(ascii: "-")), (.standard, UInt8(ascii: "_")):
            return "\(shown) is base64url; x5c holds standard base64 ('+' and '/')"
        default:
            return "\(shown) is not a \(alphabet == .url ? "base64url" : "base64") character"
        }
    }
}
