import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import DocumentCore
@testable import ReceiptKit
import TextLoader

/// The streamed writer's dates and numbers are written as `ReceiptDate` and `String(_:)` write them
/// (the documents themselves: ReceiptJSONTests).
@Suite struct ReceiptJSONStreamTests {
    /// Dates at the edges of the digit-by-digit path and beyond it (years before 0000 and after 9999
    /// take `ReceiptDate`'s own strings).
    @Test func datesAndNumbersAreWrittenAsReceiptDateWritesThem() {
        let instants: [Int64] = [0, -1, 1, 999, -999, 1_432_383_489_000, 1_710_054_000_000, 1_699_174_800_000,
                                 -62_167_219_200_000, -62_167_219_200_001, -62_167_219_200_000 + 86_400_000 + 1,
                                 253_402_300_799_999, 253_402_300_800_000 - 86_400_000 - 1, 253_402_300_800_000,
                                 ReceiptDate.limit, -ReceiptDate.limit, .max / 2]
        for ms in instants {
            let d = ReceiptDate(epochMilliseconds: ms)
            var w = JSONStreamWriter(compact: true)
            w.gmtString(d); w.pstString(d); w.millisecondsString(d)
            #expect(String(decoding: w.bytes, as: UTF8.self) == "\"\(d.gmtString)\"\"\(d.pstString)\"\"\(d.millisecondsString)\"", "\(ms)")
        }
        for n: Int64 in [0, 7, 10, -10, 1_000_000_007, .max, .min, .min + 1] {
            var w = JSONStreamWriter(compact: true)
            w.int64(n)
            #expect(String(decoding: w.bytes, as: UTF8.self) == String(n))
        }
    }
}
