import ByteText
enum StringValue {
    /// True when no byte has its high bit set, checked eight bytes at a time.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var i = range.lowerBound
        var high: UInt64 = 0
        while i + 8 <= range.upperBound {
            high |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < range.upperBound {
            high |= UInt64(base[i])
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    static func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> ValueProblem? {
        guard let bad = UTF8Text.firstInvalid(bytes, content) else { return nil }
        return ValueProblem(.utf8Invalid, bad..<(bad + 1),
                            "byte 0x\(Hex.byte(bytes[bad], .upper)) at offset \(bad) does not continue valid UTF-8")
    }

    static func isAllowed(_ b: UInt8, tagNumber: UInt32) -> Bool {
        switch tagNumber {
        case 18: return (b >= 0x30 && b <= 0x39) || b == 0x20  // NumericString
        case 19:  // PrintableString
            switch b {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x20, 0x27, 0x28, 0x29, 0x2B, 0x2C, 0x2D, 0x2E,
                 0x2F, 0x3A, 0x3D, 0x3F: return true
            default: return false
            }
        case 22: return b < 0x80  // IA5String
        case 26: return b >= 0x20 && b <= 0x7E  // VisibleString
        default: return true
        }
    }

    static func checkAlphabet(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>,
                              tagNumber: UInt32) -> ValueProblem? {
        for i in content where !isAllowed(bytes[i], tagNumber: tagNumber) {
            return ValueProblem(.stringCharset, i..<(i + 1),
                                "byte 0x\(Hex.byte(bytes[i], .upper)) at offset \(i) is not allowed in a \(UniversalTag.name(tagNumber))")
        }
        return nil
    }
}
