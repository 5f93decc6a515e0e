import ASN1Lenient

extension AppState {
    /// The path of file-tree node `node` as sibling positions, e.g. `0 › 1 › 3`.
    public func pathText(_ node: Int, ascii: Bool) -> String {
        guard node >= 0 else { return "" }
        var positions: [Int] = []
        var current = node
        while current >= 0 {
            positions.append(tree.siblingPosition(of: current))
            current = tree.nodes.parentIndex(current)
        }
        return positions.reversed().map(String.init).joined(separator: ascii ? " > " : " › ")
    }

    /// Index of the first element of the ascending array greater than `value`.
    func firstIndex(in sorted: [Int], greaterThan value: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] <= value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
