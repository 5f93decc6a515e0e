import ASN1Lenient

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

    static func decode(_ text: ArraySlice<UInt8>, alphabet: Alphabet) -> Result {
        if let bytes = decodeClean(text, table: alphabet == .url ? urlTable : standardTable) {
            return Result(bytes: bytes, diagnostics: [])
        }
        return decodeReporting(text, alphabet: alphabet)
    }

    /// The bytes of `text` when it has nothing to report: every character in the alphabet, no
    /// padding, no lone last character, zero unused bits. Four characters at a time into an
    /// exactly sized buffer (per character, the reporting loop was a tenth of a history's decode);
    /// nil sends the text to `decodeReporting`, which gives the same bytes with diagnostics.
    static func decodeClean(_ text: ArraySlice<UInt8>, table: [UInt8]) -> [UInt8]? {
        let count = text.count
        let tail = count % 4
        guard tail != 1 else { return nil }
        let outputCount = count / 4 * 3 + (tail == 0 ? 0 : tail - 1)
        var clean = true
        let bytes = [UInt8](unsafeUninitializedCapacity: outputCount) { out, initialized in
            text.withUnsafeBufferPointer { input in
                table.withUnsafeBufferPointer { sextets in
                    var invalid: UInt8 = 0
                    var i = 0, o = 0
                    while i + 4 <= count {
                        let a = sextets[Int(input[i])], b = sextets[Int(input[i + 1])]
                        let c = sextets[Int(input[i + 2])], d = sextets[Int(input[i + 3])]
                        invalid |= a | b | c | d  // 0xFF marks a character outside the alphabet
                        let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                        out[o] = UInt8(truncatingIfNeeded: group >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: group)
                        i += 4
                        o += 3
                    }
                    if tail >= 2 {
                        let a = sextets[Int(input[i])], b = sextets[Int(input[i + 1])]
                        let c = tail == 3 ? sextets[Int(input[i + 2])] : 0
                        invalid |= a | b | c
                        let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
                        out[o] = UInt8(truncatingIfNeeded: group >> 16)
                        if tail == 3 { out[o + 1] = UInt8(truncatingIfNeeded: group >> 8) }
                        // Unused bits: the low 4 of b (two characters) or the low 2 of c (three).
                        if (tail == 2 ? b & 0x0F : c & 0x03) != 0 { clean = false }
                    }
                    // Sextets are < 64: only a 0xFF entry sets bit 6 or 7 of the OR.
                    if invalid & 0xC0 != 0 { clean = false }
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
