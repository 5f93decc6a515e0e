/// The binary search the redaction's sorted tables share (stand-ins by value, digit stand-ins,
/// target spots): the first of `0..<count` for which `before` is false, `before` holding on a prefix.
enum SortedSearch {
    static func partition(_ count: Int, _ before: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if before(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
