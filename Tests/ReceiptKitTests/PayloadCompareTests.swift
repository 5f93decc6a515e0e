import Testing
@testable import ReceiptKit

/// The contents step compares the decoded payload with the CMS signed content with `memcmp`
/// (issue 12: element-by-element comparison of 3.5 MB was ≈ 25 M instructions).
@Suite("Payload comparison")
struct PayloadCompareTests {
    @Test func slicesCompareByContentWhateverTheirStartIndex() {
        let whole: [UInt8] = [9, 1, 2, 3]
        #expect(ValidationChecks.bytesEqual(whole[1...], [1, 2, 3][...]))
        #expect(!ValidationChecks.bytesEqual(whole[1...], [1, 2, 4][...]))
        #expect(!ValidationChecks.bytesEqual(whole[...], [1, 2, 3][...]))
        #expect(ValidationChecks.bytesEqual(whole[4...], [][...]))
    }
}
