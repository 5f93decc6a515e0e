import Foundation

/// A Markdown table, printed as aligned text (still valid Markdown).
public struct Table {
    public var header: [String]
    public var rows: [[String]] = []
    /// Columns aligned right (numbers).
    public var rightAligned: Set<Int>

    public init(_ header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
    }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func render() -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var out = "|"
            for (i, w) in widths.enumerated() {
                let cell = i < cells.count ? cells[i] : ""
                let pad = String(repeating: " ", count: w - cell.count)
                out += " " + (rightAligned.contains(i) ? pad + cell : cell + pad) + " |"
            }
            return out
        }
        var lines = [line(header)]
        lines.append("|" + widths.enumerated().map { i, w in
            rightAligned.contains(i) ? " " + String(repeating: "-", count: w - 1) + ": |"
                                     : " " + String(repeating: "-", count: w) + " |"
        }.joined())
        for row in rows { lines.append(line(row)) }
        return lines.joined(separator: "\n")
    }
}

public enum Format {
    public static func ms(_ nanos: Double) -> String {
        let ms = nanos / 1_000_000
        if ms >= 100 { return String(format: "%.0f", ms) }
        if ms >= 10 { return String(format: "%.1f", ms) }
        if ms >= 1 { return String(format: "%.2f", ms) }
        return String(format: "%.3f", ms)
    }

    public static func fixed(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }

    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        let first = digits.count % 3 == 0 ? 3 : digits.count % 3
        for (i, c) in digits.enumerated() {
            if i > 0 && (i - first) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }

    /// "3.4×" (how many times faster `other` is than `ours`, > 1 means ours is faster).
    public static func ratio(_ theirs: Double, _ ours: Double) -> String {
        guard ours > 0 else { return "-" }
        return String(format: "%.2f×", theirs / ours)
    }
}
