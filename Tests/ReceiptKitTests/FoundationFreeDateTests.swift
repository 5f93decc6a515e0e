import Foundation
import Testing
@testable import ASN1Lenient
@testable import ReceiptKit
import DocumentCore
import JWSKit
@testable import ByteText
@testable import X509Trust

/// The date code that replaced full Foundation's (ICU's) when the tool moved to FoundationEssentials,
/// checked against Foundation itself, which tests may still link: `PacificTime` against
/// `TimeZone(identifier: "America/Los_Angeles")`, `ISO8601Text`'s ICU form against ISO8601DateFormatter.
@Suite struct FoundationFreeDateTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    static func foundationOffset(_ seconds: Int64) -> Int {
        losAngeles.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    @Test func pacificTimeMatchesFoundationAroundEveryTransitionOfTheTable() {
        for t in PacificTime.transitions {
            for delta: Int64 in [-3601, -1, 0, 1, 3600] {
                #expect(PacificTime.offset(atEpochSeconds: t + delta) == Self.foundationOffset(t + delta), "\(t + delta)")
            }
        }
    }

    @Test func pacificTimeMatchesFoundationAroundTheRulesTransitions() {
        // 2007 to 2199: the second Sunday of March and the first of November, each side of the hour.
        for year in 2007...2199 {
            let march = Int64(PacificTime.sunday(onOrAfter: 8, month: 3, year: year)) * 86_400 + 10 * 3600
            let november = Int64(PacificTime.sunday(onOrAfter: 1, month: 11, year: year)) * 86_400 + 9 * 3600
            for t in [march - 1, march, november - 1, november] {
                #expect(PacificTime.offset(atEpochSeconds: t) == Self.foundationOffset(t), "\(year): \(t)")
            }
        }
    }

    @Test func pacificTimeMatchesFoundationOnASweepAndAtTheExtremes() {
        // Every 9 hours 7 minutes from 1850 to 2100, and instants far before and after.
        var t: Int64 = -3_786_825_600
        while t < 4_102_444_800 {
            #expect(PacificTime.offset(atEpochSeconds: t) == Self.foundationOffset(t), "\(t)")
            t += 9 * 3600 + 7 * 60
        }
        for far: Int64 in [-1_000_000_000_000, -62_167_219_200, 253_402_300_799, 1_000_000_000_000, 31_556_926_000_000 / 1000 * 200] {
            #expect(PacificTime.offset(atEpochSeconds: far) == Self.foundationOffset(far), "\(far)")
        }
    }

    @Test func pstStringKeepsVerifyReceiptsForm() {
        #expect(ReceiptDate(epochMilliseconds: 1_432_383_489_000).pstString == "2015-05-23 05:18:09 America/Los_Angeles")
        #expect(ReceiptDate(epochMilliseconds: 1_420_070_400_000).pstString == "2014-12-31 16:00:00 America/Los_Angeles")
        #expect(ReceiptDate(epochMilliseconds: -2_717_640_001_000).pstString == "1883-11-18 12:07:01 America/Los_Angeles")
    }

    static func formatter() -> ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(identifier: "UTC")
        return f
    }

    /// The JSON reports' dates outside 0000-9999 were ISO8601DateFormatter's (ICU's Julian BC years).
    @Test func julianEraFormMatchesISO8601DateFormatterOutsideYears0To9999() {
        var instants: [Int64] = [-62_167_219_200_001, -62_167_219_200_000 - 86_400_000 * 366, -100_000_000_000_000,
                                 -1_000_000_000_000_000, 253_402_300_800_000, 253_402_300_800_123, 999_999_999_999_999,
                                 1_000_000_000_000_000]
        var ms: Int64 = -62_167_219_200_001
        while ms > -1_000_000_000_000_000 { instants.append(ms); ms -= 7_777_777_777_777 }
        ms = 253_402_300_800_000
        while ms < 1_000_000_000_000_000 { instants.append(ms); ms += 7_777_777_777_777 }
        let formatter = Self.formatter()
        for ms in instants {
            let expected = formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
            #expect(ISO8601Text.string(epochMilliseconds: ms, fraction: .always, farYears: .julianEra) == expected, "\(ms)")
        }
    }

    @Test func theWriterKeepsEachCallersForm() {
        #expect(ReceiptDate(epochMilliseconds: 1_432_383_489_000).iso8601 == "2015-05-23T12:18:09Z")
        #expect(ReceiptDate(epochMilliseconds: 1_432_383_489_250).iso8601 == "2015-05-23T12:18:09.250Z")
        #expect(ReceiptDate(epochMilliseconds: -62_167_219_200_001).iso8601 == "-1-12-31T23:59:59.999Z")
        #expect(ReceiptDate(epochMilliseconds: 253_402_300_800_000).iso8601 == "10000-01-01T00:00:00Z")
        #expect(ISODate.string(milliseconds: 1_432_383_489_000) == "2015-05-23T12:18:09.000Z")
        #expect(ISODate.string(milliseconds: -62_167_219_200_001) == "-000001-12-31T23:59:59.999Z")
        #expect(ISODate.string(milliseconds: 253_402_300_800_000) == "+010000-01-01T00:00:00.000Z")
        #expect(VerificationJSON.date(Date(timeIntervalSince1970: 1_432_383_489)) == "2015-05-23T12:18:09.000Z")
        #expect(ValidationDate.iso(Date(timeIntervalSince1970: 1_455_274_662.9)) == "2016-02-12T10:57:42Z")
    }

    /// The trims and the case-blind match that replaced NSString's, on the text users type.
    @Test func plainTextAnswersAsFoundationDid() {
        let samples = ["", " ", " x ", "\t2024-01-01 \u{00A0}", "\n x\n", "\u{2028}a\u{2029}", "\u{85}b\u{0B}", "\u{3000}c\u{200B}", "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}d\u{180E}\u{FEFF}\u{200C}"]
        for s in samples {
            #expect(PlainText.trimmingWhitespace(s) == s.trimmingCharacters(in: .whitespaces), "\(s.debugDescription)")
            #expect(PlainText.trimmingWhitespaceAndNewlines(s) == s.trimmingCharacters(in: .whitespacesAndNewlines), "\(s.debugDescription)")
        }
        for (a, b) in [("Sandbox", "sandbox"), ("Sandbox", "SANDBOX"), ("Production", "production "), ("Xcode", "xcode"),
                       ("Sandbox", "ſandbox"), ("straße", "STRASSE"), ("Sandbox", "Sandbøx")] {
            #expect(PlainText.equalsIgnoringCase(a, b) == (a.caseInsensitiveCompare(b) == .orderedSame), "\(a) / \(b)")
        }
        for (text, length) in [("bundle id", 12), ("x", 1), ("abc", 2), ("", 3)] {
            #expect(PlainText.padded(text, toLength: length) == text.padding(toLength: length, withPad: " ", startingAt: 0))
        }
        for (value, width) in [(5, 2), (12, 2), (123, 2), (-5, 3), (0, 4)] {
            #expect(PlainText.zeroPadded(value, width: width) == String(format: "%0\(width)d", value))
        }
        #expect(PlainText.zeroPadded(0x1F, width: 4, radix: 16) == String(format: "%04x", 0x1F))
    }
}
