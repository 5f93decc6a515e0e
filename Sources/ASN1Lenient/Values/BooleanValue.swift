import ByteText
enum BooleanValue {
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>) -> ValueProblem? {
        guard content.count == 1 else {
            return ValueProblem(.booleanLength, content, "BOOLEAN with \(content.count) content octets; it must have exactly 1")
        }
        let octet = bytes[content.lowerBound]
        if octet != 0x00 && octet != 0xFF {
            return ValueProblem(.booleanValue, content, "BOOLEAN TRUE encoded as 0x\(Hex.byte(octet, .upper)); DER requires 0xFF")
        }
        return nil
    }
}
