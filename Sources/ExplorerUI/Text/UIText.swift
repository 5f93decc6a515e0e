import ASN1Lenient
import ByteText

/// Text safety for the grid: every string that comes from the input passes through here before it
/// reaches a cell, so the adapter can copy cells to the terminal verbatim.
///
/// Width policy (the simplest correct choice): a cell holds exactly one terminal column. Only
/// scalars that are printable *and* known to be one column wide are kept as they are (an allowlist:
/// ASCII, Latin-1, Latin Extended, IPA, Greek, Cyrillic, Latin Extended Additional, general
/// punctuation and currency signs). Everything else, including wide CJK and emoji, combining marks,
/// every C0/C1 control, DEL, bidi overrides and other format characters, is written out as an
/// escape (`\x1b`, `\u{202E}`, `\u{4E2D}`), so columns never misalign and nothing is hidden.
public enum UIText {
    /// Escapes text decoded from the input: `TerminalSafe.escape` (controls, DEL, C1, bidi and other
    /// format characters; a backslash is doubled so the input cannot forge an escape), then anything
    /// still not one column wide (CJK, emoji, combining marks) as `\u{XXXX}`.
    public static func escape(_ text: String) -> String {
        // Printable ASCII without a backslash comes out of both steps as it is (quotes included,
        // which `TerminalSafe.escape` copies scalar by scalar): most JSON values an outline shows.
        func isPlain(_ b: UInt8) -> Bool { b >= 0x20 && b <= 0x7E && b != 0x5C }
        let plain = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPlain) } ?? text.utf8.allSatisfy(isPlain)
        if plain { return text }
        return guardDisplay(TerminalSafe.escape(text))
    }

    /// Escapes raw bytes that should be UTF-8: valid sequences are decoded (then escaped as above),
    /// each byte of an invalid sequence is shown as `\xNN`.
    public static func escape(utf8 bytes: some Collection<UInt8>) -> String {
        guardDisplay(TerminalSafe.escape(utf8: bytes))
    }

    /// Guards text that is already meant for display (our own strings, or text another module
    /// escaped already): unsafe scalars are escaped, backslashes are left alone. Idempotent.
    public static func guardDisplay(_ text: String) -> String {
        var clean = true
        for scalar in text.unicodeScalars where !isCellSafe(scalar) && !isChrome(scalar) {
            clean = false
            break
        }
        if clean { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if isCellSafe(scalar) || isChrome(scalar) { out.unicodeScalars.append(scalar) } else { appendEscape(scalar, to: &out) }
        }
        return out
    }

    /// Text ready for cells: `guardDisplay`, and with `ascii` (`--ascii`, `TERM=dumb`, a non-UTF-8
    /// locale) nothing but ASCII: the renderer's own symbols get ASCII spellings (`→` as `->`,
    /// `…` as `...`, `·` as `|`) and any other non-ASCII scalar is written as `\u{XXXX}`.
    public static func display(_ text: String, ascii: Bool) -> String {
        guard ascii else { return guardDisplay(text) }
        var plain = true
        for b in text.utf8 where b < 0x20 || b > 0x7E { plain = false; break }
        if plain { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v >= 0x20 && v < 0x7F {
                out.unicodeScalars.append(scalar)
            } else if let folded = asciiFold[scalar] {
                out += folded
            } else {
                appendEscape(scalar, to: &out)
            }
        }
        return out
    }

    /// ASCII spellings of the symbols our own text uses.
    static let asciiFold: [Unicode.Scalar: String] = [
        "→": "->", "←": "<-", "↑": "^", "↓": "v", "…": "...", "·": "|", "–": "-", "—": "-", "‖": "||",
        "’": "'", "‘": "'", "“": "\"", "”": "\"", "×": "x", "≤": "<=", "≥": ">=", "›": ">", "✓": "ok",
        "✗": "FAIL", "⚠": "!", "▸": "+", "▾": "-", "▲": "^", "▼": "v", "│": "|", "─": "-", "≠": "!=", "∞": "inf",
    ]

    /// The single-cell ASCII stand-in for a scalar (the renderer's last pass in ASCII mode).
    static func asciiCell(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return scalar }
        if let folded = asciiFold[scalar], folded.unicodeScalars.count == 1 { return folded.unicodeScalars.first! }
        switch scalar.value {
        case 0x2500...0x257F: return "+"
        default: return "?"
        }
    }

    static func appendEscape(_ scalar: Unicode.Scalar, to out: inout String) {
        let v = scalar.value
        if v < 0x80 {
            out += "\\x" + hex2(UInt8(v))
        } else {
            let digits = String(v, radix: 16, uppercase: true)
            out += "\\u{" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "}"
        }
    }

    static func hex2(_ b: UInt8) -> String {
        let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }

    /// Printable and exactly one column wide (see the type's documentation for the ranges).
    @inline(__always)
    public static func isCellSafe(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return true }
        if v < 0xA0 { return false }                          // C0, DEL, C1
        if v <= 0xFF { return v != 0xAD }                      // Latin-1 minus soft hyphen
        if v < 0x0300 { return true }                          // Latin Extended-A/B, IPA, modifiers
        if v < 0x0370 { return false }                         // combining diacritics
        if v <= 0x0482 { return true }                         // Greek, Cyrillic
        if v < 0x048A { return false }                         // Cyrillic combining marks
        if v <= 0x052F { return true }
        if v >= 0x1E00 && v <= 0x1FFF { return true }          // Latin Ext. Additional, Greek Ext.
        if v >= 0x2010 && v <= 0x2027 { return true }          // dashes, quotes, bullets, ellipsis
        if v >= 0x2030 && v <= 0x205E { return true }          // per mille … (no format characters)
        if v >= 0x20A0 && v <= 0x20BF { return true }          // currency signs
        return false
    }

    /// The renderer's own one-column drawing characters (box drawing, arrows, marks). They never
    /// come from the input, but `guardDisplay` must let them through.
    @inline(__always)
    static func isChrome(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v >= 0x2500 && v <= 0x257F) || (v >= 0x2190 && v <= 0x21FF) || (v >= 0x25A0 && v <= 0x25FF)
            || v == 0x2713 || v == 0x2717 || v == 0x203A || v == 0x2026 || v == 0x221E
            || v == 0x26A0  // ⚠ (one column: no emoji presentation), "not delivered" beside a notification
    }

    /// True when every scalar of the string may sit in a cell (used by tests over whole grids).
    public static func isDisplaySafe(_ scalar: Unicode.Scalar) -> Bool { isCellSafe(scalar) || isChrome(scalar) }

    /// Truncates to `width` columns (one scalar = one column after escaping), ending in `…`.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        let scalars = text.unicodeScalars
        if scalars.count <= width { return text }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars.prefix(width - 1))
        out.append("…")
        return String(out)
    }

    /// Where to cut `scalars` to keep at most `budget` of them without splitting a name: after the
    /// last space or separator (`-` `.` `_` `:` `,` `/` `=` `(` `·`) that fits, so a cut name ends at
    /// one of its own parts. A value may be cut anywhere: a run of hex or decimal digits ("0498E92F…")
    /// a run longer than any name (base64, a long identifier), or the first word of a quoted string.
    /// When nothing fits, 0: the whole
    /// first name is left out rather than shown in part.
    public static func boundaryCut(_ scalars: [Unicode.Scalar], within budget: Int) -> Int {
        guard budget < scalars.count else { return scalars.count }
        guard budget > 0 else { return 0 }
        func isBoundary(_ s: Unicode.Scalar) -> Bool { s == " " || "-._:,/=(·".unicodeScalars.contains(s) }
        var k = budget
        while k > 0 && !isBoundary(scalars[k - 1]) { k -= 1 }
        // The word being cut: from k to the next boundary.
        var end = budget
        while end < scalars.count && !isBoundary(scalars[end]) { end += 1 }
        // A quoted string's first word is a value too (`"receipt-explorer TEST …` may read `"rece…`).
        if end - k > longestName || scalars[k] == "\"" { return budget }
        var digit = false
        for s in scalars[k..<end] {
            if ("0"..."9").contains(s) { digit = true } else if !(("a"..."f").contains(s) || ("A"..."F").contains(s) || s == "x") { return k }
        }
        return digit ? budget : k
    }

    /// Longer runs without a boundary are values (base64, hex), not names.
    static let longestName = 32

    /// Pads (or truncates) to exactly `width` columns.
    public static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let n = text.unicodeScalars.count
        if n >= width { return fit(text, width) }
        let spaces = String(repeating: " ", count: width - n)
        return right ? spaces + text : text + spaces
    }
}
