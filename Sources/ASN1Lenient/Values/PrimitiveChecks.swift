extension ParserMachine {
    /// Checks the content of a primitive universal element against its type's rules.
    @inline(__always)
    mutating func checkPrimitiveValue(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, tagNumber: UInt32,
                                      content: Range<Int>) {
        if Self.valueIsPlainlySound(bytes, tagNumber: tagNumber, content: content) { return }
        checkPrimitiveValueInDetail(bytes, index: index, tagNumber: tagNumber, content: content)
    }

    /// What almost every element is: valid INTEGERs, ASCII text, raw octets. True only when the
    /// detailed check could find nothing to report (false says "look closer", not "defective").
    @inline(__always)
    static func valueIsPlainlySound(_ bytes: UnsafeBufferPointer<UInt8>, tagNumber: UInt32, content: Range<Int>) -> Bool {
        switch tagNumber {
        case 4: return true
        case 2, 10:
            let n = content.upperBound &- content.lowerBound
            if n == 1 { return true }
            if n >= 2 {
                let a = bytes[content.lowerBound], b = bytes[content.lowerBound + 1]
                return !((a == 0 && b < 0x80) || (a == 0xFF && b >= 0x80))
            }
            return false
        case 12, 22:
            return StringValue.isASCII(bytes, content)
        default:
            return false
        }
    }

    @inline(never)
    mutating func checkPrimitiveValueInDetail(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, tagNumber: UInt32,
                                              content: Range<Int>) {
        let problem: ValueProblem?
        switch tagNumber {
        case 1: problem = BooleanValue.check(bytes, content)
        case 2, 10: problem = IntegerValue.check(bytes, content)
        case 3: problem = BitStringValue.check(bytes, content)
        case 5: problem = content.isEmpty ? nil
            : ValueProblem(.nullContent, content, "NULL has \(content.count) content octet(s); it must have none")
        case 6: problem = ObjectIdentifierValue.check(bytes, content)
        case 12: problem = StringValue.checkUTF8(bytes, content)
        case 18, 19, 22, 26: problem = StringValue.checkAlphabet(bytes, content, tagNumber: tagNumber)
        case 30: problem = content.count % 2 == 0 ? nil
            : ValueProblem(.bmpLength, content, "BMPString of \(content.count) octets: characters take 2 octets each")
        case 28: problem = content.count % 4 == 0 ? nil
            : ValueProblem(.universalStringLength, content, "UniversalString of \(content.count) octets: characters take 4 octets each")
        case 23: problem = TimeValue.check(bytes, content, generalized: false)
        case 24: problem = TimeValue.check(bytes, content, generalized: true)
        default: problem = nil
        }
        if let problem {
            report(problem.code, at: problem.range.lowerBound, length: problem.range.count, node: index, problem.message)
        }
    }
}

/// A defect found in a primitive value, pinned to the exact content bytes concerned.
struct ValueProblem {
    var code: ParserCode
    var range: Range<Int>
    var message: String

    init(_ code: ParserCode, _ range: Range<Int>, _ message: String) {
        self.code = code
        self.range = range
        self.message = message
    }
}
