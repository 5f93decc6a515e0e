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
        let rootsA = a.fileTree.roots.map { NodeID(.file, $0) }
        let rootsB = b.fileTree.roots.map { NodeID(.file, $0) }
        pairList(rootsA, rootsB, isSet: false, pathA: [], pathB: [])
    }

    /// Compares two ASN.1 layers' top-level nodes in order (an x5c certificate's DER against
    /// another's), their paths starting with `prefix`.
    package mutating func compareLayers(_ la: LayerID, _ lb: LayerID, prefix: String) {
        guard let ta = a.layer(la).tree, let tb = b.layer(lb).tree else { return }
        pairList(ta.roots.map { NodeID(la, $0) }, tb.roots.map { NodeID(lb, $0) }, isSet: false, pathA: [prefix], pathB: [prefix])
    }

    private func tree(_ doc: Document, _ id: NodeID) -> Tree { doc.layer(id.layer).tree! }
    private func hash(_ side: Side, _ id: NodeID) -> UInt64 {
        (side == .a ? hashesA : hashesB)[id.layer]![id.index]
    }

    private enum Side { case a, b }

    private func firstChildHash(_ side: Side, _ id: NodeID) -> UInt64? {
        let t = tree(side == .a ? a : b, id)
        guard t.nodes[id.index].isConstructed, t.hasChildren(id.index) else { return nil }
        return hash(side, NodeID(id.layer, id.index + 1))
    }

    /// What a node contains, for pairing: the elements of a constructed or encapsulating node, the
    /// chunks of a constructed string, or nil for a leaf. The receipt payload string of a document
    /// whose payload was reassembled contains the payload layer's top-level nodes.
    private func contents(_ doc: Document, _ id: NodeID) -> (nodes: [NodeID], chunks: Bool)? {
        let t = tree(doc, id)
        let node = t.nodes[id.index]
        if id.layer == .file, doc.layers.count > 1, doc.format.payloadStringNode(doc) == id.index,
           let payload = doc.layers[1].tree {
            return (payload.roots.map { NodeID(doc.layers[1].id, $0) }, false)
        }
        guard node.kind == .tlv, t.hasChildren(id.index) else { return nil }
        let children = t.children(of: id.index).map { NodeID(id.layer, $0) }
        let isString = node.isConstructed && ContentHash.isStringTag(node)
        return (children, isString)
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
            if let note = Self.encodingNote(nx, ny, cx, cy, tx, ty, x, y) {
                report(.reencoded, x, y, pathA, pathB, note: note)
            } else if !pairable {
                report(.reencoded, x, y, pathA, pathB, note: "same content, different bytes")
            }
            if pairable { pairList(cx!.nodes, cy!.nodes, isSet: nx.isUniversal(17), pathA: pathA, pathB: pathB) }
            return
        }
        guard pairable else { return report(.contentChanged, x, y, pathA, pathB, note: nil) }
        if let note = Self.encodingNote(nx, ny, cx, cy, tx, ty, x, y) {
            report(.reencoded, x, y, pathA, pathB, note: note)
        }
        pairList(cx!.nodes, cy!.nodes, isSet: nx.isUniversal(17), pathA: pathA, pathB: pathB)
    }

    /// Pairs two child lists: by position, except in a SET, whose elements pair by equal content
    /// first (order carries no meaning there) and the rest by position.
    private mutating func pairList(_ xs: [NodeID], _ ys: [NodeID], isSet: Bool, pathA: [String], pathB: [String]) {
        var pairs: [(Int?, Int?)] = []
        if isSet {
            var byHash: [UInt64: [Int]] = [:]
            for (j, y) in ys.enumerated().reversed() { byHash[hash(.b, y), default: []].append(j) }
            var usedB = [Bool](repeating: false, count: ys.count)
            var leftA: [Int] = []
            for (i, x) in xs.enumerated() {
                if let j = byHash[hash(.a, x)]?.popLast() { pairs.append((i, j)); usedB[j] = true } else { leftA.append(i) }
            }
            // What is left pairs by its first element's content (a receipt attribute's type), then by position.
            var byKey: [UInt64: [Int]] = [:]
            for j in ys.indices.reversed() where !usedB[j] {
                if let key = firstChildHash(.b, ys[j]) { byKey[key, default: []].append(j) }
            }
            var restA: [Int] = []
            for i in leftA {
                if let key = firstChildHash(.a, xs[i]), let j = byKey[key]?.popLast() {
                    pairs.append((i, j))
                    usedB[j] = true
                } else {
                    restA.append(i)
                }
            }
            let restB = ys.indices.filter { !usedB[$0] }
            for k in 0..<max(restA.count, restB.count) {
                pairs.append((k < restA.count ? restA[k] : nil, k < restB.count ? restB[k] : nil))
            }
            pairs.sort { ($0.0 ?? Int.max, $0.1 ?? Int.max) < ($1.0 ?? Int.max, $1.1 ?? Int.max) }
        } else {
            for k in 0..<max(xs.count, ys.count) { pairs.append((k < xs.count ? k : nil, k < ys.count ? k : nil)) }
        }
        for (i, j) in pairs {
            let stepA = i.map { Self.step(a, xs[$0], $0, xs.count) }
            let stepB = j.map { Self.step(b, ys[$0], $0, ys.count) }
            switch (i, j) {
            case let (i?, j?): compare(xs[i], ys[j], pathA: pathA + [stepA!], pathB: pathB + [stepB!])
            case let (i?, nil): report(.nodeRemoved, xs[i], nil, pathA + [stepA!], [], note: nil)
            case let (nil, j?): report(.nodeAdded, nil, ys[j], [], pathB + [stepB!], note: nil)
            default: break
            }
        }
    }

    /// "SEQUENCE[3]": the tag name, with the position when the node has siblings.
    private static func step(_ doc: Document, _ id: NodeID, _ position: Int, _ count: Int) -> String {
        let name = doc.layer(id.layer).tree!.tagName(of: id.index)
        return count > 1 ? "\(name)[\(position)]" : name
    }

    /// Why two nodes' own encodings differ, nil when only lengths inherited from their content do.
    private static func encodingNote(_ x: Node, _ y: Node, _ cx: (nodes: [NodeID], chunks: Bool)?,
                                     _ cy: (nodes: [NodeID], chunks: Bool)?, _ tx: Tree, _ ty: Tree,
                                     _ ix: NodeID, _ iy: NodeID) -> String? {
        func form(_ n: Node, _ c: (nodes: [NodeID], chunks: Bool)?, _ t: Tree, _ i: Int) -> String {
            if n.isConstructed && ContentHash.isStringTag(n) { let n = t.childCount(of: i)
                return "constructed (\(n) chunk\(n == 1 ? "" : "s"))" }
            return n.isConstructed ? "constructed" : "primitive"
        }
        let fx = form(x, cx, tx, ix.index), fy = form(y, cy, ty, iy.index)
        if fx != fy { return "\(fx) vs \(fy)" }
        if x.isIndefinite != y.isIndefinite {
            return "\(x.isIndefinite ? "indefinite" : "definite") length vs \(y.isIndefinite ? "indefinite" : "definite")"
        }
        if !tx.bytes[x.identifierRange].elementsEqual(ty.bytes[y.identifierRange]) { return "identifier octets differ" }
        if x.contentLength == y.contentLength, x.lengthLength != y.lengthLength {
            return "length in \(x.lengthLength) vs \(y.lengthLength) octets"
        }
        if !x.isConstructed, !y.isConstructed, cx == nil, cy == nil { return "content octets differ, value equal" }
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
