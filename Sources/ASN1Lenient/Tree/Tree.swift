/// The result of a parse: the input bytes, the node arena in pre-order and every diagnostic.
public struct Tree: Sendable {
    public let bytes: [UInt8]
    /// The nodes in pre-order, immutable once parsed (copies of a tree share them).
    public internal(set) var nodes: NodeStore
    public internal(set) var diagnostics: [Diagnostic]
    /// Indices of the top-level nodes, in input order.
    public internal(set) var roots: [Int]

    public init(bytes: [UInt8], nodes: NodeStore, diagnostics: [Diagnostic], roots: [Int]) {
        self.bytes = bytes
        self.nodes = nodes
        self.diagnostics = diagnostics
        self.roots = roots
    }

    public init(bytes: [UInt8], nodes: [Node], diagnostics: [Diagnostic], roots: [Int]) {
        self.init(bytes: bytes, nodes: NodeStore(nodes, input: bytes), diagnostics: diagnostics, roots: roots)
    }

    public var count: Int { nodes.count }
    public subscript(index: Int) -> Node { nodes[index] }

    public func parent(of index: Int) -> Int? {
        let p = nodes.parentIndex(index)
        return p >= 0 ? p : nil
    }

    /// Direct children, in order, without allocating.
    public func children(of index: Int) -> ChildSequence {
        ChildSequence(nodes: nodes, start: index + 1, end: Int(nodes[index].subtreeEnd))
    }

    /// The element children of `index` (unparsed regions left out), in order, the first `limit`
    /// of them: where only the first few are read, a SEQUENCE of millions of elements costs no
    /// array of them (8 bytes a node, issue 32).
    public func elements(of index: Int, first limit: Int = .max) -> [Int] {
        var found: [Int] = []
        for child in children(of: index) where nodes[child].kind == .tlv {
            if found.count == limit { break }
            found.append(child)
        }
        return found
    }

    /// Position of `index` among its parent's children (or among the top-level nodes), counted by
    /// stepping from the first sibling over whole subtrees: no table of 4 bytes a node.
    public func siblingPosition(of index: Int) -> Int {
        let parent = nodes.parentIndex(index)
        var sibling = parent >= 0 ? parent + 1 : 0, position = 0
        while sibling < index {
            sibling = max(Int(nodes[sibling].subtreeEnd), sibling + 1)
            position += 1
        }
        return position
    }

    public func childCount(of index: Int) -> Int {
        var n = 0
        for _ in children(of: index) { n += 1 }
        return n
    }

    public func child(of index: Int, at position: Int) -> Int? {
        var i = 0
        for c in children(of: index) {
            if i == position { return c }
            i += 1
        }
        return nil
    }

    public func hasChildren(_ index: Int) -> Bool { Int(nodes[index].subtreeEnd) > index + 1 }

    /// The chain from a top-level node down to `index`, both included.
    public func path(to index: Int) -> [Int] {
        var chain = [index]
        var current = index
        while let p = parent(of: current) {
            chain.append(p)
            current = p
        }
        return chain.reversed()
    }

    /// The content bytes of a node.
    public func content(of index: Int) -> ArraySlice<UInt8> { bytes[nodes[index].contentRange] }

    /// The deepest node whose bytes (header, content or end-of-contents) contain `offset`.
    public func deepestNode(containing offset: Int) -> Int? { nodes.deepestNode(containing: offset) }

    /// Diagnostics attached to a node (not its descendants).
    public func diagnostics(for index: Int) -> [Diagnostic] {
        diagnostics.filter { $0.node == NodeIndex(index) }
    }

    public var worstSeverity: Severity? { diagnostics.map(\.severity).min() }
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Adds diagnostics found by a later layer (the receipt module) so every view shows one list.
    public mutating func append(_ extra: [Diagnostic]) {
        // Appending nothing still copies a list it shares (10,000 findings: 0.7 MB for no change);
        // appended to nothing, the list is shared with the caller's instead of copied.
        if extra.isEmpty { return }
        if diagnostics.isEmpty { diagnostics = extra } else { diagnostics.append(contentsOf: extra) }
    }
}

/// Iterates the direct children of a node by hopping over each child's subtree.
public struct ChildSequence: Sequence, IteratorProtocol {
    let nodes: NodeStore
    var next_: Int
    let end: Int

    init(nodes: NodeStore, start: Int, end: Int) {
        self.nodes = nodes
        self.next_ = start
        self.end = end
    }

    public mutating func next() -> Int? {
        guard next_ < end else { return nil }
        let current = next_
        next_ = Int(nodes[current].subtreeEnd)
        return current
    }
}
