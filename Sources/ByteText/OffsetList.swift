/// A list of offsets, one per character of a layer (where character `i` came from in the text
/// around it), kept as runs of consecutive offsets. Found data is nearly always one run or a few
/// (a line, a JSON string with a handful of escapes, base64 wrapped at 76 characters), so a 50 MB
/// paste costs a few runs instead of 400 MB of `Int`s; any sequence still reads back exactly.
public struct OffsetList: RandomAccessCollection, Equatable, Hashable, Sendable, ExpressibleByArrayLiteral {
    /// Run `r` holds elements `starts[r] ..< starts[r + 1]` (the last one up to `count`), whose
    /// values are `origins[r]`, `origins[r] + 1`, …
    private var starts: [Int] = []
    private var origins: [Int] = []
    public private(set) var count = 0

    public init() {}

    /// `range`'s offsets in order, as one run.
    public init(identity range: Range<Int>) {
        if !range.isEmpty {
            starts = [0]
            origins = [range.lowerBound]
            count = range.count
        }
    }

    public init(_ offsets: some Sequence<Int>) {
        for offset in offsets { append(offset) }
    }

    public init(arrayLiteral offsets: Int...) { self.init(offsets) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "OffsetList index out of range")
        let run = run(containing: position)
        return origins[run] + position - starts[run]
    }

    /// How many runs of consecutive offsets the list holds.
    public var runCount: Int { starts.count }

    /// The runs: elements `start ..< start + length` are offsets `origin ..< origin + length`.
    public var runs: [(start: Int, origin: Int, length: Int)] {
        starts.indices.map { r in
            (starts[r], origins[r], (r + 1 < starts.count ? starts[r + 1] : count) - starts[r])
        }
    }

    public mutating func append(_ offset: Int) {
        if let last = starts.indices.last, origins[last] + (count - starts[last]) == offset {
            count += 1
            return
        }
        starts.append(count)
        origins.append(offset)
        count += 1
    }

    public mutating func append(contentsOf offsets: some Sequence<Int>) {
        for offset in offsets { append(offset) }
    }

    @discardableResult
    public mutating func removeLast() -> Int {
        let value = self[count - 1]
        count -= 1
        if let last = starts.last, last == count {
            starts.removeLast()
            origins.removeLast()
        }
        return value
    }

    /// Elements `range` of this list (their offsets, not re-based).
    public func slice(_ range: Range<Int>) -> OffsetList {
        var result = OffsetList()
        guard !range.isEmpty else { return result }
        var run = run(containing: range.lowerBound)
        var position = range.lowerBound
        while position < range.upperBound {
            let runEnd = Swift.min(run + 1 < starts.count ? starts[run + 1] : count, range.upperBound)
            result.starts.append(result.count)
            result.origins.append(origins[run] + position - starts[run])
            result.count += runEnd - position
            position = runEnd
            run += 1
        }
        return result
    }

    /// The last run whose start is at or before `position` (binary search).
    private func run(containing position: Int) -> Int {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    public static func == (a: OffsetList, b: OffsetList) -> Bool {
        a.count == b.count && a.starts == b.starts && a.origins == b.origins
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        hasher.combine(starts)
        hasher.combine(origins)
    }
}
