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
struct SearchText: Sendable {
    let fieldsPerRow: Int
    private(set) var bytes: [UInt8] = []
    /// The end of each field in `bytes`; a row's fields are `fieldsPerRow` consecutive entries.
    private(set) var fieldEnds: [Int] = []

    init(fieldsPerRow: Int = 5) { self.fieldsPerRow = fieldsPerRow }

    var rowCount: Int { fieldEnds.count / fieldsPerRow }

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
        fieldEnds.append(bytes.count)
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
        fieldEnds.append(bytes.count)
    }

    /// The rows (ascending) with a field holding `needle` (lower case): the same test as
    /// `Search.containsFolded` on each field, since the fields are folded already. A match that
    /// runs across two fields does not count.
    func matchingRows(_ needle: [UInt8]) -> [Int] {
        var rows: [Int] = []
        let n = needle.count
        guard n > 0, !bytes.isEmpty else { return rows }
        let perRow = fieldsPerRow
        bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { pattern in
                fieldEnds.withUnsafeBufferPointer { ends in
                    guard let base = haystack.baseAddress, let key = pattern.baseAddress else { return }
                    var position = 0, field = 0
                    while position + n <= haystack.count {
                        guard let at = ByteSearch.find(key, n, in: base, from: position, to: haystack.count) else { break }
                        while ends[field] <= at { field += 1 }
                        if at + n <= ends[field] {
                            let row = field / perRow
                            rows.append(row)
                            field = (row + 1) * perRow - 1
                            position = ends[field]  // the row's other fields need not be read
                            field += 1
                            if field >= ends.count { break }
                        } else {
                            position = at + 1
                        }
                    }
                }
            }
        }
        return rows
    }
}
