import ByteText

/// The run's values looked for inside other values (`JSONPath.minimumMention` bytes or more), each
/// with the field of the value it repeats: their bytes end to end, found by halves among those of
/// one length, a stretch of a layer compared where it lies. A dictionary keyed by strings took
/// 6 MB for a 20,000-purchase receipt's 60,000 ids beside its opened tree, and the scan made a
/// string of every stretch it looked at (issue 32).
package struct MentionTable {
    private struct Entry {
        var start: UInt32
        var length: UInt32
        /// Which of a value's entries is kept: the lowest.
        var rank: Int32
        var field: RedactField
    }

    private var bytes: [UInt8] = []
    /// Sorted by (length, bytes, rank) while values are added; one per value once `finish`ed.
    private var entries: [Entry] = []
    /// The values' lengths, longest first (a value is matched before a shorter one it starts
    /// with), each with its entries.
    package private(set) var lengths: [(length: Int, entries: Range<Int>)] = []
    private var added: Int32 = 0

    /// `capacity`: at most how many values will be added (the targets' count), so that the table
    /// does not grow by doubling beside the opened documents.
    package init(capacity: Int = 0) { entries.reserveCapacity(capacity) }

    package var isEmpty: Bool { entries.isEmpty }

    /// Adds `text` with `field` when it is long enough to look for. A value added more than once
    /// keeps the field of its last addition `overriding`, or else of its first one.
    package mutating func add(_ text: String, _ field: RedactField, overriding: Bool) {
        let count = text.utf8.count
        guard count >= JSONPath.minimumMention else { return }
        added += 1
        entries.append(Entry(start: UInt32(bytes.count), length: UInt32(count), rank: overriding ? -added : added, field: field))
        bytes.append(contentsOf: text.utf8)
    }

    /// Sorts the values for lookups and keeps one entry of each.
    package mutating func finish() {
        bytes.withUnsafeBufferPointer { all in
            func value(_ entry: Entry) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[Int(entry.start)..<Int(entry.start + entry.length)])
            }
            entries.sort { a, b in
                if a.length != b.length { return a.length < b.length }
                let (x, y) = (value(a), value(b))
                if !x.elementsEqual(y) { return x.lexicographicallyPrecedes(y) }
                return a.rank < b.rank
            }
            var kept = 0
            for i in entries.indices where kept == 0 || entries[i].length != entries[kept - 1].length
                || !value(entries[i]).elementsEqual(value(entries[kept - 1])) {
                entries[kept] = entries[i]
                kept += 1
            }
            entries.removeLast(entries.count - kept)
        }
        lengths = []
        var i = entries.endIndex
        while i > entries.startIndex {
            let length = entries[i - 1].length
            var j = i - 1
            while j > entries.startIndex && entries[j - 1].length == length { j -= 1 }
            lengths.append((Int(length), j..<i))
            i = j
        }
    }

    /// The field of the value written at `range` of `text` (whose count is the value's length, one
    /// of `lengths`), or nil when no value is written there.
    package func field(at range: Range<Int>, of text: UnsafeBufferPointer<UInt8>, among entries: Range<Int>) -> RedactField? {
        let stretch = UnsafeBufferPointer(rebasing: text[range])
        return bytes.withUnsafeBufferPointer { all in
            func value(_ k: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: all[Int(self.entries[k].start)..<Int(self.entries[k].start + self.entries[k].length)])
            }
            let at = entries.lowerBound + SortedSearch.partition(entries.count) { value(entries.lowerBound + $0).lexicographicallyPrecedes(stretch) }
            return at < entries.upperBound && value(at).elementsEqual(stretch) ? self.entries[at].field : nil
        }
    }

    /// Every value of the table written in `content` of `text`, left to right: at each position the
    /// longest value that is there and `allowed` there, the scan going on after it (else one byte on).
    package func forEachMention(in text: UnsafeBufferPointer<UInt8>, _ content: Range<Int>,
                                allowed: (Range<Int>) -> Bool, _ found: (Range<Int>, RedactField) -> Void) {
        var i = content.lowerBound
        while i < content.upperBound {
            var matched = 0
            for (length, entries) in lengths where i + length <= content.upperBound && allowed(i..<(i + length)) {
                guard let field = field(at: i..<(i + length), of: text, among: entries) else { continue }
                found(i..<(i + length), field)
                matched = length
                break
            }
            i += max(matched, 1)
        }
    }
}
