import ASN1Lenient

/// ISO 8601 UTC text for milliseconds since 1970, without Foundation (days → civil date by
/// `TimeValue.civilFromDays`). Fractional milliseconds (Xcode writes them) are truncated.
public enum ISODate {
    public static func string(milliseconds: Double) -> String {
        guard milliseconds.isFinite, abs(milliseconds) < 1e16 else { return "out of range" }
        let totalMs = Int64(milliseconds.rounded(.down))
        let ms = Int(((totalMs % 1000) + 1000) % 1000)
        let seconds = (totalMs - Int64(ms)) / 1000
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let civil = TimeValue.civilFromDays(Int(days))
        let (year, month, day) = (Int64(civil.year), Int64(civil.month), Int64(civil.day))
        if (0...9999).contains(year) {
            return fixedWidth(year: Int(year), month: Int(month), day: Int(day), second: Int(secondOfDay), ms: ms)
        }
        return padded(year: year, month: month, day: day, second: secondOfDay, ms: Int64(ms))
    }

    /// The general form: each part zero-padded to its width. A year outside 0-9999 is written in
    /// ISO 8601's expanded form as JavaScript's `toISOString` writes it (sign and six digits:
    /// "-000001", "+010000"), so a date from a Node.js server reads the same here.
    static func padded(year: Int64, month: Int64, day: Int64, second: Int64, ms: Int64) -> String {
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v.magnitude)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        let yearText = (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(year, 6)
        return "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(second / 3600, 2)):"
            + "\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2)).\(pad(ms, 3))Z"
    }

    /// The same text as the padded form for years 0-9999, written into one 24-byte `String` (the
    /// seven interpolated pieces were most of a payload's date fields' cost).
    static func fixedWidth(year: Int, month: Int, day: Int, second: Int, ms: Int) -> String {
        String(unsafeUninitializedCapacity: 24) { out in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var v = value
                for i in stride(from: offset + width - 1, through: offset, by: -1) {
                    out[i] = UInt8(ascii: "0") + UInt8(v % 10)
                    v /= 10
                }
            }
            put(year, 4, at: 0)
            out[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            out[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            out[10] = UInt8(ascii: "T")
            put(second / 3600, 2, at: 11)
            out[13] = UInt8(ascii: ":")
            put(second / 60 % 60, 2, at: 14)
            out[16] = UInt8(ascii: ":")
            put(second % 60, 2, at: 17)
            out[19] = UInt8(ascii: ".")
            put(ms, 3, at: 20)
            out[23] = UInt8(ascii: "Z")
            return 24
        }
    }
}
