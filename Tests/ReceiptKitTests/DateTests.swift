import Foundation
import Testing
import TestSupport
@testable import ReceiptKit

@Suite struct ReceiptDateTests {
    @Test(arguments: [
        ("2015-05-23T12:18:09Z", "2015-05-23T12:18:09Z", 0),
        ("2020-07-22T18:33:15+0100", "2020-07-22T17:33:15Z", 60),
        ("2020-07-22T18:33:15+01:00", "2020-07-22T17:33:15Z", 60),
        ("2020-07-22T12:03:15-0530", "2020-07-22T17:33:15Z", -330),
        ("2024-03-01T12:59:59.250+0100", "2024-03-01T11:59:59.250Z", 60),
        ("2024-03-01T11:59:59.123456Z", "2024-03-01T11:59:59.123Z", 0),
        ("2024-02-29T00:00:00z", "2024-02-29T00:00:00Z", 0),
        ("2024-02-29 00:00:00Z", "2024-02-29T00:00:00Z", 0),
        ("4001-01-01T00:00:00+0000", "4001-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z", 0),
    ])
    func parsesRFC3339(_ text: String, _ utc: String, _ offset: Int) throws {
        guard case .date(let d) = ReceiptDate.parse(text) else {
            Issue.record("\(text) did not parse")
            return
        }
        #expect(d.epochMilliseconds == epochMS(utc))
        #expect(d.utcOffsetMinutes == offset)
        #expect(d.text == text)
        #expect(d.iso8601 == utc)
    }

    @Test func emptyMeansAbsent() {
        #expect(ReceiptDate.parse("") == .absent)
    }

    @Test(arguments: ["yesterday", "2024-13-45T99:00:00Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z",
                      "2024-01-01T12:00:00", "2024-01-01T12:00:00+25:00", "2024-01-01T12:00:00Zjunk",
                      "2024-01-01", "2024-01-01T12:00Z", "2024-01-01T12:00:00.Z", "20240101T120000Z", " 2024-01-01T12:00:00Z"])
    func rejectsGarbage(_ text: String) {
        guard case .invalid(let why) = ReceiptDate.parse(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(!why.isEmpty)
    }

    @Test func anUnexpectedZoneCharacterIsNamedInWords() {
        #expect(ReceiptDate.parse("2024-01-01T12:00:00\u{1B}") == .invalid("unexpected byte 0x1B where the time zone should be"))
        #expect(ReceiptDate.parse("2024-01-01T12:00:00#") == .invalid("unexpected character '#' where the time zone should be"))
    }

    @Test func verifyReceiptForms() throws {
        guard case .date(let d) = ReceiptDate.parse("2015-05-23T12:18:09Z") else { throw CancellationError() }
        #expect(d.gmtString == "2015-05-23 12:18:09 Etc/GMT")
        #expect(d.millisecondsString == "1432383489000")
        #expect(d.pstString == "2015-05-23 05:18:09 America/Los_Angeles")  // daylight saving time
        guard case .date(let w) = ReceiptDate.parse("2015-01-23T12:18:09Z") else { throw CancellationError() }
        #expect(w.pstString == "2015-01-23 04:18:09 America/Los_Angeles")  // standard time
        #expect(w.utcString == "2015-01-23 12:18:09 UTC")
    }

    @Test func agreesWithFoundationOverManyInstants() {
        var seconds: Int64 = -2_000_000_000
        let formatter = ISO8601DateFormatter()
        while seconds < 40_000_000_000 {
            let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            guard case .date(let d) = ReceiptDate.parse(text) else {
                Issue.record("\(text) did not parse")
                return
            }
            #expect(d.epochMilliseconds == seconds * 1000)
            #expect(d.iso8601 == text)
            seconds += 86_400 * 37 + 3_607
        }
    }

    @Test func userDates() throws {
        #expect(ReceiptDate.parseUserDate("2024-03-05")?.epochMilliseconds == epochMS("2024-03-05T00:00:00Z"))
        #expect(ReceiptDate.parseUserDate("2024-03-05T10:00:00")?.epochMilliseconds == epochMS("2024-03-05T10:00:00Z"))
        #expect(ReceiptDate.parseUserDate("2024-03-05 10:00:00")?.epochMilliseconds == epochMS("2024-03-05T10:00:00Z"))
        #expect(ReceiptDate.parseUserDate("2024-03-05T10:00:00+0100")?.epochMilliseconds == epochMS("2024-03-05T09:00:00Z"))
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(ReceiptDate.parseUserDate("now", now: now)?.epochMilliseconds == 1_700_000_000_000)
        #expect(ReceiptDate.parseUserDate("tomorrow") == nil)
    }
}
