import ByteText

/// A decoded UTCTime or GeneralizedTime.
public struct TimeValue: Sendable, Equatable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Fractional seconds digits as written (GeneralizedTime only), without the separator.
    public var fraction: String
    /// Offset from UTC in minutes; nil for local time (no zone designator).
    public var utcOffsetMinutes: Int?

    /// Seconds since 1970-01-01T00:00:00Z (local times are taken as UTC).
    public var epochSeconds: Int64 {
        let days = GregorianCalendar.days(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return seconds - Int64((utcOffsetMinutes ?? 0) * 60)
    }

    /// ISO 8601 as written (zone kept).
    public var iso8601: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
        if !fraction.isEmpty { text += "." + fraction }
        if let offset = utcOffsetMinutes {
            if offset == 0 { text += "Z" } else {
                text += (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + ":" + two(abs(offset) % 60)
            }
        }
        return text
    }

    enum ParseResult { case ok(TimeValue, notDER: String?), malformed(String) }

    /// Parses the X.680 forms: UTCTime YYMMDDhhmm[ss](Z|±hhmm); GeneralizedTime
    /// YYYYMMDDhh[mm[ss[(.|,)f+]]][Z|±hh[mm]].
    static func parse<C: Collection>(_ content: C, generalized: Bool) -> ParseResult where C.Element == UInt8 {
        let chars = Array(content)
        var reader = DateDigits(chars)
        func digits(_ n: Int) -> Int? { reader.digits(n) }
        var t = TimeValue(year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, fraction: "", utcOffsetMinutes: nil)
        var derIssue: String?
        if generalized {
            guard let y = digits(4) else { return .malformed("expected a 4-digit year") }
            t.year = y
        } else {
            guard let y = digits(2) else { return .malformed("expected a 2-digit year") }
            t.year = y < 50 ? 2000 + y : 1900 + y  // RFC 5280's window
        }
        guard let mo = digits(2), let d = digits(2), let h = digits(2) else {
            return .malformed("expected month, day and hour as two digits each")
        }
        (t.month, t.day, t.hour) = (mo, d, h)
        var hasSeconds = false
        if let m = digits(2) {
            t.minute = m
            if let s = digits(2) { t.second = s; hasSeconds = true }
        } else if !generalized {
            return .malformed("UTCTime needs minutes")
        }
        if generalized && hasSeconds, let separator = reader.next, separator == 0x2E || separator == 0x2C {
            if separator == 0x2C { derIssue = "DER uses '.' before fractional seconds, not ','" }
            reader.position += 1
            let start = reader.position
            while let c = reader.next, c >= 0x30 && c <= 0x39 { reader.position += 1 }
            guard reader.position > start else { return .malformed("a fractional-seconds separator with no digits") }
            t.fraction = String(decoding: chars[start..<reader.position], as: UTF8.self)
            if t.fraction.hasSuffix("0") { derIssue = "DER forbids trailing zeros in fractional seconds" }
        }
        if let zone = reader.next {
            switch zone {
            case 0x5A:
                t.utcOffsetMinutes = 0
                reader.position += 1
            case 0x2B, 0x2D:
                let sign = zone == 0x2D ? -1 : 1
                reader.position += 1
                guard let oh = digits(2), oh <= 23 else { return .malformed("a malformed UTC offset") }
                var om = 0
                if let m = digits(2) { om = m } else if !generalized { return .malformed("UTCTime offsets need minutes") }
                guard om <= 59 else { return .malformed("a malformed UTC offset") }
                t.utcOffsetMinutes = sign * (oh * 60 + om)
            default:
                return .malformed("unexpected \(reader.nextNamed) at position \(reader.position)")
            }
        } else if !generalized {
            return .malformed("UTCTime needs 'Z' or an offset")
        }
        guard reader.atEnd else { return .malformed("unexpected characters after the time zone") }
        guard (1...12).contains(t.month) else { return .malformed("month \(t.month) is out of range") }
        guard t.day >= 1 && t.day <= GregorianCalendar.daysIn(month: t.month, year: t.year) else {
            return .malformed("day \(t.day) does not exist in month \(t.month)")
        }
        guard t.hour <= 23, t.minute <= 59, t.second <= 60 else { return .malformed("the time of day is out of range") }
        if derIssue == nil {
            if !hasSeconds { derIssue = "DER requires seconds" }
            else if t.utcOffsetMinutes != 0 { derIssue = "DER requires the time in UTC with a final 'Z'" }
        }
        return .ok(t, notDER: derIssue)
    }

    static func check(_ bytes: UnsafeBufferPointer<UInt8>, _ content: Range<Int>, generalized: Bool) -> ValueProblem? {
        let kind = generalized ? "GeneralizedTime" : "UTCTime"
        switch parse(UnsafeBufferPointer(rebasing: bytes[content]), generalized: generalized) {
        case .malformed(let why):
            return ValueProblem(.timeMalformed, content, "malformed \(kind): \(why)")
        case .ok(_, let notDER?):
            return ValueProblem(.timeNotDER, content, "\(kind) is not in DER form: \(notDER)")
        case .ok(_, nil):
            return nil
        }
    }
}
