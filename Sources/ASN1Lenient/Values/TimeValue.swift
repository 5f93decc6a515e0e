/// A decoded UTCTime or GeneralizedTime.
public struct TimeValue: Sendable, Equatable {
    public var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// Fractional seconds digits as written (GeneralizedTime only), without the separator.
    public var fraction: String
    /// Offset from UTC in minutes; nil for local time (no zone designator).
    public var utcOffsetMinutes: Int?

    /// Seconds since 1970-01-01T00:00:00Z (local times are taken as UTC).
    public var epochSeconds: Int64 {
        let days = TimeValue.daysFromCivil(year: year, month: month, day: day)
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

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian (year, month, day) of a day count since 1970-01-01: the inverse of
    /// `daysFromCivil` (Howard Hinnant's algorithm). The one calendar every layer uses.
    public static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    enum ParseResult { case ok(TimeValue, notDER: String?), malformed(String) }

    /// Parses the X.680 forms: UTCTime YYMMDDhhmm[ss](Z|±hhmm); GeneralizedTime
    /// YYYYMMDDhh[mm[ss[(.|,)f+]]][Z|±hh[mm]].
    static func parse<C: Collection>(_ content: C, generalized: Bool) -> ParseResult where C.Element == UInt8 {
        let chars = Array(content)
        var i = 0
        func digits(_ n: Int) -> Int? {
            guard i + n <= chars.count else { return nil }
            var v = 0
            for k in 0..<n {
                let c = chars[i + k]
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int(c - 0x30)
            }
            i += n
            return v
        }
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
        if generalized && hasSeconds && i < chars.count && (chars[i] == 0x2E || chars[i] == 0x2C) {
            if chars[i] == 0x2C { derIssue = "DER uses '.' before fractional seconds, not ','" }
            i += 1
            let start = i
            while i < chars.count && chars[i] >= 0x30 && chars[i] <= 0x39 { i += 1 }
            guard i > start else { return .malformed("a fractional-seconds separator with no digits") }
            t.fraction = String(decoding: chars[start..<i], as: UTF8.self)
            if t.fraction.hasSuffix("0") { derIssue = "DER forbids trailing zeros in fractional seconds" }
        }
        if i < chars.count {
            switch chars[i] {
            case 0x5A:
                t.utcOffsetMinutes = 0
                i += 1
            case 0x2B, 0x2D:
                let sign = chars[i] == 0x2D ? -1 : 1
                i += 1
                guard let oh = digits(2), oh <= 23 else { return .malformed("a malformed UTC offset") }
                var om = 0
                if let m = digits(2) { om = m } else if !generalized { return .malformed("UTCTime offsets need minutes") }
                guard om <= 59 else { return .malformed("a malformed UTC offset") }
                t.utcOffsetMinutes = sign * (oh * 60 + om)
            default:
                return .malformed("unexpected character '\(printable(chars[i]))' at position \(i)")
            }
        } else if !generalized {
            return .malformed("UTCTime needs 'Z' or an offset")
        }
        guard i == chars.count else { return .malformed("unexpected characters after the time zone") }
        guard (1...12).contains(t.month) else { return .malformed("month \(t.month) is out of range") }
        guard t.day >= 1 && t.day <= daysIn(month: t.month, year: t.year) else {
            return .malformed("day \(t.day) does not exist in month \(t.month)")
        }
        guard t.hour <= 23, t.minute <= 59, t.second <= 60 else { return .malformed("the time of day is out of range") }
        if derIssue == nil {
            if !hasSeconds { derIssue = "DER requires seconds" }
            else if t.utcOffsetMinutes != 0 { derIssue = "DER requires the time in UTC with a final 'Z'" }
        }
        return .ok(t, notDER: derIssue)
    }

    static func printable(_ c: UInt8) -> String {
        c >= 0x20 && c < 0x7F ? String(UnicodeScalar(c)) : "\\x" + hexByte(c)
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
