/// How a message names one unexpected character of the input, safe for a terminal as it is:
/// "character '#'", "character U+00E9 'é'", "character U+202E" (shown by code only, it must not
/// reach a terminal), "byte 0x0A", "byte 0xC3 (not UTF-8)". Messages are escaped again when written,
/// so naming a control byte in words keeps a `\` out of them (a `\x0A` would print as `\\x0A`).
public enum CharacterName {
    public static func at<C: Collection>(_ bytes: C, _ i: Int) -> String where C.Element == UInt8, C.Index == Int {
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        if b < 0x80 { return "byte 0x\(Hex.byte(b, .upper))" }
        let (scalar, _) = UTF8Text.decode(bytes, at: i)
        guard let scalar else { return "byte 0x\(Hex.byte(b, .upper)) (not UTF-8)" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if TerminalSafe.mustEscape(scalar) { return "character \(code)" }
        return "character \(code) '\(Character(scalar))'"
    }
}
