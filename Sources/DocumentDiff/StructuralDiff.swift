import ASN1Lenient
import DocumentCore

/// The node-by-node comparison of two documents' ASN.1 trees. Each node gets a hash of its decoded
/// content (tags and values; a constructed string hashed as its chunks joined; a SET's elements in
/// any order), computed once bottom-up, so the walk is O(n) plus O(k log k) per SET: equal hashes
/// stop the descent, and equal hashes over different bytes are a re-encoding rather than a change.
package struct StructuralDiff {
    let a: Document
    let b: Document
    let limit: Int
    private var hashesA: [LayerID: [UInt64]] = [:]
    private var hashesB: [LayerID: [UInt64]] = [:]
    /// The entries found, shared with the JSON walk of StoreKit documents.
    package var log: StructuralLog

    package init(a: Document, b: Document, limit: Int) {
        self.a = a
        self.b = b
        self.limit = limit
        log = StructuralLog(limit: limit)
        for layer in a.layers { hashesA[layer.id] = layer.tree.map(ContentHash.hashes) ?? [] }
        for layer in b.layers { hashesB[layer.id] = layer.tree.map(ContentHash.hashes) ?? [] }
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
        (side == .a ? hashesA : hashesB)[id.layer]![id.index]
    }

    private enum Side { case a, b }

    /// A node's elements in one layer, as 4-byte indices (a SET of millions of elements is paired
    /// whole: issue 32's memory bound).
    private struct Elements {
        let layer: LayerID
        let nodes: [Int32]
        var chunks = false

        init(_ layer: LayerID, _ nodes: [Int]) { self.init(layer, nodes.map { Int32($0) }) }
        init(_ layer: LayerID, _ nodes: [Int32], chunks: Bool = false) {
            self.layer = layer
            self.nodes = nodes
            self.chunks = chunks
        }

        var count: Int { nodes.count }
        subscript(_ k: Int) -> NodeID { NodeID(layer, Int(nodes[k])) }
    }

    private func firstChildHash(_ side: Side, _ id: NodeID) -> UInt64? {
        let t = tree(side == .a ? a : b, id)
        guard t.nodes[id.index].isConstructed, t.hasChildren(id.index) else { return nil }
        return hash(side, NodeID(id.layer, id.index + 1))
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
        var children: [Int32] = []
        children.reserveCapacity(t.childCount(of: id.index))
        for child in t.children(of: id.index) { children.append(Int32(child)) }
        return Elements(id.layer, children, chunks: node.isConstructed && ContentHash.isStringTag(node))
    }

    /// Same content in the same bytes: nothing to report below.
    private func isIdentical(_ x: NodeID, _ y: NodeID) -> Bool {
        guard hash(.a, x) == hash(.b, y) else { return false }
        let tx = tree(a, x), ty = tree(b, y)
        return tx.bytes[tx.nodes[x.index].byteRange].elementsEqual(ty.bytes[ty.nodes[y.index].byteRange])
    }

    private mutating func compare(_ x: NodeID, _ y: NodeID, pathA: [String], pathB: [String]) {
        let tx = tree(a, x), ty = tree(b, y)
        let nx = tx.nodes[x.index], ny = ty.nodes[y.index]
        let sameContent = hash(.a, x) == hash(.b, y)
        if sameContent && tx.bytes[nx.byteRange].elementsEqual(ty.bytes[ny.byteRange]) { return }
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
            let pairing = SetPairing(countA: xs.count, countB: ys.count,
                                     hashA: { hash(.a, xs[$0]) }, hashB: { hash(.b, ys[$0]) },
                                     keyA: { firstChildHash(.a, xs[$0]) }, keyB: { firstChildHash(.b, ys[$0]) })
            for i in 0..<xs.count {
                let j = pairing.partnerOfA[i]
                visit(xs, ys, i, j < 0 ? nil : Int(j), pathA, pathB)
            }
            for j in pairing.unpairedB { visit(xs, ys, nil, Int(j), pathA, pathB) }
        } else {
            for k in 0..<max(xs.count, ys.count) {
                visit(xs, ys, k < xs.count ? k : nil, k < ys.count ? k : nil, pathA, pathB)
            }
        }
    }

    /// One pair of a list; its path steps are named only when something below is reported or walked.
    private mutating func visit(_ xs: Elements, _ ys: Elements, _ i: Int?, _ j: Int?, _ pathA: [String], _ pathB: [String]) {
        if let i, let j, isIdentical(xs[i], ys[j]) { return }
        let stepA = i.map { Self.step(a, xs[$0], $0, xs.count) }
        let stepB = j.map { Self.step(b, ys[$0], $0, ys.count) }
        switch (i, j) {
        case let (i?, j?): compare(xs[i], ys[j], pathA: pathA + [stepA!], pathB: pathB + [stepB!])
        case let (i?, nil): report(.nodeRemoved, xs[i], nil, pathA + [stepA!], [], note: nil)
        case let (nil, j?): report(.nodeAdded, nil, ys[j], [], pathB + [stepB!], note: nil)
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
