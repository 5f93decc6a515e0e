import ASN1Lenient
import ByteText

/// The verifyReceipt request body's JSON reader: strict JSON (plus trailing commas) with the verdicts
/// and messages `JSONSerialization` gives on Linux, so that the loader's diagnostics did not change
/// when the tool stopped linking full Foundation (JSONSerialization is not in FoundationEssentials).
/// Positions are byte offsets, as JSONSerialization counts "characters". JSONLenient is the tool's
/// own, error-tolerant reader; it sits above this module, and it reports differently on purpose.
enum RequestBodyJSON {
    indirect enum Value {
        case string(Content)
        /// The number's text as written; `isZeroOrOne` is what a bridged NSNumber answers to `is Bool`.
        case number(String)
        case bool(Bool)
        case null
        case array([Value])
        case object([String: Value])
    }

    /// A string's content: where it is in the text when it is written as itself (no escapes), so
    /// that it is not copied (a 67 MB "receipt-data" was a `String` and its bytes beside its text;
    /// issue 32); else decoded.
    enum Content {
        case verbatim(Range<Int>)
        case decoded(String)
    }

    struct Failure: Error, Equatable {
        /// JSONSerialization's NSDebugDescription for the same input.
        let message: String
    }

    /// Only what the loader reads is kept: the top-level value, and for an object its members'
    /// keys and values, the values without their content (an array or object is returned empty).
    /// Everything is still read and checked; a deeper number that no NSNumber can hold is
    /// remembered. Keeping it all made a 5 MB `{"x":[0,0,…]}` take 160 MB (issue 32).
    static func parse(_ bytes: [UInt8]) throws(Failure) -> Value {
        var reader = Reader(bytes: bytes)
        let value = try reader.document()
        try checkNumbers(value)
        if let text = reader.unrepresentable { throw Failure(message: "Number \(text) is not representable in Swift.") }
        return value
    }

    /// JSONSerialization turns numbers into NSNumbers only after the whole text is read: a number
    /// that fits neither an integer nor a finite Double fails then, after any syntax error.
    private static func checkNumbers(_ value: Value) throws(Failure) {
        switch value {
        case .number(let text):
            guard isRepresentable(text) else { throw Failure(message: "Number \(text) is not representable in Swift.") }
        case .array(let values):
            for v in values { try checkNumbers(v) }
        case .object(let members):
            for v in members.values { try checkNumbers(v) }
        case .string, .bool, .null:
            break
        }
    }

    static func isRepresentable(_ text: String) -> Bool {
        if !text.contains(".") && !text.contains("e") && !text.contains("E") {
            if text.hasPrefix("-") ? Int64(text) != nil : UInt64(text) != nil { return true }
        }
        return Double(text)?.isFinite ?? false
    }

    /// A bridged NSNumber of 0 or 1 casts to Bool, so JSONSerialization's callers saw those as booleans.
    static func isZeroOrOne(_ text: String) -> Bool {
        guard let v = Double(text) else { return false }
        return v == 0 || v == 1
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0
        var depth = 0
        /// The first number not kept that no NSNumber can hold.
        var unrepresentable: String?

        static let maxDepth = 512

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

        func invalid(_ at: Int) -> Failure { Failure(message: "Invalid value around character \(at).") }
        var endOfFile: Failure { Failure(message: "Unexpected end of file during JSON parse.") }

        mutating func document() throws(Failure) -> Value {
            let value = try self.value(keep: true)
            while i < bytes.count {
                guard Self.isSpace(bytes[i]) else { throw invalid(i) }
                i += 1
            }
            return value
        }

        /// Skips white space and returns the next byte without taking it; the end is an error here.
        mutating func nextSignificant() throws(Failure) -> UInt8 {
            while i < bytes.count && Self.isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { throw endOfFile }
            return bytes[i]
        }

        /// The next value; unless `keep`, its content is checked and dropped (`parse`).
        mutating func value(keep: Bool) throws(Failure) -> Value {
            switch try nextSignificant() {
            case 0x22:
                let content = try stringContent()
                return .string(keep ? content : .decoded(""))
            case 0x7B: return try object(keep: keep)
            case 0x5B: return try array()
            case 0x74: try literal("true"); return .bool(true)
            case 0x66: try literal("false"); return .bool(false)
            case 0x6E: try literal("null"); return .null
            case 0x2D, 0x30...0x39:
                let text = try number()
                if !keep && unrepresentable == nil && !RequestBodyJSON.isRepresentable(text) { unrepresentable = text }
                return .number(text)
            default: throw invalid(i)
            }
        }

        mutating func enter() throws(Failure) {
            guard depth < Self.maxDepth else {
                throw Failure(message: "Too many nested arrays or dictionaries around character \(i + 1).")
            }
            depth += 1
            i += 1
        }

        mutating func array() throws(Failure) -> Value {
            try enter()
            defer { depth -= 1 }
            let values: [Value] = []
            if try nextSignificant() == 0x5D { i += 1; return .array(values) }
            while true {
                _ = try value(keep: false)
                let b = try nextSignificant()
                guard b == 0x2C || b == 0x5D else { throw invalid(i) }
                i += 1
                if b == 0x5D { return .array(values) }
                if try nextSignificant() == 0x5D { i += 1; return .array(values) }  // a trailing comma is accepted
            }
        }

        /// Members are kept only in the top-level object (`keep` there).
        mutating func object(keep: Bool) throws(Failure) -> Value {
            let keepMembers = keep && depth == 0
            try enter()
            defer { depth -= 1 }
            var members: [String: Value] = [:]
            if try nextSignificant() == 0x7D { i += 1; return .object(members) }
            while true {
                guard bytes[i] == 0x22 else { throw invalid(i) }
                let key = try string()
                guard try nextSignificant() == 0x3A else { throw invalid(i) }
                i += 1
                let value = try value(keep: keepMembers)
                if keepMembers { members[key] = value }  // a repeated key: the last one wins
                let b = try nextSignificant()
                guard b == 0x2C || b == 0x7D else { throw invalid(i) }
                i += 1
                if b == 0x7D { return .object(members) }
                if try nextSignificant() == 0x7D { i += 1; return .object(members) }
            }
        }

        /// A literal that breaks off: at its last byte JSONSerialization reports the end of the text.
        mutating func literal(_ word: StaticString) throws(Failure) {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for e in expected {
                guard i < bytes.count else { throw endOfFile }
                let b = bytes[i]
                i += 1
                if b != e { throw i >= bytes.count ? endOfFile : invalid(i - 1) }
            }
        }

        mutating func number() throws(Failure) -> String {
            enum Part { case integer, fraction, exponent, exponentSign }
            let start = i
            var part = Part.integer
            var digits = bytes[i] == 0x2D ? 0 : 1
            var leadingZero = bytes[i] == 0x30
            var k = i + 1
            while k < bytes.count {
                let b = bytes[k]
                switch b {
                case 0x30...0x39:
                    if leadingZero { throw Failure(message: "Number with leading zero around character \(k).") }
                    if b == 0x30 && digits == 0 && part == .integer { leadingZero = true }
                    digits += 1
                case 0x2E:
                    guard digits > 0, part == .integer else { throw invalid(k) }
                    part = .fraction; digits = 0; leadingZero = false
                case 0x65, 0x45:
                    guard digits > 0, part == .integer || part == .fraction else { throw invalid(k) }
                    part = .exponent; digits = 0; leadingZero = false
                case 0x2B, 0x2D:
                    guard digits == 0, part == .exponent else { throw invalid(k) }
                    part = .exponentSign
                case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D:
                    guard digits > 0 else { throw invalid(k) }
                    i = k
                    return String(decoding: bytes[start..<k], as: UTF8.self)
                default:
                    throw invalid(k)
                }
                k += 1
            }
            guard digits > 0 else { throw endOfFile }
            i = bytes.count
            return String(decoding: bytes[start...], as: UTF8.self)
        }

        /// The text of `bytes[range]`, which JSONSerialization decodes before it looks further.
        func text(_ range: Range<Int>) throws(Failure) -> String {
            try checkUTF8(range)
            return String(decoding: bytes[range], as: UTF8.self)
        }

        func checkUTF8(_ range: Range<Int>) throws(Failure) {
            guard UTF8Text.firstInvalid(bytes, range) == nil else {
                throw Failure(message: "Invalid UTF-8 sequence \(range.count) bytes starting from character \(range.lowerBound).")
            }
        }

        mutating func string() throws(Failure) -> String {
            switch try stringContent() {
            case .verbatim(let range): String(decoding: bytes[range], as: UTF8.self)
            case .decoded(let text): text
            }
        }

        /// A string from its opening quote: its content's place when it has no escapes (nothing is
        /// copied), else the content decoded, made from the first escape on. Its UTF-8 is checked
        /// run by run either way, as JSONSerialization reads it.
        mutating func stringContent() throws(Failure) -> Content {
            i += 1  // the opening quote
            let start = i
            var out: String?
            var runStart = i
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case 0x22:
                    defer { i += 1 }
                    guard let decoded = out else {
                        try checkUTF8(start..<i)
                        return .verbatim(start..<i)
                    }
                    return .decoded(decoded + (try text(runStart..<i)))
                case 0x00...0x1F:
                    try checkUTF8(runStart..<(i + 1))
                    throw Failure(message: "Unescaped control character around character \(i).")
                case 0x5C:
                    let run = try text(runStart..<i)
                    let escaped = try escape()
                    out = (out ?? "") + run + escaped
                    runStart = i
                default:
                    i += 1
                }
            }
            throw endOfFile
        }

        enum EscapeProblem { case character, lowSurrogate, scalar }

        /// One escape from its backslash. When it is bad, JSONSerialization first decodes the bytes it
        /// has read of it (an invalid UTF-8 byte there is reported as such).
        mutating func escape() throws(Failure) -> String {
            let backslash = i
            i += 1
            guard i < bytes.count else { i = bytes.count; throw endOfFile }
            let kind = bytes[i]
            i += 1
            var problem: EscapeProblem
            switch kind {
            case 0x22: return "\""
            case 0x5C: return "\\"
            case 0x2F: return "/"
            case 0x62: return "\u{08}"
            case 0x66: return "\u{0C}"
            case 0x6E: return "\n"
            case 0x72: return "\r"
            case 0x74: return "\t"
            case 0x75:
                let high = try hex4()
                if high & 0xFC00 == 0xD800 {
                    guard i + 2 <= bytes.count else { i = bytes.count; throw endOfFile }
                    let (e, u) = (bytes[i], bytes[i + 1])
                    i += 2
                    if e == 0x5C && u == 0x75 {
                        let low = try hex4()
                        if low & 0xFC00 == 0xDC00 {
                            let value = (UInt32(high - 0xD800) << 10) + UInt32(low - 0xDC00) + 0x10000
                            return String(Unicode.Scalar(value)!)
                        }
                    }
                    problem = .lowSurrogate
                } else if let scalar = Unicode.Scalar(high) {
                    return String(scalar)
                } else {
                    problem = .scalar
                }
            default:
                problem = .character
            }
            _ = try text(backslash..<i)
            switch problem {
            case .character: throw Failure(message: "Invalid escape sequence around character \(backslash).")
            case .lowSurrogate: throw Failure(message: "Unexpected end of file during string parse (expected low-surrogate code point but did not find one).")
            case .scalar: throw Failure(message: "Unable to convert hex escape sequence (no high character) to UTF8-encoded character.")
            }
        }

        mutating func hex4() throws(Failure) -> UInt16 {
            let start = i
            guard i + 4 <= bytes.count else { i = bytes.count; throw endOfFile }
            i += 4
            var v: UInt16 = 0
            for b in bytes[start..<i] {
                guard let d = Hex.value(ofDigit: b) else {
                    let shown = String(decoding: bytes[start..<i], as: UTF8.self)
                    throw Failure(message: "Invalid hex encoded sequence in \"\(shown)\" at \(start).")
                }
                v = v << 4 | UInt16(d)
            }
            return v
        }
    }
}
