@testable import DocumentCore
@testable import DocumentTimeline
import Testing

/// Issue 30: a gap under a minute is said in seconds, and every count agrees with its number.
struct TimelineWordsTests {
    static let gaps: [(Int64, String)] = [
        (14_000, "14 seconds"), (1_000, "1 second"), (400, "400 milliseconds"), (60_000, "1 minute"),
        (59_999, "59 seconds"), (3 * 3_600_000, "3 hours"), (26 * 3_600_000, "1 day 2 hours"),
    ]

    @Test("gap lengths", arguments: gaps)
    func duration(_ ms: Int64, _ words: String) {
        #expect(Timeline.duration(ms) == words)
    }

    @Test func counts() {
        #expect(TimelineText.count(1, "gap") == "1 gap")
        #expect(TimelineText.count(0, "gap") == "0 gaps")
        #expect(TimelineText.count(2, "event") == "2 events")
    }
}
