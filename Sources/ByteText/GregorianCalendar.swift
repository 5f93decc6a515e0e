/// The one calendar every layer uses: the proleptic Gregorian calendar in days since 1970-01-01
/// (Howard Hinnant's algorithms), for ASN.1 times, receipt dates, Pacific time and ISO 8601 text.
public enum GregorianCalendar {
    /// Days since 1970-01-01 of a proleptic Gregorian date.
    @inlinable
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The (year, month, day) of a day count since 1970-01-01: the inverse of `days(year:month:day:)`.
    @inlinable
    public static func date(days z0: Int) -> (year: Int, month: Int, day: Int) {
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

    @inlinable
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Reads the fixed-width decimal fields of a date or time written as ASCII (`20150523121809Z`,
/// `2015-05-23T12:18:09Z`): the one digit reader of ASN.1 times and receipt dates.
@frozen
public struct DateDigits<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    public let bytes: Bytes
    /// The offset (from `bytes.startIndex`) of the next unread byte.
    public var position: Int

    @inlinable
    public init(_ bytes: Bytes) {
        self.bytes = bytes
        position = 0
    }

    @inlinable public var atEnd: Bool { position >= bytes.count }

    /// The byte at `position`, if any.
    @inlinable public var next: UInt8? { atEnd ? nil : bytes[bytes.startIndex + position] }

    /// The byte at `position` named for a message ("character '#'", "byte 0x0A"); call only when not `atEnd`.
    public var nextNamed: String { CharacterName.at(bytes, bytes.startIndex + position) }

    /// The value of the next `count` digits, consumed; nil (nothing consumed) unless all are digits.
    @inlinable
    public mutating func digits(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for k in 0..<count {
            let c = bytes[bytes.startIndex + position + k]
            guard c >= 0x30 && c <= 0x39 else { return nil }
            value = value * 10 + Int(c - 0x30)
        }
        position += count
        return value
    }

    /// Consumes the next byte when it is `a`, `b` or `c`.
    @inlinable
    public mutating func skip(_ a: UInt8, or b: UInt8? = nil, or c: UInt8? = nil) -> Bool {
        guard let byte = next, byte == a || byte == b || byte == c else { return false }
        position += 1
        return true
    }
}
