extension Tree {
    /// Checks the coverage invariant: every input byte belongs to exactly one node's identifier,
    /// length or content octets, an end-of-contents marker or an unparsed region. Equivalently,
    /// the top-level nodes tile the input and each node's children tile its content (after the
    /// unused-bits octet of an encapsulating BIT STRING). Returns a description of each violation.
    public func coverageViolations(limit: Int = 10) -> [String] {
        var problems: [String] = []
        func tile(_ children: [Int], from start: Int, to end: Int, what: String) {
            var expected = start
            for child in children {
                let node = nodes[child]
                if Int(node.offset) != expected {
                    problems.append("\(what): node \(child) starts at \(node.offset), expected \(expected)")
                }
                expected = node.end
            }
            if expected != end { problems.append("\(what): children end at \(expected), expected \(end)") }
        }
        tile(roots, from: 0, to: bytes.count, what: "top level")
        for index in nodes.indices where problems.count < limit {
            let node = nodes[index]
            if node.end > bytes.count { problems.append("node \(index) ends at \(node.end), past the input") }
            let children = Array(self.children(of: index))
            for child in children where nodes.parentIndex(child) != index {
                problems.append("node \(child) has parent \(nodes.parentIndex(child)), expected \(index)")
            }
            if children.isEmpty {
                if node.isConstructed && node.contentLength > 0 {
                    problems.append("constructed node \(index) has content but no children")
                }
                continue
            }
            let start = node.isEncapsulated && node.isUniversal(3) ? node.contentStart + 1 : node.contentStart
            tile(children, from: start, to: node.contentEnd, what: "node \(index)")
        }
        return Array(problems.prefix(limit))
    }
}
