import JSONLenient
import DocumentCore

/// A hash of each JSON node's content, as `ContentHash` is for ASN.1: strings by their decoded value
/// (so `\/` and `/` are equal), numbers by value (`1.0` and `1`), an object's members in any order;
/// whitespace never enters it. Equal hashes over different bytes are a re-encoding.
enum JSONContentHash {
    static func hashes(_ tree: JSONTree) -> [UInt64] {
        ContentHash.bottomUp(count: tree.count) { hash(tree, $0, $1) }
    }

    private static func hash(_ tree: JSONTree, _ index: Int, _ done: [UInt64]) -> UInt64 {
        let node = tree[index]
        var h = ContentHash.offsetBasis
        ContentHash.mix(&h, node.kind.rawValue)
        switch node.kind {
        case .string:
            for byte in (tree.string(at: index) ?? tree.text(of: index)).utf8 { ContentHash.mix(&h, byte) }
        case .number:
            if let number = tree.number(at: index) {
                // Beyond 2^53 a double would merge neighbours: such integers hash as integers.
                if let integer = number.integer, !number.isExactInDouble {
                    ContentHash.mix(&h, word: UInt64(bitPattern: integer))
                } else {
                    ContentHash.mix(&h, word: (number.double == 0 ? 0 : number.double).bitPattern)
                }
            }
        case .true, .false, .null:
            break
        case .member:
            for byte in (tree.key(ofMember: index) ?? "").utf8 { ContentHash.mix(&h, byte) }
            ContentHash.mix(&h, 0)
            if let value = tree.value(ofMember: index) { ContentHash.mix(&h, word: done[value]) }
        case .object, .array:
            var children = tree.children(of: index).map { done[$0] }
            if node.kind == .object { children.sort() }  // member order carries no meaning
            for child in children { ContentHash.mix(&h, word: child) }
        }
        return h
    }
}

/// Two JSON layers node by node (a token's header or payload, or a JSON body): each differing
/// range with its JSON path, a re-encoding (key order, whitespace, string escapes, number form)
/// told apart from a content change. Strings that hold tokens on both sides are left to the
/// token comparison (`skipA` / `skipB`).
package struct JSONStructure {
    package let a: Document, b: Document
    let layerA: LayerID, layerB: LayerID
    package let treeA: JSONTree, treeB: JSONTree
    package let hashA: [UInt64], hashB: [UInt64]
    /// What the layer is called in entry paths: "payload", "signedTransactions[1] header".
    let name: String
    package var skipA: Set<Int> = [], skipB: Set<Int> = []

    package init?(_ a: Document, _ layerA: LayerID?, _ b: Document, _ layerB: LayerID?, name: String) {
        guard let layerA, let layerB, let ta = a.layer(layerA).json, let tb = b.layer(layerB).json else { return nil }
        self.a = a
        self.b = b
        self.layerA = layerA
        self.layerB = layerB
        treeA = ta
        treeB = tb
        hashA = JSONContentHash.hashes(ta)
        hashB = JSONContentHash.hashes(tb)
        self.name = name
    }

    package func run(into log: inout StructuralLog) {
        guard let x = treeA.root, let y = treeB.root else { return }
        compare(x, y, path: "", into: &log)
    }

    func compare(_ x: Int, _ y: Int, path: String, into log: inout StructuralLog) {
        let nx = treeA[x], ny = treeB[y]
        if treeA.bytes[nx.range].elementsEqual(treeB.bytes[ny.range]) { return }
        if skipA.contains(x) && skipB.contains(y) { return }
        guard nx.kind == ny.kind else {
            return report(.contentChanged, x, y, path, &log, note: "\(nx.kind.name) vs \(ny.kind.name)")
        }
        let same = hashA[x] == hashB[y]
        switch nx.kind {
        case .object, .array:
            let notes = layoutNotes(x, y)
            if !notes.isEmpty { report(.reencoded, x, y, path, &log, note: notes.joined(separator: ", ")) }
            if nx.kind == .object { members(x, y, path: path, into: &log) } else { elements(x, y, path: path, into: &log) }
        default:
            if same {
                report(.reencoded, x, y, path, &log, note: nx.kind == .string ? "string escapes" : "number written differently")
            } else {
                report(.contentChanged, x, y, path, &log, note: nil)
            }
        }
    }

    /// Members paired by decoded key (a repeated key pairs in order).
    private func members(_ x: Int, _ y: Int, path: String, into log: inout StructuralLog) {
        let ma = treeA.members(of: x), mb = treeB.members(of: y)
        var byKey: [String: [Int]] = [:]
        for m in mb.reversed() { byKey[treeB.key(ofMember: m) ?? "", default: []].append(m) }
        var used = Set<Int>()
        for m in ma {
            let key = treeA.key(ofMember: m) ?? ""
            let childPath = JSONStructure.join(path, key)
            guard let n = byKey[key]?.popLast() else {
                report(.nodeRemoved, m, nil, childPath, &log, note: nil)
                continue
            }
            used.insert(n)
            switch (treeA.value(ofMember: m), treeB.value(ofMember: n)) {
            case let (va?, vb?): compare(va, vb, path: childPath, into: &log)
            default: if hashA[m] != hashB[n] { report(.contentChanged, m, n, childPath, &log, note: nil) }
            }
        }
        for n in mb where !used.contains(n) {
            report(.nodeAdded, nil, n, JSONStructure.join(path, treeB.key(ofMember: n) ?? ""), &log, note: nil)
        }
    }

    private func elements(_ x: Int, _ y: Int, path: String, into log: inout StructuralLog) {
        let ea = treeA.children(of: x), eb = treeB.children(of: y)
        for k in 0..<max(ea.count, eb.count) {
            let childPath = "\(path)[\(k)]"
            switch (k < ea.count ? ea[k] : nil, k < eb.count ? eb[k] : nil) {
            case let (i?, j?): compare(i, j, path: childPath, into: &log)
            case let (i?, nil): report(.nodeRemoved, i, nil, childPath, &log, note: nil)
            case let (nil, j?): report(.nodeAdded, nil, j, childPath, &log, note: nil)
            default: break
            }
        }
    }

    /// How an object's or array's own bytes differ: the order of its keys, how its keys are
    /// escaped, and the whitespace between its parts (the bytes outside its keys and values).
    private func layoutNotes(_ x: Int, _ y: Int) -> [String] {
        var notes: [String] = []
        let ma = treeA.children(of: x), mb = treeB.children(of: y)
        if treeA[x].kind == .object {
            let keysA = ma.map { treeA.key(ofMember: $0) ?? "" }, keysB = mb.map { treeB.key(ofMember: $0) ?? "" }
            let common = Set(keysA).intersection(keysB)
            if keysA.filter(common.contains) != keysB.filter(common.contains) { notes.append("key order") }
            let rawA = Dictionary(ma.map { (treeA.key(ofMember: $0) ?? "", Array(treeA.bytes[treeA[$0].keyRange])) }, uniquingKeysWith: { f, _ in f })
            let rawB = Dictionary(mb.map { (treeB.key(ofMember: $0) ?? "", Array(treeB.bytes[treeB[$0].keyRange])) }, uniquingKeysWith: { f, _ in f })
            if common.contains(where: { rawA[$0] != rawB[$0] }) { notes.append("key escapes") }
        }
        let gapsA = gaps(treeA, x), gapsB = gaps(treeB, y)
        // With as many parts the gaps pair up; otherwise compare the kinds of whitespace used.
        let spaces = { (gaps: [[UInt8]]) in Set(gaps.map { $0.filter { [0x20, 0x09, 0x0A, 0x0D].contains($0) } }) }
        if ma.count == mb.count ? gapsA != gapsB : spaces(gapsA) != spaces(gapsB) { notes.append("whitespace") }
        return notes
    }

    /// The bytes of a container between its keys and values: brackets, commas, colons, whitespace.
    private func gaps(_ tree: JSONTree, _ index: Int) -> [[UInt8]] {
        var pieces: [Range<Int>] = []
        for child in tree.children(of: index) {
            if tree[child].kind == .member {
                pieces.append(tree[child].keyRange)
                if let value = tree.value(ofMember: child) { pieces.append(tree[value].range) }
            } else {
                pieces.append(tree[child].range)
            }
        }
        var out: [[UInt8]] = []
        var at = tree[index].start
        for piece in pieces {
            out.append(Array(tree.bytes[at..<max(at, piece.lowerBound)]))
            at = piece.upperBound
        }
        out.append(Array(tree.bytes[min(at, tree[index].end)..<tree[index].end]))
        return out
    }

    private func report(_ kind: DiffKind, _ x: Int?, _ y: Int?, _ path: String, _ log: inout StructuralLog, note: String?) {
        guard log.keeps else { return log.count(kind) }
        let subject = path.isEmpty ? name : "\(name): \(path)"
        log.report(kind, a: x.map { side(a, layerA, treeA, $0, subject) }, b: y.map { side(b, layerB, treeB, $0, subject) },
                   note: note)
    }

    private func side(_ doc: Document, _ layer: LayerID, _ tree: JSONTree, _ index: Int, _ path: String) -> DiffSide {
        let range = tree[index].range
        let value: String?
        switch tree[index].kind {
        case .object, .array, .member: value = nil
        default:
            let text = tree.text(of: index)
            value = text.count > 40 ? String(text.prefix(40)) + "…" : text
        }
        return DiffSide(node: NodeID(layer, index), range: range, fileRange: doc.fileRange(range, in: layer), value: value, path: path)
    }
}

extension JSONStructure {
    /// A member's path under its parent's: "data", "data.signedTransactionInfo".
    package static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : b.isEmpty ? a : "\(a).\(b)" }
}
