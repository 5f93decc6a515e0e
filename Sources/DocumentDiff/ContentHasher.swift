import ASN1Lenient

/// One tree's content hashes (`ContentHash`), made when the diff asks for a node's: the walk needs
/// them only for the pairs it visits and the SET elements it pairs, so no array of 8 bytes a node
/// (a tree of millions of nodes on each side; issue 32: memory bounded by the input). A hash walks
/// its node's subtree once and the nodes it walks keep theirs from `rememberedFrom` nodes up, so
/// the walk down a chain of differing nodes, each asked for and each asking for its elements,
/// does not walk the same subtrees again at every level: all from `largeFrom` nodes up (at most a
/// few a level), from `rememberedFrom` up only the first `limit` (a hostile tree of millions of
/// small subtrees keeps no entry for each).
final class ContentHasher {
    let tree: Tree
    let rememberedFrom: Int, largeFrom: Int, limit: Int
    private var remembered: [Int32: UInt64] = [:]
    /// The open constructed nodes of a walk: at most the tree's depth.
    private var stack: [Frame] = []

    private struct Frame {
        let index: Int32
        let end: Int32
        let isSet: Bool
        var next: Int32
        var h: UInt64
        var sum: UInt64 = 0, xor: UInt64 = 0, count: UInt64 = 0

        /// An element's hash: in order, or for a SET's elements, scrambled and combined by sum and
        /// xor, which every order gives alike (its order carries no meaning).
        mutating func add(_ element: UInt64) {
            if isSet {
                let s = ContentHash.scramble(element)
                sum &+= s
                xor ^= s
                count &+= 1
            } else {
                ContentHash.mix(&h, word: element)
            }
        }

        func finish() -> UInt64 {
            guard isSet else { return h }
            var out = h
            ContentHash.mix(&out, word: sum)
            ContentHash.mix(&out, word: xor)
            ContentHash.mix(&out, word: count)
            return out
        }
    }

    init(_ tree: Tree, rememberedFrom: Int = 16, largeFrom: Int = 4096, limit: Int = 1 << 16) {
        self.tree = tree
        self.rememberedFrom = rememberedFrom
        self.largeFrom = largeFrom
        self.limit = limit
    }

    /// How many hashes are kept.
    var rememberedCount: Int { remembered.count }

    /// The content hash of node `index`.
    func hash(_ index: Int) -> UInt64 {
        switch start(index) {
        case .done(let h): return h
        case .open(let frame):
            stack.removeAll(keepingCapacity: true)
            stack.append(frame)
        }
        while true {
            let top = stack.count - 1
            let next = Int(stack[top].next)
            if next < Int(stack[top].end) {
                stack[top].next = tree.nodes[next].subtreeEnd
                switch start(next) {
                case .done(let h): stack[top].add(h)
                case .open(let frame): stack.append(frame)
                }
                continue
            }
            let frame = stack.removeLast()
            let h = frame.finish()
            let size = Int(frame.end - frame.index)
            if size >= largeFrom || (size >= rememberedFrom && remembered.count < limit) { remembered[frame.index] = h }
            if stack.isEmpty { return h }
            stack[stack.count - 1].add(h)
        }
    }

    private enum Start {
        case done(UInt64)
        case open(Frame)
    }

    private func start(_ index: Int) -> Start {
        let node = tree.nodes[index]
        if Int(node.subtreeEnd) - index >= rememberedFrom, let h = remembered[Int32(index)] { return .done(h) }
        var h: UInt64 = 0
        if ContentHash.begin(tree, node, index, &h) { return .done(h) }
        return .open(Frame(index: Int32(index), end: node.subtreeEnd, isSet: node.isUniversal(17), next: Int32(index + 1), h: h))
    }
}
