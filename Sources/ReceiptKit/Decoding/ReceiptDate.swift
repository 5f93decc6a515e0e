import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A receipt date: an RFC 3339 timestamp read from an IA5String, kept as written and as epoch
/// milliseconds. Parsing is pure Swift (no DateFormatter): `Z`, `+01:00`, `+0100` and fractional
/// seconds are accepted; an empty string means "absent".
public struct ReceiptDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z (fractional seconds beyond milliseconds truncated).
    public var epochMilliseconds: Int64 {
        // The text stays what it was (as when it was stored at init): pin it before the instant moves.
        didSet { if writtenText == nil && epochMilliseconds != oldValue { writtenText = ReceiptDate(epochMilliseconds: oldValue).iso8601 } }
    }
    /// The offset written in the string, in minutes east of UTC.
    public var utcOffsetMinutes: Int
    /// The text when it differs from `iso8601`; nil when it is exactly `iso8601` (what nearly every
    /// receipt writes), so that opening a receipt does not build a `String` per date.
    private var writtenText: String?

    /// The string exactly as the receipt holds it.
    public var text: String {
        get { writtenText ?? iso8601 }
        set { writtenText = newValue }
    }

    /// Rebuilt exactly by `ReceiptDate(epochMilliseconds:)` (the field table stores only the instant).
    var isCanonicalUTC: Bool { writtenText == nil && utcOffsetMinutes == 0 }

    public init(epochMilliseconds: Int64, utcOffsetMinutes: Int = 0, text: String? = nil) {
        self.epochMilliseconds = epochMilliseconds
        self.utcOffsetMinutes = utcOffsetMinutes
        self.writtenText = text
    }

    public static func < (a: ReceiptDate, b: ReceiptDate) -> Bool { a.epochMilliseconds < b.epochMilliseconds }
    public static func == (a: ReceiptDate, b: ReceiptDate) -> Bool { a.epochMilliseconds == b.epochMilliseconds }
    public func hash(into hasher: inout Hasher) { hasher.combine(epochMilliseconds) }

    public var description: String { text }

    public var date: Date { Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000) }

    public init(_ date: Date) {
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
        let limit = Double(ReceiptDate.limit)
        self.init(epochMilliseconds: ms.isNaN ? 0 : Int64(Swift.max(-limit, Swift.min(limit, ms))))
    }

    /// ±10^15 ms (about ±31,700 years): formatting clamps to this so that no value can overflow.
    static let limit: Int64 = 1_000_000_000_000_000

    // MARK: - Parsing

    public enum ParseResult: Sendable, Equatable {
        case date(ReceiptDate)
        /// The empty string: the receipt says "no such date".
        case absent
        /// Why the text is not an RFC 3339 date.
        case invalid(String)
    }

    public static func parse(_ text: String) -> ParseResult { parse(Array(text.utf8)) }

    public static func parse<C: Collection>(_ bytes: C) -> ParseResult where C.Element == UInt8 {
        let c = Array(bytes)
        return c.withUnsafeBufferPointer { parse($0) }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; `t`/`z` and a space separator are
    /// accepted too (RFC 3339 §5.6 note). Reads the bytes in place: the decoder calls it for every
    /// date of every purchase.
    public static func parse(_ c: UnsafeBufferPointer<UInt8>) -> ParseResult {
        if c.isEmpty { return .absent }
        var reader = DateDigits(c)
        guard let year = reader.digits(4) else { return .invalid("expected a 4-digit year at the start") }
        guard reader.skip(0x2D), let month = reader.digits(2), reader.skip(0x2D), let day = reader.digits(2) else {
            return .invalid("expected YYYY-MM-DD")
        }
        guard reader.skip(0x54, or: 0x74, or: 0x20) else { return .invalid("expected 'T' between the date and the time") }
        guard let hour = reader.digits(2), reader.skip(0x3A), let minute = reader.digits(2), reader.skip(0x3A),
              let second = reader.digits(2) else {
            return .invalid("expected hh:mm:ss after the 'T'")
        }
        var millis = 0
        if reader.skip(0x2E) {
            let start = reader.position
            var scale = 100
            while let d = reader.next, d >= 0x30 && d <= 0x39 {
                millis += Int(d - 0x30) * scale
                scale /= 10
                reader.position += 1
            }
            guard reader.position > start else { return .invalid("a '.' with no fractional digits") }
        }
        var offset = 0
        guard let zone = reader.next else { return .invalid("no time zone ('Z' or an offset such as +01:00)") }
        switch zone {
        case 0x5A, 0x7A:
            reader.position += 1
        case 0x2B, 0x2D:
            let sign = zone == 0x2D ? -1 : 1
            reader.position += 1
            guard let oh = reader.digits(2) else { return .invalid("a malformed UTC offset") }
            _ = reader.skip(0x3A)
            guard let om = reader.digits(2), oh <= 23, om <= 59 else { return .invalid("a malformed UTC offset") }
            offset = sign * (oh * 60 + om)
        default:
            return .invalid("unexpected \(reader.nextNamed) where the time zone should be")
        }
        guard reader.atEnd else { return .invalid("unexpected characters after the time zone") }
        guard (1...12).contains(month) else { return .invalid("month \(month) does not exist") }
        guard day >= 1 && day <= GregorianCalendar.daysIn(month: month, year: year) else {
            return .invalid("day \(day) does not exist in \(year)-\(two(month))")
        }
        guard hour <= 23, minute <= 59, second <= 60 else { return .invalid("the time of day \(two(hour)):\(two(minute)):\(two(second)) is out of range") }
        let days = Int64(GregorianCalendar.days(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset * 60)
        // `YYYY-MM-DDThh:mm:ssZ` with a second below 60 is exactly what `iso8601` writes back: keep no copy.
        let canonical = c.count == 20 && c[10] == 0x54 && c[19] == 0x5A && second <= 59
        let text: String? = canonical ? nil : String(decoding: c, as: UTF8.self)
        return .date(ReceiptDate(epochMilliseconds: seconds * 1000 + Int64(millis), utcOffsetMinutes: offset, text: text))
    }

    /// Reads a date a user typed: RFC 3339, `YYYY-MM-DD` (midnight UTC),
    /// `YYYY-MM-DD hh:mm:ss` / `YYYY-MM-DDThh:mm:ss` (UTC), or `now`.
    public static func parseUserDate(_ text: String, now: Date = Date()) -> ReceiptDate? {
        let s = PlainText.trimmingWhitespace(text)
        if s.lowercased() == "now" { return ReceiptDate(now) }
        if case .date(let d) = parse(s) { return d }
        if s.count == 10, case .date(let d) = parse(s + "T00:00:00Z") { return d }
        if s.count == 19, case .date(let d) = parse(s + "Z") { return d }
        return nil
    }

    // MARK: - Formatting

    /// `2015-05-23 12:18:09 Etc/GMT`, verifyReceipt's form.
    public var gmtString: String { Self.civil(epochMilliseconds, offsetSeconds: 0) + " Etc/GMT" }

    /// `2015-05-23 05:18:09 America/Los_Angeles`, verifyReceipt's `_pst` form (daylight saving applied).
    public var pstString: String {
        Self.civil(epochMilliseconds, offsetSeconds: losAngelesOffsetSeconds) + " America/Los_Angeles"
    }

    /// America/Los_Angeles's offset from UTC at this instant (daylight saving applied), as `pstString` uses it.
    public var losAngelesOffsetSeconds: Int {
        let ms = epochMilliseconds
        return PacificTime.offset(atEpochSeconds: ms >= 0 ? ms / 1000 : (ms - 999) / 1000)
    }

    /// `1432383489000`, verifyReceipt's `_ms` form.
    public var millisecondsString: String { String(epochMilliseconds) }

    /// `2015-05-23T12:18:09Z` (with `.250` when there are milliseconds), in UTC.
    public var iso8601: String {
        let ms = epochMilliseconds
        let clamped = Swift.max(-Self.limit, Swift.min(Self.limit, ms))
        let text = ISO8601Text.string(epochMilliseconds: clamped, fraction: .whenNonZero, farYears: .plain)
        guard clamped != ms else { return text }
        // Past the clamp the date is the limit's and the fraction the instant's own, as it always was.
        let fraction = Int(((ms % 1000) + 1000) % 1000)
        return fraction == 0 ? text : String(text.dropLast()) + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }

    /// `2015-05-23 12:18:09 UTC`, for reports.
    public var utcString: String { Self.civil(epochMilliseconds, offsetSeconds: 0) + " UTC" }

    /// `YYYY-MM-DD hh:mm:ss` of an instant shifted by `offsetSeconds`.
    static func civil(_ ms0: Int64, offsetSeconds: Int) -> String {
        let ms = Swift.max(-limit, Swift.min(limit, ms0))
        var seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        seconds += Int64(offsetSeconds)
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (y, m, d) = GregorianCalendar.date(days: Int(days))
        let h = Int(rest / 3600), mi = Int(rest % 3600 / 60), s = Int(rest % 60)
        let year = y >= 0 && y < 10000 ? String(String(y + 10000).dropFirst()) : String(y)
        return "\(year)-\(two(m))-\(two(d)) \(two(h)):\(two(mi)):\(two(s))"
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
