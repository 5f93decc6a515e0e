/// The one binary search over sorted tables (the redaction's stand-ins, values and spots; the
/// explorer's JSON rows; the parser's on-purpose offsets; diff's purchase keys): the first of
/// `0..<count` for which `before` is false, `before` holding on a prefix.
public enum SortedSearch {
    @inlinable
    public static func partition(_ count: Int, _ before: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if before(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension SortedSearch {
    /// Whether `sorted` (ascending) holds `value`.
    @inlinable
    public static func contains<T: Comparable>(_ sorted: [T], _ value: T) -> Bool {
        let at = partition(sorted.count) { sorted[$0] < value }
        return at < sorted.count && sorted[at] == value
    }

    /// Sorts `values` in place and keeps one of each (no second array).
    public static func sortKeepingOneOfEach<T: Comparable>(_ values: inout [T]) {
        values.sort()
        let kept = values.withUnsafeMutableBufferPointer { sorted in
            var kept = 0
            for i in sorted.indices where kept == 0 || sorted[i] != sorted[kept - 1] {
                sorted[kept] = sorted[i]
                kept += 1
            }
            return kept
        }
        values.removeLast(values.count - kept)
    }
}
