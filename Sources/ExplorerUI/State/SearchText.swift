#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform

/// Searchable text, ASCII-folded once: fields of one byte buffer, `fieldsPerRow` consecutive
/// fields per row (an outline row's label, value, meaning, raw JSON and leaf text; one text per
/// row for a node tree's values). A query is then one substring scan of the buffer instead of
/// building or decoding every row. Used by `OutlineSearchIndex` and `TreeSearchIndex`.
///
/// Each field ends with `separator`, which no query holds (a query is UTF-8 text, where 0xFF never
/// occurs), so no match runs across two fields and only each row's end is kept: a byte a field
/// instead of an 8-byte end (a dense JSON body has millions of rows of five short fields).
struct SearchText: Sendable {
    static let separator: UInt8 = 0xFF
    let fieldsPerRow: Int
    private(set) var bytes: [UInt8] = []
    /// The end of each row in `bytes`, after its last field's separator.
    private(set) var rowEnds: [Int] = []
    private var fieldsInRow = 0

    init(fieldsPerRow: Int = 5) { self.fieldsPerRow = fieldsPerRow }

    var rowCount: Int { rowEnds.count }

    /// An outline row's five fields.
    mutating func append(label: String, value: String, meaning: String = "", raw: String = "", leaf: ArraySlice<UInt8> = []) {
        for text in [label, value, meaning, raw] { append(field: text.utf8) }
        append(field: leaf)
    }

    /// One field, folded to ASCII lower case.
    mutating func append<C: Collection>(field: C) where C.Element == UInt8 {
        let start = bytes.count
        bytes.append(contentsOf: field)
        bytes.withUnsafeMutableBufferPointer { all in
            for i in start..<all.count where all[i] >= 0x41 && all[i] <= 0x5A { all[i] |= 0x20 }
        }
        endField()
    }

    /// One field holding `String(value)`, written digit by digit without making the string.
    mutating func append(decimal value: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value.magnitude, at = digits.count
            repeat {
                at -= 1
                digits[at] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 { bytes.append(0x2D) }
            // One by one: most are a few digits, where `append(contentsOf:)` costs more than the copy.
            for digit in digits[at...] { bytes.append(digit) }
        }
        endField()
    }

    private mutating func endField() {
        bytes.append(Self.separator)
        fieldsInRow += 1
        if fieldsInRow == fieldsPerRow {
            rowEnds.append(bytes.count)
            fieldsInRow = 0
        }
    }

    /// The rows (ascending) with a field holding `needle` (lower case): the same test as
    /// `Search.containsFolded` on each field, since the fields are folded already. A match that
    /// runs across two fields does not count (it cannot: a field ends with a byte no query holds).
    func matchingRows(_ needle: [UInt8]) -> [Int] {
        var rows: [Int] = []
        let n = needle.count
        guard n > 0, !rowEnds.isEmpty, !needle.contains(Self.separator) else { return rows }
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { pattern in
                rowEnds.withUnsafeBufferPointer { ends in
                    guard let base = haystack.baseAddress, let key = pattern.baseAddress else { return }
                    var position = 0, row = 0
                    let end = ends[ends.count - 1]
                    while position + n <= end {
                        guard let at = ByteSearch.find(key, n, in: base, from: position, to: end) else { break }
                        while ends[row] <= at { row += 1 }
                        rows.append(row)
                        position = ends[row]  // the row's other fields need not be read
                        row += 1
                        if row >= ends.count { break }
                    }
                }
            }
        }
        return rows
    }
}
