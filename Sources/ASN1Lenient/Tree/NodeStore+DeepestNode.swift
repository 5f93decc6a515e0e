extension NodeStore {
    /// The deepest node whose bytes contain `offset`, in O(log n + depth): pre-order offsets never
    /// decrease, so the last node starting at or before `offset` is the answer or one of its ancestors.
    public func deepestNode(containing offset: Int) -> Int? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(self[mid].offset) <= offset { lo = mid + 1 } else { hi = mid }
        }
        var candidate = lo - 1
        while candidate >= 0 {
            if self[candidate].byteRange.contains(offset) { return candidate }
            candidate = parentIndex(candidate)
        }
        return nil
    }
}
