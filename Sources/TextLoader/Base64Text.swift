import ByteText
import ASN1Lenient

/// A strict base64 decoder for text pasted from logs, terminals and JSON.
///
/// Whitespace anywhere is ignored; both the standard (`+/`) and URL-safe (`-_`) alphabets are
/// accepted; padding is optional. Anything else is an error that names the character and its exact
/// position — never silently dropped, because a dropped character shifts every following byte
/// and turns a copy-paste accident into a baffling parse error far away.
public enum Base64Text {
    public struct Failure: Error, Sendable, Equatable {
        /// Offset in the text of the offending byte (or of the end of the text).
        public var offset: Int
        /// What went wrong, without position: "unexpected character '#'".
        public var problem: String
    }

    public struct Decoded: Sendable, Equatable {
        public var bytes: [UInt8]
        /// Number of base64 characters, padding included, whitespace excluded.
        public var characters: Int
        /// True when `-` or `_` (the URL-safe alphabet) appeared.
        public var urlSafe: Bool
    }

    static let invalid: UInt8 = 0xFF
    static let space: UInt8 = 0xFE
    static let pad: UInt8 = 0xFD

    static let table: [UInt8] = {
        var t = [UInt8](repeating: invalid, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            t[Int(c)] = UInt8(i)
        }
        t[Int(UInt8(ascii: "-"))] = 62
        t[Int(UInt8(ascii: "_"))] = 63
        for c in [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C] { t[c] = space }
        t[Int(UInt8(ascii: "="))] = pad
        return t
    }()

    /// `table` for the standard alphabet only: `-`, `_`, `=` and whitespace map to 64 or more, so
    /// that a group of four holding one of them is left to the byte-by-byte path, which handles it.
    static let standardTable: [UInt8] = {
        var t = table
        t[Int(UInt8(ascii: "-"))] = invalid
        t[Int(UInt8(ascii: "_"))] = invalid
        return t
    }()

    @inline(__always)
    static func isBase64OrSpace(_ b: UInt8) -> Bool { table[Int(b)] != invalid }

    /// Decodes `text[range]`. Offsets in a failure are offsets into `text`.
    public static func decode(_ text: [UInt8], range: Range<Int>? = nil) -> Result<Decoded, Failure> {
        let range = range ?? 0..<text.count
        var out: [UInt8]
        var quad: UInt32 = 0
        var position = 0  // characters in the current group of four
        var characters = 0
        var padding = 0
        var urlSafe = false
        // The common case first: alphabet characters and whitespace, read through raw pointers (a
        // batch of receipts spent more time here than in parsing them). It stops at the first other
        // byte ('=' or an error), and the checked loop below takes over from there with the same state.
        precondition(range.lowerBound >= 0 && range.upperBound <= text.count, "range outside the text")
        var resume = range.lowerBound
        out = [UInt8](unsafeUninitializedCapacity: range.count / 4 * 3 + 3) { buffer, written in
            text.withUnsafeBufferPointer { chars in
                table.withUnsafeBufferPointer { table in
                  standardTable.withUnsafeBufferPointer { standard in
                    var i = range.lowerBound
                    var n = 0
                    let end = range.upperBound
                    // From the start, eight standard characters (two groups) per step while there
                    // are only such characters: all of a receipt on one line but its padding.
                    while end - i >= 8 {
                        let a = UInt32(standard[Int(chars[i])]), b = UInt32(standard[Int(chars[i + 1])])
                        let c = UInt32(standard[Int(chars[i + 2])]), d = UInt32(standard[Int(chars[i + 3])])
                        let e = UInt32(standard[Int(chars[i + 4])]), f = UInt32(standard[Int(chars[i + 5])])
                        let g = UInt32(standard[Int(chars[i + 6])]), h = UInt32(standard[Int(chars[i + 7])])
                        guard a | b | c | d | e | f | g | h < 64 else { break }
                        let first = a << 18 | b << 12 | c << 6 | d, second = e << 18 | f << 12 | g << 6 | h
                        buffer[n] = UInt8(truncatingIfNeeded: first >> 16)
                        buffer[n + 1] = UInt8(truncatingIfNeeded: first >> 8)
                        buffer[n + 2] = UInt8(truncatingIfNeeded: first)
                        buffer[n + 3] = UInt8(truncatingIfNeeded: second >> 16)
                        buffer[n + 4] = UInt8(truncatingIfNeeded: second >> 8)
                        buffer[n + 5] = UInt8(truncatingIfNeeded: second)
                        n += 6
                        i += 8
                    }
                    characters = i - range.lowerBound
                    while i < end {
                        // A whole group of four standard characters at once (almost every group of
                        // a receipt); any other group goes through the byte-by-byte step below.
                        if position == 0 && end - i >= 4 {
                            let a = standard[Int(chars[i])], b = standard[Int(chars[i + 1])]
                            let c = standard[Int(chars[i + 2])], d = standard[Int(chars[i + 3])]
                            if a | b | c | d < 64 {
                                let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                                buffer[n] = UInt8(truncatingIfNeeded: group >> 16)
                                buffer[n + 1] = UInt8(truncatingIfNeeded: group >> 8)
                                buffer[n + 2] = UInt8(truncatingIfNeeded: group)
                                n += 3
                                i += 4
                                characters += 4
                                continue
                            }
                        }
                        let b = chars[i]
                        let v = table[Int(b)]
                        if v >= 64 {
                            if v == space { i += 1; continue }
                            break
                        }
                        if b == 0x2D || b == 0x5F { urlSafe = true }
                        characters += 1
                        quad = (quad << 6) | UInt32(v)
                        position += 1
                        if position == 4 {
                            buffer[n] = UInt8(truncatingIfNeeded: quad >> 16)
                            buffer[n + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                            buffer[n + 2] = UInt8(truncatingIfNeeded: quad)
                            n += 3
                            quad = 0
                            position = 0
                        }
                        i += 1
                    }
                    resume = i
                    written = n
                  }
                }
            }
        }
        for i in resume..<range.upperBound {
            let b = text[i]
            let v = table[Int(b)]
            if v == space { continue }
            if v == invalid {
                return .failure(Failure(offset: i, problem: "unexpected \(CharacterName.at(text, i))"))
            }
            characters += 1
            if v == pad {
                if position < 2 && padding == 0 {
                    return .failure(Failure(offset: i, problem: "unexpected '=' padding after \(position) character(s) of a group of four"))
                }
                padding += 1
                if position + padding > 4 {
                    return .failure(Failure(offset: i, problem: "too much '=' padding (the group of four is already complete)"))
                }
                continue
            }
            if padding > 0 {
                return .failure(Failure(offset: i, problem: "unexpected \(CharacterName.at(text, i)) after the '=' padding"))
            }
            if b == UInt8(ascii: "-") || b == UInt8(ascii: "_") { urlSafe = true }
            quad = (quad << 6) | UInt32(v)
            position += 1
            if position == 4 {
                out.append(UInt8(truncatingIfNeeded: quad >> 16))
                out.append(UInt8(truncatingIfNeeded: quad >> 8))
                out.append(UInt8(truncatingIfNeeded: quad))
                quad = 0
                position = 0
            }
        }
        switch position {
        case 0: break
        case 1:
            return .failure(Failure(offset: range.upperBound, problem: "the text ends with an incomplete group: 1 character cannot encode a byte"))
        case 2:
            out.append(UInt8(truncatingIfNeeded: quad >> 4))
        default:
            out.append(UInt8(truncatingIfNeeded: quad >> 10))
            out.append(UInt8(truncatingIfNeeded: quad >> 2))
        }
        if characters == 0 {
            return .failure(Failure(offset: range.upperBound, problem: "no base64 characters"))
        }
        return .success(Decoded(bytes: out, characters: characters, urlSafe: urlSafe))
    }

    /// 1-based line and column (in bytes) of `offset` in `text`.
    public static func lineAndColumn(_ text: [UInt8], offset: Int) -> (line: Int, column: Int) {
        let start = 0
        var line = 1
        var lineStart = start
        var i = start
        while i < offset && i < text.count {
            if text[i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, offset - lineStart + 1)
    }

    /// The one-line message for a failure: "base64: unexpected character '#' at text offset 1,234
    /// (line 12, column 5)". Offsets, lines and columns are counted in `text` (0-based offset,
    /// 1-based line and column).
    public static func message(_ failure: Failure, text: [UInt8]) -> String {
        let (line, column) = lineAndColumn(text, offset: failure.offset)
        return "base64: \(failure.problem) at text offset \(NumberText.grouped(failure.offset)) (line \(NumberText.grouped(line)), column \(NumberText.grouped(column)))"
    }
}
