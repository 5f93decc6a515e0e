/// Reads and checks JSON number text (RFC 8259 grammar).
enum JSONNumberReader {
    /// The value of well-formed number text.
    static func read(_ text: ArraySlice<UInt8>) -> JSONNumber? {
        readSmallInteger(text) ?? readGeneral(text)
    }

    /// Any number text, through `Double(String)` and `Int64(String)`.
    static func readGeneral(_ text: ArraySlice<UInt8>) -> JSONNumber? {
        guard isWellFormed(text) else { return nil }
        let string = String(decoding: text, as: UTF8.self)
        guard let double = Double(string) else { return nil }
        let integral = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        return JSONNumber(text: string, double: double, integer: integral ? Int64(string) : nil)
    }

    /// A non-negative integer of at most 15 digits without a leading zero (dates, prices, ids),
    /// read without `strtod`: below 2^53, so `Double` holds it exactly and the result is the one
    /// `read` gives. Nil for anything else (the general path decides).
    static func readSmallInteger(_ text: ArraySlice<UInt8>) -> JSONNumber? {
        guard !text.isEmpty, text.count <= 15, text.first != UInt8(ascii: "0") || text.count == 1 else { return nil }
        var value: Int64 = 0
        for c in text {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(c - UInt8(ascii: "0"))
        }
        return JSONNumber(text: String(decoding: text, as: UTF8.self), double: Double(value), integer: value)
    }

    /// `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`
    static func isWellFormed(_ text: ArraySlice<UInt8>) -> Bool {
        var i = text.startIndex
        let end = text.endIndex
        func digits() -> Int {
            let from = i
            while i < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[i]) { i += 1 }
            return i - from
        }
        if i < end, text[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end else { return false }
        if text[i] == UInt8(ascii: "0") {
            i += 1
        } else if digits() == 0 {
            return false
        }
        if i < end, text[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < end, text[i] == UInt8(ascii: "e") || text[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, text[i] == UInt8(ascii: "+") || text[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == end
    }
}
