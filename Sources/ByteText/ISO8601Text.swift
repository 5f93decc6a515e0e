/// The one writer of ISO 8601 UTC text for an instant in milliseconds since 1970 (receipt dates,
/// StoreKit dates, the JSON reports, certificate validity). Years 0000–9999 are written digit by digit
/// into one `String`: a receipt's purchases carry hundreds of dates.
public enum ISO8601Text {
    /// `.000` for a whole second, or nothing.
    public enum Fraction: Sendable { case whenNonZero, always }

    /// How a year outside 0000–9999 is written. Each caller kept the form it wrote before this
    /// writer existed, so that no output changed:
    public enum FarYears: Sendable {
        /// `-1-12-31`, `10000-01-01`: the year's digits as they come (receipt dates, `ReceiptDate`).
        case plain
        /// `-000001-12-31`, `+010000-01-01`: ISO 8601's expanded form, as JavaScript's
        /// `toISOString` writes it (StoreKit's millisecond dates, so a Node.js server's read the same).
        case expanded
        /// What Foundation's `ISO8601DateFormatter` wrote through ICU (the JSON reports): the
        /// Gregorian year from 10000 on, and before year 0 the Julian calendar's year of the era
        /// (BC), four digits and no sign.
        case julianEra
    }

    /// `string`'s bytes for years 0000–9999, written at `out` (room for 24 bytes); the number
    /// written, or nil (nothing written) for another year, which `string` alone writes. For the
    /// JSON reports, which write hundreds of dates into one buffer without a `String` each.
    public static func write(epochMilliseconds ms: Int64, fraction: Fraction, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        let (y, m, d, secondOfDay, milliseconds, _) = civil(epochMilliseconds: ms)
        guard (0...9999).contains(y) else { return nil }
        let withFraction = fraction == .always || milliseconds != 0
        return writeFixedWidth(year: y, month: m, day: d, second: secondOfDay, ms: withFraction ? milliseconds : nil, into: out)
    }

    /// The UTC calendar date, second of the day, milliseconds and days since 1970 of an instant (floored, so an
    /// instant before 1970 still has 0-999 milliseconds).
    @inline(__always)
    static func civil(epochMilliseconds ms: Int64) -> (year: Int, month: Int, day: Int, secondOfDay: Int, milliseconds: Int, days: Int) {
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (y, m, d) = GregorianCalendar.date(days: Int(days))
        return (y, m, d, Int(rest), Int(ms - seconds * 1000), Int(days))
    }

    public static func string(epochMilliseconds ms: Int64, fraction: Fraction, farYears: FarYears) -> String {
        let (y, m, d, secondOfDay, milliseconds, days) = civil(epochMilliseconds: ms)
        let withFraction = fraction == .always || milliseconds != 0
        if (0...9999).contains(y) {
            return fixedWidth(year: y, month: m, day: d, second: secondOfDay, ms: withFraction ? milliseconds : nil)
        }
        let date: String
        switch farYears {
        case .plain:
            date = "\(y)-\(pad(m, 2))-\(pad(d, 2))"
        case .expanded:
            date = (y < 0 ? "-" : "+") + pad(Int(y.magnitude), 6) + "-\(pad(m, 2))-\(pad(d, 2))"
        case .julianEra where y < 0:
            let (jy, jm, jd) = julianFromDays(days)
            date = pad(1 - jy, 4) + "-\(pad(jm, 2))-\(pad(jd, 2))"
        case .julianEra:
            date = "\(y)-\(pad(m, 2))-\(pad(d, 2))"
        }
        let time = "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        return date + time + (withFraction ? "." + pad(milliseconds, 3) : "") + "Z"
    }

    /// The Julian calendar's (astronomical year, month, day) of a day count since 1970-01-01.
    static func julianFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        // The Julian calendar repeats every 1,461 days (4 years): shift into the algorithm's range.
        var jdn = days + 2_440_588
        let cycles = jdn < 0 ? -jdn / 1461 + 1 : 0
        jdn += cycles * 1461
        let c = jdn + 32_082
        let d = (4 * c + 3) / 1461
        let e = c - 1461 * d / 4
        let m = (5 * e + 2) / 153
        return (d - 4800 + m / 10 - 4 * cycles, m + 3 - 12 * (m / 10), e - (153 * m + 2) / 5 + 1)
    }

    static func pad(_ value: Int, _ width: Int) -> String { PlainText.zeroPadded(value, width: width) }

    /// `YYYY-MM-DDThh:mm:ss[.mmm]Z` for years 0000–9999.
    static func fixedWidth(year: Int, month: Int, day: Int, second: Int, ms: Int?) -> String {
        String(unsafeUninitializedCapacity: ms == nil ? 20 : 24) { out in
            writeFixedWidth(year: year, month: month, day: day, second: second, ms: ms, into: out.baseAddress!)
        }
    }

    /// `fixedWidth`'s 20 or 24 bytes at `out`; returns how many.
    static func writeFixedWidth(year: Int, month: Int, day: Int, second: Int, ms: Int?, into out: UnsafeMutablePointer<UInt8>) -> Int {
        let length = ms == nil ? 20 : 24
        @inline(__always) func put(_ value: Int, at position: Int) { RawByteBuffer.twoDigits(value, out + position) }
        put(year / 100, at: 0); put(year % 100, at: 2); out[4] = 0x2D; put(month, at: 5); out[7] = 0x2D; put(day, at: 8)
        out[10] = 0x54
        put(second / 3600, at: 11); out[13] = 0x3A; put(second / 60 % 60, at: 14); out[16] = 0x3A
        put(second % 60, at: 17)
        if let ms { out[19] = 0x2E; out[20] = UInt8(truncatingIfNeeded: 0x30 + ms / 100); put(ms % 100, at: 21) }
        out[length - 1] = 0x5A
        return length
    }
}
