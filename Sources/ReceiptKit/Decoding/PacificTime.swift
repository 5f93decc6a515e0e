import ASN1Lenient
import ByteText

/// The America/Los_Angeles offset from UTC at an instant, for verifyReceipt's `_pst` dates, without
/// loading ICU's time-zone data (FoundationEssentials alone knows only fixed offsets). The table is
/// the tz database's history for the zone (`zdump -v America/Los_Angeles`, 1883–2006); from 2007 the
/// current US rule applies, as in ICU, forever after. `PacificTimeTests` compares it with
/// Foundation's `TimeZone(identifier: "America/Los_Angeles")` on every transition and on a sweep.
enum PacificTime {
    static let standard = -8 * 3600
    static let daylight = -7 * 3600
    /// Local mean time, before the railways' standard time of 1883-11-18 12:00 local.
    static let localMeanTime = -(7 * 3600 + 52 * 60 + 58)

    /// Seconds east of UTC at `epochSeconds` (a negative number: the zone is west).
    static func offset(atEpochSeconds t: Int64) -> Int {
        if t >= ruleStart { return ruleOffset(t) }
        // The last transition at or before t; even entries begin standard time, odd ones daylight.
        var low = 0, high = transitions.count
        while low < high {
            let mid = (low + high) / 2
            if transitions[mid] <= t { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return localMeanTime }
        return (low - 1) % 2 == 0 ? standard : daylight
    }

    /// 2007-01-01T08:00:00Z: from here the rule, not the table.
    static let ruleStart: Int64 = 1_167_638_400

    /// Daylight time from the second Sunday of March, 02:00 standard (10:00 UTC), to the first
    /// Sunday of November, 02:00 daylight (09:00 UTC).
    static func ruleOffset(_ t: Int64) -> Int {
        let days = t >= 0 ? t / 86_400 : (t - 86_399) / 86_400
        let year = GregorianCalendar.date(days: Int(days)).year
        let start = Int64(sunday(onOrAfter: 8, month: 3, year: year)) * 86_400 + 10 * 3600
        let end = Int64(sunday(onOrAfter: 1, month: 11, year: year)) * 86_400 + 9 * 3600
        return t >= start && t < end ? daylight : standard
    }

    /// Days since 1970-01-01 of the first Sunday on or after `day` of the month.
    static func sunday(onOrAfter day: Int, month: Int, year: Int) -> Int {
        let d = GregorianCalendar.days(year: year, month: month, day: day)
        let weekday = ((d + 4) % 7 + 7) % 7  // 1970-01-01 was a Thursday (4); Sunday is 0
        return d + (7 - weekday) % 7
    }

    /// Transition instants (seconds since 1970), 1883–2006, from the tz database.
    static let transitions: [Int64] = [
        -2717640000, -1633269600, -1615129200, -1601820000, -1583679600, -880207200, -765385200, -687967140,
        -662655600, -620838000, -608137200, -589388400, -576082800, -557938800, -544633200, -526489200,
        -513183600, -495039600, -481734000, -463590000, -450284400, -431535600, -418230000, -400086000,
        -386780400, -368636400, -355330800, -337186800, -323881200, -305737200, -292431600, -273682800,
        -260982000, -242233200, -226508400, -210783600, -195058800, -179334000, -163609200, -147884400,
        -131554800, -116434800, -100105200, -84376800, -68655600, -52927200, -37206000, -21477600,
        -5756400, 9972000, 25693200, 41421600, 57747600, 73476000, 89197200, 104925600,
        120646800, 126698400, 152096400, 162381600, 183546000, 199274400, 215600400, 230724000,
        247050000, 262778400, 278499600, 294228000, 309949200, 325677600, 341398800, 357127200,
        372848400, 388576800, 404902800, 420026400, 436352400, 452080800, 467802000, 483530400,
        499251600, 514980000, 530701200, 544615200, 562150800, 576064800, 594205200, 607514400,
        625654800, 638964000, 657104400, 671018400, 688554000, 702468000, 720003600, 733917600,
        752058000, 765367200, 783507600, 796816800, 814957200, 828871200, 846406800, 860320800,
        877856400, 891770400, 909306000, 923220000, 941360400, 954669600, 972810000, 986119200,
        1004259600, 1018173600, 1035709200, 1049623200, 1067158800, 1081072800, 1099213200, 1112522400,
        1130662800, 1143972000, 1162112400,
    ]
}
