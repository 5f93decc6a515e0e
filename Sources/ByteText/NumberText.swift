/// Decimal numbers with thousands separators ("5,162"), as every note and message prints them.
public enum NumberText {
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        let first = digits.count % 3 == 0 ? 3 : digits.count % 3
        var i = 0
        for c in digits {
            if i > 0 && (i - first) % 3 == 0 { out.append(",") }
            out.append(c)
            i += 1
        }
        return out
    }
}
