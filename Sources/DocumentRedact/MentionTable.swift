import ByteText

/// The run's values looked for inside other values (`JSONPath.minimumMention` bytes or more), each
/// with the field of the value it repeats: ids of digits as numbers, other values' bytes end to
/// end, found by halves among those of one length, a stretch of a layer compared where it lies.
/// A dictionary keyed by strings took 6 MB for a 20,000-purchase receipt's 60,000 ids beside its
/// opened tree, and the scan made a string of every stretch it looked at (issue 32).
package struct MentionTable {
    private struct Entry {
        var start: UInt32
        var length: UInt32
        /// Which of a value's entries is kept: the lowest.
        var rank: Int32
        var field: RedactField
    }

    /// A value of 1 to 19 digits (every id a receipt or token has), kept as its number: within one
    /// length the numbers sort as the digits do. 16 bytes where an entry and its bytes took 32: a
    /// 50 MB receipt's 244,000 ids took 7.7 MB beside its opened tree (issue 32).
    private struct Number {
        var value: UInt64
        var rank: Int32
        var length: UInt8
        var field: RedactField
    }

    /// The values of one length: their entries and their numbers.
    package struct Group {
        package var length: Int
        var entries: Range<Int>
        var numbers: Range<Int>
        package var count: Int { entries.count + numbers.count }
    }

    private var bytes: [UInt8] = []
    /// Sorted by (length, bytes, rank) while values are added; one per value once `finish`ed.
    private var entries: [Entry] = []
    /// Sorted by (length, value, rank) likewise.
    private var numbers: [Number] = []
    /// The values' lengths, longest first (a value is matched before a shorter one it starts
    /// with), each with its values.
    package private(set) var lengths: [Group] = []
    private var added: Int32 = 0

    /// The longest value kept as a number: every 19-digit number fits in 64 bits.
    static let maxDigits = 19

    /// `capacity`: at most how many values will be added (the targets' count), so that the table
    /// does not grow by doubling beside the opened documents (room not written is address space).
    package init(capacity: Int = 0) {
        entries.reserveCapacity(capacity)
        numbers.reserveCapacity(capacity)
    }

    package var isEmpty: Bool { entries.isEmpty && numbers.isEmpty }

    /// Adds `text` with `field` when it is long enough to look for. A value added more than once
    /// keeps the field of its last addition `overriding`, or else of its first one.
    package mutating func add(_ text: String, _ field: RedactField, overriding: Bool) {
        let count = text.utf8.count
        guard count >= JSONPath.minimumMention else { return }
        added += 1
        let rank = overriding ? -added : added
        if let value = Self.number(text.utf8) {
            numbers.append(Number(value: value, rank: rank, length: UInt8(count), field: field))
            return
        }
        entries.append(Entry(start: UInt32(bytes.count), length: UInt32(count), rank: rank, field: field))
        bytes.append(contentsOf: text.utf8)
    }

    /// The number `digits` writes, when it is 1 to `maxDigits` decimal digits.
    @inline(__always)
    static func number<Digits: Collection<UInt8>>(_ digits: Digits) -> UInt64? {
        guard !digits.isEmpty, digits.count <= maxDigits else { return nil }
        var value: UInt64 = 0
        for c in digits {
            let digit = c &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }

    /// Sorts the values for lookups and keeps one of each.
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
            Self.keepFirstOfEach(&entries) { $0.length == $1.length && value($0).elementsEqual(value($1)) }
        }
        numbers.sort { ($0.length, $0.value, $0.rank) < ($1.length, $1.value, $1.rank) }
        Self.keepFirstOfEach(&numbers) { $0.length == $1.length && $0.value == $1.value }
        // Both sorted by length: walked together from the longest.
        lengths = []
        var (e, n) = (entries.endIndex, numbers.endIndex)
        while e > entries.startIndex || n > numbers.startIndex {
            let length = max(e > entries.startIndex ? Int(entries[e - 1].length) : 0, n > numbers.startIndex ? Int(numbers[n - 1].length) : 0)
            let entriesEnd = e, numbersEnd = n
            while e > entries.startIndex && entries[e - 1].length == length { e -= 1 }
            while n > numbers.startIndex && numbers[n - 1].length == length { n -= 1 }
            lengths.append(Group(length: length, entries: e..<entriesEnd, numbers: n..<numbersEnd))
        }
    }

    /// Keeps the first of each run of equal neighbours (sorted so that the one to keep, the lowest
    /// rank, comes first).
    private static func keepFirstOfEach<Item>(_ items: inout [Item], same: (Item, Item) -> Bool) {
        var kept = 0
        for i in items.indices where kept == 0 || !same(items[i], items[kept - 1]) {
            items[kept] = items[i]
            kept += 1
        }
        items.removeLast(items.count - kept)
    }

    /// The field of the value written at `range` of `text` (whose count is `group`'s length), or
    /// nil when no value is written there.
    package func field(at range: Range<Int>, of text: UnsafeBufferPointer<UInt8>, in group: Group) -> RedactField? {
        let stretch = UnsafeBufferPointer(rebasing: text[range])
        // Digits only: kept as a number if a value at all.
        if let number = Self.number(stretch) {
            let at = group.numbers.lowerBound + SortedSearch.partition(group.numbers.count) { numbers[group.numbers.lowerBound + $0].value < number }
            return at < group.numbers.upperBound && numbers[at].value == number ? numbers[at].field : nil
        }
        let entries = group.entries
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
            for group in lengths where i + group.length <= content.upperBound && allowed(i..<(i + group.length)) {
                guard let field = field(at: i..<(i + group.length), of: text, in: group) else { continue }
                found(i..<(i + group.length), field)
                matched = group.length
                break
            }
            i += max(matched, 1)
        }
    }
}
