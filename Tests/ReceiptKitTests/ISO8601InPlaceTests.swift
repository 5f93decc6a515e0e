import Testing
@testable import ByteText

/// `ISO8601Text.write` (the JSON reports' dates, written in place) gives `string`'s bytes for years
/// 0000–9999 and declines every other year, which `string` alone writes.
@Suite struct ISO8601InPlaceTests {
    static func written(_ ms: Int64, _ fraction: ISO8601Text.Fraction) -> String? {
        var buffer = [UInt8](repeating: 0, count: 24)
        let n = buffer.withUnsafeMutableBufferPointer { ISO8601Text.write(epochMilliseconds: ms, fraction: fraction, into: $0.baseAddress!) }
        return n.map { String(decoding: buffer[..<$0], as: UTF8.self) }
    }

    @Test func sameBytesAsStringInRangeAndNilOutside() {
        let year0: Int64 = -62_167_219_200_000, year10000: Int64 = 253_402_300_800_000
        var instants: [Int64] = [0, -1, 1, 999, 1000, 1_432_383_489_000, 1_432_383_489_123, year0, year10000 - 1, year0 - 1, year10000,
                                 -86_400_000, 4_102_444_800_000, .max / 4, .min / 4]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2000 {  // a fixed sweep over the whole range and beyond
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            instants.append(Int64(bitPattern: x) % (year10000 * 2))
        }
        for ms in instants {
            for fraction in [ISO8601Text.Fraction.always, .whenNonZero] {
                let inRange = ms >= year0 && ms < year10000
                let expected = inRange ? ISO8601Text.string(epochMilliseconds: ms, fraction: fraction, farYears: .julianEra) : nil
                #expect(Self.written(ms, fraction) == expected, "\(ms) \(fraction)")
            }
        }
        #expect(Self.written(1_432_383_489_000, .always) == "2015-05-23T12:18:09.000Z")
        #expect(Self.written(1_432_383_489_000, .whenNonZero) == "2015-05-23T12:18:09Z")
    }
}
