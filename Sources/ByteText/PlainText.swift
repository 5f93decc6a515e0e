/// The few `String` methods the tool took from full Foundation (`trimmingCharacters(in:)`,
/// `caseInsensitiveCompare`, `padding(toLength:withPad:startingAt:)`), which FoundationEssentials does
/// not have, with the same answers for the text the tool gives them.
public enum PlainText {
    /// `CharacterSet.whitespaces` as swift-foundation defines it: the tab, the space separators
    /// (Zs) and U+200B ZERO WIDTH SPACE.
    public static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// `CharacterSet.whitespacesAndNewlines`: those and U+000A–U+000D, U+0085, U+2028, U+2029.
    public static func isWhitespaceOrNewline(_ c: Unicode.Scalar) -> Bool {
        isWhitespace(c) || (0x0A...0x0D).contains(c.value) || c.value == 0x85 || c.value == 0x2028 || c.value == 0x2029
    }

    /// `text.trimmingCharacters(in: .whitespaces)`.
    public static func trimmingWhitespace(_ text: String) -> String { trimming(text, isWhitespace) }

    /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`.
    public static func trimmingWhitespaceAndNewlines(_ text: String) -> String { trimming(text, isWhitespaceOrNewline) }

    static func trimming(_ text: String, _ trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }),
              let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// `a.caseInsensitiveCompare(b) == .orderedSame`, by full case folding's usual approximation
    /// (upper then lower case: "ß" matches "ss", "ſ" matches "s").
    public static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.uppercased().lowercased() == b.uppercased().lowercased()
    }

    /// `String(format: "%0*d")` (or `%0*x` with radix 16): the digits, zero-padded to `width`.
    public static func zeroPadded(_ value: Int, width: Int, radix: Int = 10) -> String {
        let digits = String(value.magnitude, radix: radix)
        let sign = value < 0 ? "-" : ""
        let zeros = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: zeros) + digits
    }

    /// `text.padding(toLength: length, withPad: " ", startingAt: 0)`: spaces up to `length` UTF-16
    /// units, or the text cut to that many.
    public static func padded(_ text: String, toLength length: Int) -> String {
        let units = text.utf16.count
        if units >= length { return String(decoding: Array(text.utf16.prefix(length)), as: UTF16.self) }
        return text + String(repeating: " ", count: length - units)
    }
}
