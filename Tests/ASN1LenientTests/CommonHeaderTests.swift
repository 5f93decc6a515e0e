import Testing
import TestSupport
@testable import ASN1Lenient

/// `BERHeader.readCommon`, the parser's fast header read, against the general `BERHeader.read`.
@Suite struct CommonHeaderTests {
    /// What the general reader says about a header, when it is one the fast read must take: one
    /// identifier octet, a definite length with nothing to report (short form, or long form of one
    /// or two octets without a leading zero and needing it), and content that fits before `limit`.
    static func commonShape(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) -> (contentStart: Int, length: Int)? {
        guard case .success(let header) = BERHeader.read(bytes, at: 0, limit: limit),
              header.identifierLength == 1, case .definite(let n, let longForm) = header.length,
              n <= limit - header.contentStart else { return nil }
        if longForm {
            let octets = header.contentStart - header.lengthStart - 1
            guard octets <= 2, bytes[header.lengthStart + 1] != 0, !(octets == 1 && n < 128) else { return nil }
        }
        return (header.contentStart, n)
    }

    /// Every length octet after eight identifier octets (low tags, the long-tag marker, EOC, every
    /// class), with the next two octets at their edge values, cut at every limit that matters: the
    /// fast read answers exactly when the general reader finds the common shape, with the same numbers.
    @Test func fastReadAgreesWithTheGeneralReader() {
        let firsts: [UInt8] = [0x00, 0x02, 0x04, 0x1E, 0x1F, 0x30, 0x5F, 0xA0, 0xBF, 0xFF]
        let edges: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF]
        var taken = 0
        for first in firsts {
            for lengthOctet in 0...255 {
                for second in edges {
                    for third in edges {
                        var bytes = [first, UInt8(lengthOctet), second, third]
                        bytes += [UInt8](repeating: 0x41, count: 300)
                        bytes.withUnsafeBufferPointer { buffer in
                            for limit in [1, 2, 3, 4, 5, 6, 130, 131, 132, 260, 261, 304] {
                                let fast = BERHeader.readCommon(buffer, at: 0, limit: limit)
                                let general = Self.commonShape(buffer, limit: limit)
                                #expect(fast?.contentStart == general?.contentStart && fast?.length == general?.length,
                                        "\(bytes.prefix(4)) limit \(limit)")
                                if fast != nil { taken += 1 }
                            }
                        }
                    }
                }
            }
        }
        #expect(taken > 10_000)
    }

    @Test func fastReadNumbers() {
        func common(_ hex: String, limit: Int? = nil) -> [Int]? {
            let bytes = DER.hex(hex)
            return bytes.withUnsafeBufferPointer { buffer in
                BERHeader.readCommon(buffer, at: 0, limit: limit ?? buffer.count).map { [$0.contentStart, $0.length] }
            }
        }
        #expect(common("02 01 05") == [2, 1])
        #expect(common("30 00") == [2, 0])
        #expect(common("04 81 80" + String(repeating: " 00", count: 128)) == [3, 128])
        #expect(common("04 82 01 00" + String(repeating: " 00", count: 256)) == [4, 256])
        #expect(common("04 81 7F" + String(repeating: " 00", count: 127)) == nil)  // short form would do
        #expect(common("04 82 00 80" + String(repeating: " 00", count: 128)) == nil)  // leading zero
        #expect(common("04 83 01 00 00") == nil)  // three length octets: the general reader
        #expect(common("04 80 00 00") == nil)  // indefinite
        #expect(common("1F 21 00") == nil)  // long tag
        #expect(common("02 02 05") == nil)  // runs past the limit
        #expect(common("02 01 05 00", limit: 2) == nil)
        #expect(common("02") == nil)
    }
}
