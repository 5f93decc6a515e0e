import ASN1Lenient

/// Facts about the tree computed once at load, so that every key and every frame can be answered
/// by looking things up rather than scanning the tree. Only nodes with a diagnostic or an
/// ancestor of one have entries: a tree of millions of clean nodes costs no array a node (issue 32,
/// memory bounded by the input).
public struct TreeFacts: Sendable {
    /// Worst severity carried by a node or any of its descendants (`Severity.rawValue`); absent for none.
    let subtreeSeverity: [Int: UInt8]
    /// Worst severity carried by the node itself; absent for none.
    let ownSeverity: [Int: UInt8]
    /// Nodes that carry at least one diagnostic, ascending (for `]` / `[`).
    public let diagnosticNodes: [Int]
    /// Diagnostic indices (into `tree.diagnostics`) per node.
    public let diagnosticsByNode: [Int: [Int]]
    /// Byte ranges covered by error diagnostics, sorted and merged (for the hex pane's error style).
    public let errorRanges: [Range<Int>]
    public let errorCount: Int
    public let notDERCount: Int
    public let warningCount: Int
    public let infoCount: Int

    public static let none: UInt8 = 255

    public init(tree: Tree) {
        let n = tree.count
        let nodes = tree.nodes
        var own: [Int: UInt8] = [:]
        var byNode: [Int: [Int]] = [:]
        var errors: [Range<Int>] = []
        var counts = [0, 0, 0, 0]
        for (d, diagnostic) in tree.diagnostics.enumerated() {
            counts[diagnostic.severity.rawValue] += 1
            if diagnostic.severity == .error && diagnostic.length > 0 {
                errors.append(max(0, diagnostic.offset)..<min(tree.bytes.count, diagnostic.offset + diagnostic.length))
            }
            var owner = diagnostic.node?.index
            if owner == nil || owner! < 0 || owner! >= n {
                owner = nodes.deepestNode(containing: diagnostic.offset)
                    ?? (diagnostic.offset > 0 ? nodes.deepestNode(containing: diagnostic.offset - 1) : nil)
            }
            guard let node = owner else { continue }
            byNode[node, default: []].append(d)
            own[node] = min(own[node] ?? TreeFacts.none, UInt8(diagnostic.severity.rawValue))
        }
        // Each owner's severity climbs to its ancestors, stopping at one that is already as severe:
        // whatever made it so climbed further already (or will), so each node is lowered at most
        // four times (one per severity) and a tree with few diagnostics costs no O(n) pass.
        var subtree = own
        for (node, severity) in own {
            var p = nodes.parentIndex(node)
            while p >= 0 && subtree[p] ?? TreeFacts.none > severity {
                subtree[p] = severity
                p = nodes.parentIndex(p)
            }
        }
        errors.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for r in errors where !r.isEmpty {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        subtreeSeverity = subtree
        ownSeverity = own
        diagnosticNodes = byNode.keys.sorted()
        diagnosticsByNode = byNode
        errorRanges = merged
        errorCount = counts[0]
        notDERCount = counts[1]
        warningCount = counts[2]
        infoCount = counts[3]
    }

    /// True when the byte at `offset` is covered by an error diagnostic: O(log errors).
    @inline(__always)
    public func isError(_ offset: Int) -> Bool {
        var lo = 0, hi = errorRanges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if errorRanges[mid].upperBound <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo < errorRanges.count && errorRanges[lo].contains(offset)
    }

    public func severity(ofSubtree node: Int) -> Severity? {
        subtreeSeverity[node].flatMap { Severity(rawValue: Int($0)) }
    }

    public func severity(ofNode node: Int) -> Severity? {
        ownSeverity[node].flatMap { Severity(rawValue: Int($0)) }
    }
}
