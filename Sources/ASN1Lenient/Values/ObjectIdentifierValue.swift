public enum ObjectIdentifierValue {
    /// Whether `bytes` are a well-formed OBJECT IDENTIFIER body.
    public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { check(bytes, 0..<bytes.count) == nil }

    static func check(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> ValueProblem? {
        guard !content.isEmpty else {
            return ValueProblem(.oidEmpty, content, "OBJECT IDENTIFIER with no content octets")
        }
        var subidentifierStart = true
        for i in content {
            let octet = bytes[i]
            if subidentifierStart && octet == 0x80 {
                return ValueProblem(.oidLeadingZero, i..<(i + 1),
                                    "a subidentifier starts with 0x80 at offset \(i); it is not in its shortest form")
            }
            subidentifierStart = octet & 0x80 == 0
        }
        if bytes[content.upperBound - 1] & 0x80 != 0 {
            return ValueProblem(.oidTruncated, (content.upperBound - 1)..<content.upperBound,
                                "the last octet has its continuation bit (0x80) set: the final subidentifier is unfinished")
        }
        return nil
    }

    /// Dotted decimal form, or nil when the encoding is invalid.
    public static func dotted<C: BidirectionalCollection>(_ content: C) -> String? where C.Element == UInt8 {
        guard !content.isEmpty, let last = content.last, last & 0x80 == 0 else { return nil }
        var arcs: [String] = []
        var digits: [UInt8] = []
        var first = true
        for octet in content {
            digits.append(octet & 0x7F)
            guard octet & 0x80 == 0 else { continue }
            if first {
                first = false
                // The first subidentifier packs two arcs: 40 * X + Y, with X in 0...2.
                if digits.count <= 9 {
                    var value: UInt64 = 0
                    for d in digits { value = (value << 7) | UInt64(d) }
                    let x: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                    arcs.append(String(x))
                    arcs.append(String(value - 40 * x))
                } else {
                    arcs.append("2")
                    arcs.append(subtract80(BigDecimal.decimalString(base128: digits)))
                }
            } else if digits.count <= 9 {
                var value: UInt64 = 0
                for d in digits { value = (value << 7) | UInt64(d) }
                arcs.append(String(value))
            } else {
                arcs.append(BigDecimal.decimalString(base128: digits))
            }
            digits.removeAll(keepingCapacity: true)
        }
        return arcs.joined(separator: ".")
    }

    /// Decimal subtraction of 80 from a long decimal string (first arc 2 with a huge second arc).
    private static func subtract80(_ decimal: String) -> String {
        var digits = decimal.map { Int($0.asciiValue! - 48) }
        var borrow = 80
        var i = digits.count - 1
        while borrow > 0 && i >= 0 {
            let value = digits[i] - (borrow % 10)
            borrow /= 10
            if value < 0 { digits[i] = value + 10; borrow += 1 } else { digits[i] = value }
            i -= 1
        }
        let text = String(digits.map { Character(String($0)) }).drop { $0 == "0" }
        return text.isEmpty ? "0" : String(text)
    }
}
