/// Decimal numbers with thousands separators ("5,162"), as every note and message prints them.
public enum NumberText {
    public static func grouped(_ value: Int) -> String {
        // By UTF-8 digits: every loaded input's note has its size grouped, and a `Character` loop
        // cost 2.3 K instructions a number.
        let digits = Array(String(value.magnitude).utf8)
        var out: [UInt8] = value < 0 ? [UInt8(ascii: "-")] : []
        out.reserveCapacity(digits.count + digits.count / 3 + 1)
        let first = digits.count % 3 == 0 ? 3 : digits.count % 3
        for (i, digit) in digits.enumerated() {
            if i > 0 && (i - first) % 3 == 0 { out.append(UInt8(ascii: ",")) }
            out.append(digit)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
