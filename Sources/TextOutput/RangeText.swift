/// The one notation for a range of bytes or characters in what people read: inclusive, first-last
/// (`bytes 252-267`), the way `dump` has always printed its diagnostics' ranges; one position alone
/// (`byte 252`), and an empty range by where it would start (`at 252`). Every output (dump, explain,
/// diff, tour, verify, the explorer) writes ranges through it.
public enum RangeText {
    /// "12-45", "12", "at 12".
    public static func span(_ range: Range<Int>) -> String {
        switch range.count {
        case ..<1: "at \(range.lowerBound)"
        case 1: "\(range.lowerBound)"
        default: "\(range.lowerBound)-\(range.upperBound - 1)"
        }
    }

    /// "bytes 12-45", "byte 12", "at 12" (or `characters` / `character`, …).
    public static func text(_ range: Range<Int>, plural: String = "bytes", singular: String = "byte") -> String {
        switch range.count {
        case ..<1: "at \(range.lowerBound)"
        case 1: "\(singular) \(range.lowerBound)"
        default: "\(plural) \(span(range))"
        }
    }
}
