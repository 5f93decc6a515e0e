import ByteText
enum BitStringValue {
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> ValueProblem? {
        guard let first = content.first else {
            return ValueProblem(.bitStringEmpty, content, "BIT STRING without its initial unused-bits octet")
        }
        let unused = bytes[first]
        let firstOctet = first..<(first + 1)
        if unused > 7 {
            return ValueProblem(.bitStringUnusedBits, firstOctet, "\(unused) unused bits; the count must be 0-7")
        }
        if content.count == 1 && unused != 0 {
            return ValueProblem(.bitStringUnusedBits, firstOctet, "an empty BIT STRING must declare 0 unused bits, not \(unused)")
        }
        if unused > 0 {
            let last = bytes[content.upperBound - 1]
            if last & UInt8((1 << unused) - 1) != 0 {
                return ValueProblem(.bitStringPadding, (content.upperBound - 1)..<content.upperBound,
                                    "the \(unused) unused padding bit(s) of the last octet 0x\(Hex.byte(last, .upper)) are not zero")
            }
        }
        return nil
    }
}
