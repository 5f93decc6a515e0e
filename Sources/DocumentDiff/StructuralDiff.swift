import ASN1Lenient
import DocumentCore

/// The node-by-node comparison of two documents' ASN.1 trees. A node's hash of its decoded content
/// (tags and values; a constructed string hashed as its chunks joined; a SET's elements in any
/// order) is made when a pair or a SET's pairing needs it (`ContentHasher`): the same bytes with
/// equal hashes stop the descent, and equal hashes over different bytes are a re-encoding rather
/// than a change. The walk is O(k log k) per SET paired plus each compared pair's subtree.
package struct StructuralDiff {
    let a: Document
    let b: Document
    let limit: Int
    /// Each ASN.1 layer's hasher, by layer index.
    private let hashersA: [ContentHasher?], hashersB: [ContentHasher?]
    /// The entries found, shared with the JSON walk of StoreKit documents.
    package var log: StructuralLog

    package init(a: Document, b: Document, limit: Int) {
        self.a = a
        self.b = b
        self.limit = limit
        log = StructuralLog(limit: limit)
        hashersA = a.layers.map { $0.tree.map { ContentHasher($0) } }
        hashersB = b.layers.map { $0.tree.map { ContentHasher($0) } }
    }

    /// Compares the file layers' top-level nodes in order.
    mutating func run() {
        pairList(Elements(.file, a.fileTree.roots), Elements(.file, b.fileTree.roots), isSet: false, pathA: [], pathB: [])
    }

    /// Compares two ASN.1 layers' top-level nodes in order (an x5c certificate's DER against
    /// another's), their paths starting with `prefix`.
    package mutating func compareLayers(_ la: LayerID, _ lb: LayerID, prefix: String) {
        guard let ta = a.layer(la).tree, let tb = b.layer(lb).tree else { return }
        pairList(Elements(la, ta.roots), Elements(lb, tb.roots), isSet: false, pathA: [prefix], pathB: [prefix])
    }

    private func tree(_ doc: Document, _ id: NodeID) -> Tree { doc.layer(id.layer).tree! }
    private func hash(_ side: Side, _ id: NodeID) -> UInt64 {
        (side == .a ? hashersA : hashersB)[id.layer.index]!.hash(id.index)
    }

    private enum Side { case a, b }

    /// A node's elements in one layer: the children of a node, walked in place, or a list of
    /// 4-byte indices (top-level nodes). No array a child, SETs included (issue 32's memory bound).
    private struct Elements {
        enum Nodes {
            case list([Int32])
            case children(of: Int, in: Tree)
        }

        let layer: LayerID
        let nodes: Nodes
        let count: Int
        var chunks = false

        init(_ layer: LayerID, _ nodes: [Int]) {
            self.layer = layer
            self.nodes = .list(nodes.map { Int32($0) })
            count = nodes.count
        }

        init(_ layer: LayerID, childrenOf parent: Int, in tree: Tree, chunks: Bool) {
            self.layer = layer
            nodes = .children(of: parent, in: tree)
            count = tree.childCount(of: parent)
            self.chunks = chunks
        }


        /// The elements in order.
        func makeWalker() -> Walker {
            switch nodes {
            case .list(let list): return Walker(layer: layer, list: list.makeIterator(), children: nil)
            case .children(let parent, let tree): return Walker(layer: layer, list: nil, children: tree.children(of: parent))
            }
        }

        struct Walker: IteratorProtocol {
            let layer: LayerID
            var list: IndexingIterator<[Int32]>?
            var children: ChildSequence?

            mutating func next() -> NodeID? {
                if let index = list?.next() { return NodeID(layer, Int(index)) }
                if let index = children?.next() { return NodeID(layer, index) }
                return nil
            }
        }
    }

    /// A list's elements by position, for a SET paired whole: a node's children are found from a
    /// checkpoint every 64 (4 bytes a 64 children, not 4 a child) and stepped forward from the last
    /// one asked for, so asking in order is one hop an element.
    private final class ElementAt {
        let layer: LayerID
        /// The list's entries, or every 64th child's index.
        private var checkpoints: [Int32] = []
        private let nodes: NodeStore?
        private var last = (position: Int.max, node: 0)

        init(_ elements: Elements) {
            layer = elements.layer
            switch elements.nodes {
            case .list(let list):
                checkpoints = list
                nodes = nil
            case .children(let parent, let tree):
                nodes = tree.nodes
                var position = 0
                for child in tree.children(of: parent) {
                    if position & 63 == 0 { checkpoints.append(Int32(child)) }
                    position += 1
                }
            }
        }

        func callAsFunction(_ position: Int) -> Int {
            guard let nodes else { return Int(checkpoints[position]) }
            var at: (position: Int, node: Int) = position >= last.position && position - last.position < 64 ? last
                : (position & ~63, Int(checkpoints[position >> 6]))
            while at.position < position { at = (at.position + 1, Int(nodes[at.node].subtreeEnd)) }
            last = at
            return at.node
        }
    }

    /// The hash of a node's first element, nil for a node without elements: what a SET's elements
    /// that differ pair by (a receipt attribute's type).
    private static func firstChildHash(_ hasher: ContentHasher, _ index: Int) -> UInt64? {
        guard hasher.tree.nodes[index].isConstructed, hasher.tree.hasChildren(index) else { return nil }
        return hasher.hash(index + 1)
    }

    /// What a node contains, for pairing: the elements of a constructed or encapsulating node, the
    /// chunks of a constructed string, or nil for a leaf. The receipt payload string of a document
    /// whose payload was reassembled contains the payload layer's top-level nodes.
    private func contents(_ doc: Document, _ id: NodeID) -> Elements? {
        let t = tree(doc, id)
        let node = t.nodes[id.index]
        if id.layer == .file, doc.layers.count > 1, doc.format.payloadStringNode(doc) == id.index,
           let payload = doc.layers[1].tree {
            return Elements(doc.layers[1].id, payload.roots)
        }
        guard node.kind == .tlv, t.hasChildren(id.index) else { return nil }
        return Elements(id.layer, childrenOf: id.index, in: t, chunks: node.isConstructed && ContentHash.isStringTag(node))
    }

    /// Same content in the same bytes: nothing to report below. Two leaves have their bytes
    /// compared first, and when they are read alike from equal bytes (same kind, header and content
    /// lengths) no hash is made: those bytes alone make it. Other nodes have their hashes compared
    /// first, as a chain of differing ancestors asks for them anyway and keeps them, so a long
    /// subtree's bytes are not compared again at every level.
    private func isIdentical(_ x: NodeID, _ y: NodeID) -> Bool {
        let tx = tree(a, x), ty = tree(b, y)
        let nx = tx.nodes[x.index], ny = ty.nodes[y.index]
        let leaves = !tx.hasChildren(x.index) && !ty.hasChildren(y.index)
        if !leaves, hash(.a, x) != hash(.b, y) { return false }
        let bx = tx.bytes[nx.byteRange], by = ty.bytes[ny.byteRange]
        guard bx.count == by.count, bx.elementsEqual(by) else { return false }
        guard leaves else { return true }
        return (nx.kind == ny.kind && nx.identifierLength == ny.identifierLength && nx.lengthLength == ny.lengthLength
                && nx.contentLength == ny.contentLength) || hash(.a, x) == hash(.b, y)
    }

    /// Two nodes that are not identical (`visit` returns before those).
    private mutating func compare(_ x: NodeID, _ y: NodeID, pathA: [String], pathB: [String]) {
        let tx = tree(a, x), ty = tree(b, y)
        let nx = tx.nodes[x.index], ny = ty.nodes[y.index]
        let sameContent = hash(.a, x) == hash(.b, y)
        let cx = contents(a, x), cy = contents(b, y)
        let pairable = cx != nil && cy != nil && cx!.chunks == cy!.chunks
        guard nx.tagClass == ny.tagClass, nx.tagNumber == ny.tagNumber, nx.kind == ny.kind else {
            return report(.contentChanged, x, y, pathA, pathB, note: "different tags")
        }
        if sameContent {
            if let note = Self.encodingNote(nx, ny, tx, ty, x, y, leaves: cx == nil && cy == nil) {
                report(.reencoded, x, y, pathA, pathB, note: note)
            } else if !pairable {
                report(.reencoded, x, y, pathA, pathB, note: "same content, different bytes")
            }
            if pairable { pairList(cx!, cy!, isSet: nx.isUniversal(17), pathA: pathA, pathB: pathB) }
            return
        }
        guard pairable else { return report(.contentChanged, x, y, pathA, pathB, note: nil) }
        if let note = Self.encodingNote(nx, ny, tx, ty, x, y, leaves: false) {
            report(.reencoded, x, y, pathA, pathB, note: note)
        }
        pairList(cx!, cy!, isSet: nx.isUniversal(17), pathA: pathA, pathB: pathB)
    }

    /// Pairs two child lists: by position, except in a SET, whose elements pair by equal content
    /// first (order carries no meaning there) and the rest by position (`SetPairing`). Pairs go
    /// in A's order, then B's elements left over.
    private mutating func pairList(_ xs: Elements, _ ys: Elements, isSet: Bool, pathA: [String], pathB: [String]) {
        if isSet {
            let atA = ElementAt(xs), atB = ElementAt(ys)
            let hasherA = hashersA[xs.layer.index]!, hasherB = hashersB[ys.layer.index]!
            let pairing = SetPairing(countA: xs.count, countB: ys.count,
                                     hashA: { hasherA.hash(atA($0)) }, hashB: { hasherB.hash(atB($0)) },
                                     keyA: { Self.firstChildHash(hasherA, atA($0)) }, keyB: { Self.firstChildHash(hasherB, atB($0)) })
            for (i, j) in pairing.pairs {
                visit(i.map { (NodeID(xs.layer, atA($0)), $0) }, j.map { (NodeID(ys.layer, atB($0)), $0) },
                      xs.count, ys.count, pathA, pathB)
            }
        } else {
            var walkA = xs.makeWalker(), walkB = ys.makeWalker()
            var position = 0
            while true {
                let x = walkA.next(), y = walkB.next()
                if x == nil && y == nil { break }
                visit(x.map { ($0, position) }, y.map { ($0, position) }, xs.count, ys.count, pathA, pathB)
                position += 1
            }
        }
    }

    /// One pair of a list; its path steps are named only when something below is reported or walked.
    private mutating func visit(_ x: (id: NodeID, position: Int)?, _ y: (id: NodeID, position: Int)?,
                                _ countA: Int, _ countB: Int, _ pathA: [String], _ pathB: [String]) {
        if let x, let y, isIdentical(x.id, y.id) { return }
        let stepA = x.map { Self.step(a, $0.id, $0.position, countA) }
        let stepB = y.map { Self.step(b, $0.id, $0.position, countB) }
        switch (x, y) {
        case let (x?, y?): compare(x.id, y.id, pathA: pathA + [stepA!], pathB: pathB + [stepB!])
        case let (x?, nil): report(.nodeRemoved, x.id, nil, pathA + [stepA!], [], note: nil)
        case let (nil, y?): report(.nodeAdded, nil, y.id, [], pathB + [stepB!], note: nil)
        default: break
        }
    }

    /// "SEQUENCE[3]": the tag name, with the position when the node has siblings.
    private static func step(_ doc: Document, _ id: NodeID, _ position: Int, _ count: Int) -> String {
        let name = doc.layer(id.layer).tree!.tagName(of: id.index)
        return count > 1 ? "\(name)[\(position)]" : name
    }

    /// Why two nodes' own encodings differ, nil when only lengths inherited from their content do.
    /// `leaves`: neither node has elements to pair.
    private static func encodingNote(_ x: Node, _ y: Node, _ tx: Tree, _ ty: Tree,
                                     _ ix: NodeID, _ iy: NodeID, leaves: Bool) -> String? {
        func form(_ n: Node, _ t: Tree, _ i: Int) -> String {
            if n.isConstructed && ContentHash.isStringTag(n) { let n = t.childCount(of: i)
                return "constructed (\(n) chunk\(n == 1 ? "" : "s"))" }
            return n.isConstructed ? "constructed" : "primitive"
        }
        let fx = form(x, tx, ix.index), fy = form(y, ty, iy.index)
        if fx != fy { return "\(fx) vs \(fy)" }
        if x.isIndefinite != y.isIndefinite {
            return "\(x.isIndefinite ? "indefinite" : "definite") length vs \(y.isIndefinite ? "indefinite" : "definite")"
        }
        if !tx.bytes[x.identifierRange].elementsEqual(ty.bytes[y.identifierRange]) { return "identifier octets differ" }
        if x.contentLength == y.contentLength, x.lengthLength != y.lengthLength {
            return "length in \(x.lengthLength) vs \(y.lengthLength) octets"
        }
        if !x.isConstructed, !y.isConstructed, leaves { return "content octets differ, value equal" }
        return nil
    }

    private mutating func report(_ kind: DiffKind, _ x: NodeID?, _ y: NodeID?, _ pathA: [String], _ pathB: [String],
                                 note: String?) {
        // Sides are built only for entries that are kept: a large diff stays O(entries kept).
        guard log.keeps else { return log.count(kind) }
        log.report(kind, a: x.map { side(a, $0, pathA) }, b: y.map { side(b, $0, pathB) }, note: note)
    }

    private func side(_ doc: Document, _ id: NodeID, _ path: [String]) -> DiffSide {
        let t = tree(doc, id)
        let range = t.nodes[id.index].byteRange
        let value = ValueText.summary(t, id.index, limits: .init(characters: 40, hexBytes: 12))
        return DiffSide(node: id, range: range, fileRange: doc.fileRange(range, in: id.layer),
                        value: value.isEmpty ? nil : value, path: path.joined(separator: " > "))
    }
}

/// The structural entries of a diff, in the order found: at most `limit` kept, all counted.
package struct StructuralLog {
    let limit: Int
    private(set) var entries: [DiffEntry] = []
    private(set) var total = 0
    private(set) var contentChanges = 0

    init(limit: Int) { self.limit = limit }

    var keeps: Bool { entries.count < limit }

    mutating func count(_ kind: DiffKind) {
        total += 1
        if kind != .reencoded { contentChanges += 1 }
    }

    /// An entry named by its sides' paths; a re-encoding's note says so.
    package mutating func report(_ kind: DiffKind, a: DiffSide?, b: DiffSide?, note: String?) {
        count(kind)
        guard keeps else { return }
        entries.append(DiffEntry(kind: kind, subject: (a?.path ?? b?.path) ?? "", a: a, b: b,
                                 note: kind == .reencoded ? "same content, different encoding: " + (note ?? "") : note))
    }
}
