import ByteText

/// INTEGER / ENUMERATED content: checks for the parser, conversions for every layer.
public enum IntegerValue {
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> ValueProblem? {
        guard !content.isEmpty else {
            return ValueProblem(.integerEmpty, content, "INTEGER with no content octets")
        }
        if content.count >= 2 {
            let a = bytes[content.lowerBound], b = bytes[content.lowerBound + 1]
            if (a == 0x00 && b & 0x80 == 0) || (a == 0xFF && b & 0x80 != 0) {
                return ValueProblem(.integerNotMinimal, content.lowerBound..<(content.lowerBound + 1),
                                    "redundant leading 0x\(Hex.byte(a, .upper)) octet: the INTEGER is not in its shortest form")
            }
        }
        return nil
    }

    /// Two's-complement big-endian bytes as a decimal string (any size).
    public static func decimal<C: Collection>(_ content: C) -> String where C.Element == UInt8 {
        guard let first = content.first else { return "" }
        let negative = first & 0x80 != 0
        var magnitude = Array(content)
        if negative {
            // Two's complement negation: invert and add one.
            for i in magnitude.indices { magnitude[i] = ~magnitude[i] }
            var i = magnitude.count - 1
            while i >= 0 {
                magnitude[i] &+= 1
                if magnitude[i] != 0 { break }
                i -= 1
            }
        }
        let digits = BigDecimal.decimalString(bigEndian: magnitude)
        return negative ? "-" + digits : digits
    }

    /// The value when it fits in 64 bits.
    /// Inlinable: the receipt decoder calls it twice per attribute, and an unspecialised generic
    /// call across modules costs ~1,700 instructions.
    @inlinable
    public static func int64<C: Collection>(_ content: C) -> Int64? where C.Element == UInt8 {
        guard let first = content.first, content.count <= 8 else { return nil }
        var value: Int64 = first & 0x80 != 0 ? -1 : 0
        for octet in content { value = (value << 8) | Int64(octet) }
        return value
    }
}

/// Decimal conversion of arbitrarily long unsigned big-endian numbers (INTEGER values, OID arcs).
enum BigDecimal {
    static func decimalString(bigEndian bytes: [UInt8]) -> String {
        var limbs = bytes.drop { $0 == 0 }.map { UInt32($0) }  // base-256 digits
        if limbs.isEmpty { return "0" }
        var chunks: [UInt32] = []  // base-10^9 digits, least significant first
        while !limbs.isEmpty {
            var remainder: UInt64 = 0
            var quotient: [UInt32] = []
            quotient.reserveCapacity(limbs.count)
            for limb in limbs {
                let current = (remainder << 8) | UInt64(limb)
                let q = current / 1_000_000_000
                remainder = current % 1_000_000_000
                if !(quotient.isEmpty && q == 0) { quotient.append(UInt32(q)) }
            }
            chunks.append(UInt32(remainder))
            limbs = quotient
        }
        var text = String(chunks.last!)
        for chunk in chunks.dropLast().reversed() {
            let s = String(chunk)
            text += String(repeating: "0", count: 9 - s.count) + s
        }
        return text
    }

    /// Base-128 digits (OID subidentifier octets, continuation bits stripped) to decimal.
    static func decimalString(base128 digits: [UInt8]) -> String {
        // Repack 7-bit digits into bytes, most significant first.
        var bits: [UInt8] = []
        var accumulator: UInt32 = 0
        var count = 0
        for digit in digits.reversed() {
            accumulator |= UInt32(digit & 0x7F) << count
            count += 7
            while count >= 8 {
                bits.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                count -= 8
            }
        }
        if count > 0 { bits.append(UInt8(accumulator)) }
        return decimalString(bigEndian: bits.reversed())
    }
}
