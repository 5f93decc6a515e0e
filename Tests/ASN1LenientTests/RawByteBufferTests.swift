import ByteText
import Testing

/// The one raw byte buffer the dump formats and the JSON reports write through (issue 19): exact
/// bytes after growth, every small-copy length, every digit count.
@Suite struct RawByteBufferTests {
    private func written(_ capacity: Int = 4, _ body: (inout RawByteBuffer) -> Void) -> [UInt8] {
        var buffer = RawByteBuffer(capacity: capacity)
        defer { buffer.deallocate() }
        body(&buffer)
        return buffer.bytes
    }

    @Test func growingPastCapacityKeepsTheBytesWritten() {
        let bytes = written(4) { buffer in
            for i in 0..<1000 {
                buffer.reserve(1)
                buffer.put(UInt8(truncatingIfNeeded: i))
            }
            #expect(buffer.capacity >= 1000)
            buffer.reserve(300)  // more than double at once
            buffer.put("tail")
        }
        #expect(bytes.count == 1004)
        #expect(Array(bytes.prefix(1000)) == (0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        #expect(Array(bytes.suffix(4)) == Array("tail".utf8))
    }

    @Test func putsAStaticStringAndPointerBytesAsTheyAre() {
        let source: [UInt8] = [0x00, 0xFF, 0x22, 0x5C]
        let bytes = written(64) { buffer in
            buffer.put("ab")
            source.withUnsafeBufferPointer { buffer.put($0.baseAddress!, count: $0.count) }
            buffer.put("")
        }
        #expect(bytes == [0x61, 0x62, 0x00, 0xFF, 0x22, 0x5C])
    }

    /// Every length to 70 (the word moves' cases and `memcpy` beyond 64), from and to odd offsets,
    /// with sentinels on both sides of the target: nothing outside `to[0..<n]` is touched.
    @Test func smallCopiesOfEveryLengthCopyExactlyTheirBytes() {
        let source = (0..<80).map { UInt8($0 &+ 1) }
        for n in 0...70 {
            var target = [UInt8](repeating: 0xEE, count: n + 10)
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    RawByteBuffer.copySmall(from.baseAddress! + 3, to.baseAddress! + 5, n)
                }
            }
            #expect(Array(target[5..<(5 + n)]) == Array(source[3..<(3 + n)]), "length \(n)")
            #expect(target[..<5].allSatisfy { $0 == 0xEE } && target[(5 + n)...].allSatisfy { $0 == 0xEE }, "length \(n)")
            let appended = written(8) { buffer in
                buffer.put("<")
                buffer.reserve(n + 1)
                source.withUnsafeBufferPointer { buffer.putCopying($0.baseAddress! + 1, count: n) }
                buffer.reserve(1)
                buffer.put(">")
            }
            #expect(appended == [0x3C] + Array(source[1..<(1 + n)]) + [0x3E], "length \(n)")
        }
    }

    @Test func spacesOfEveryWidthToSeventeen() {
        for n in 0...17 {
            let bytes = written(2) { buffer in
                buffer.reserve(n + 8)
                buffer.put("|")
                buffer.putSpaces(n)
                buffer.put("|")
            }
            #expect(bytes == [0x7C] + [UInt8](repeating: 0x20, count: n) + [0x7C], "width \(n)")
        }
    }

    @Test func digitPairsAreTheHundredPairsInOrder() {
        let pairs = RawByteBuffer.digitPairs
        #expect(pairs.utf8CodeUnitCount == 200)
        var p = [UInt8](repeating: 0, count: 2)
        for value in 0...99 {
            p.withUnsafeMutableBufferPointer { RawByteBuffer.twoDigits(value, $0.baseAddress!) }
            #expect(String(decoding: p, as: UTF8.self) == (value < 10 ? "0\(value)" : "\(value)"))
        }
    }

    /// Each power of ten, one below it and one above it, and the extremes.
    @Test func decimalsAtEveryPowerOfTen() {
        var values: [UInt64] = [0, 1, 9, UInt64(Int64.max), UInt64(Int64.max) + 1, .max, .max - 1]
        var power: UInt64 = 10
        for _ in 1...19 {
            values += [power - 1, power, power + 1]
            if power <= UInt64.max / 10 { power *= 10 }
        }
        for value in values {
            let bytes = written(3) { buffer in
                buffer.reserve(20)
                buffer.putDecimal(value)
                buffer.reserve(1)
                buffer.put(",")
            }
            #expect(String(decoding: bytes, as: UTF8.self) == "\(value),")
            #expect(RawByteBuffer.decimalDigitCount(value) == "\(value)".count)
        }
    }
}
