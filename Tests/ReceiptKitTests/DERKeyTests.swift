import Testing
@testable import X509Trust

/// `DERKey` hashes only the length and the first and last 64 bytes; equality still reads them all,
/// so certificates that differ only in the middle stay distinct keys.
@Suite struct DERKeyTests {
    @Test func keysDifferingOnlyInTheMiddleAreDistinct() {
        var a = [UInt8](repeating: 0x30, count: 1000)
        var b = a
        b[500] = 0x31
        a[0] = 0x30
        #expect(DERKey(a).hashValue == DERKey(b).hashValue)  // the middle is not hashed
        #expect(DERKey(a) != DERKey(b))
        var table: [DERKey: Int] = [:]
        table[DERKey(a)] = 1
        table[DERKey(b)] = 2
        #expect(table[DERKey(a)] == 1 && table[DERKey(b)] == 2 && table.count == 2)
    }

    @Test func equalBytesAreEqualKeysAndShortKeysHashWhole() {
        let der: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        #expect(DERKey(der) == DERKey(Array(der)))
        #expect(DERKey(der).hashValue == DERKey(Array(der)).hashValue)
        #expect(DERKey([1, 2, 3]) != DERKey([1, 2, 4]))
        #expect(DERKey([1, 2, 3]).hashValue != DERKey([1, 2, 4]).hashValue)  // whole when ≤ 128 bytes
        #expect(DERKey(der) != DERKey(der + [0]))
        #expect(DERKey([]) == DERKey([]))
        #expect(DERKey([]) != DERKey([0]))
    }
}
