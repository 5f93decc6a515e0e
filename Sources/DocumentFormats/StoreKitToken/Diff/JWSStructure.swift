import JSONLenient
import JWSKit
import DocumentCore
import DocumentDiff

/// The structural part of a StoreKit 2 diff: the JSON bodies, then, for every token pair the
/// semantic comparison matched, layer by layer: the token's characters (base64url written
/// differently for the same bytes), the header JSON, each x5c certificate's DER (the ASN.1 walk
/// of `StructuralDiff`), the payload JSON and the signature.
struct JWSStructure {
    let a: StoreKitSide
    let b: StoreKitSide

    func run(_ pairs: [(Int, Int)], into walk: inout StructuralDiff) {
        if a.model.body != nil, b.model.body != nil, var body = JSONStructure(a.document, .file, b.document, .file, name: "body") {
            body.skipA = a.tokenStrings(in: .file)
            body.skipB = b.tokenStrings(in: .file)
            body.run(into: &walk.log)
        }
        for (x, y) in pairs { token(x, y, into: &walk) }
    }

    private func token(_ x: Int, _ y: Int, into walk: inout StructuralDiff) {
        let tx = a.token(x), ty = b.token(y)
        guard tx.document.text != ty.document.text else { return }
        let prefix = a.path(x)
        let name = { (part: String) in prefix.isEmpty ? part : "\(prefix) \(part)" }
        characters(tx, ty, name: name, into: &walk.log)
        if var header = JSONStructure(a.document, tx.layers.header, b.document, ty.layers.header, name: name("header")) {
            certificates(tx, ty, header: &header, name: name, into: &walk)
            header.run(into: &walk.log)
        }
        if var payload = JSONStructure(a.document, tx.layers.payload, b.document, ty.layers.payload, name: name("payload")) {
            if let layer = tx.layers.payload { payload.skipA = a.tokenStrings(in: layer) }
            if let layer = ty.layers.payload { payload.skipB = b.tokenStrings(in: layer) }
            payload.run(into: &walk.log)
        }
        signature(tx, ty, name: name("signature"), into: &walk.log)
    }

    /// A segment whose decoded bytes are equal but whose characters are not: padding, or other
    /// base64url characters for the same bits.
    private func characters(_ tx: JWSToken, _ ty: JWSToken, name: (String) -> String, into log: inout StructuralLog) {
        for role in JWSSegment.Role.allCases {
            guard let sx = tx.document.segment(role), let sy = ty.document.segment(role), sx.bytes == sy.bytes else { continue }
            let cx = tx.document.text[sx.characterRange], cy = ty.document.text[sy.characterRange]
            guard !cx.elementsEqual(cy) else { continue }
            let padding = cx.filter { $0 != UInt8(ascii: "=") }.elementsEqual(cy.filter { $0 != UInt8(ascii: "=") })
            let subject = name("\(role.rawValue) segment")
            log.report(.reencoded, a: side(a, tx.layers.token, sx.characterRange, subject),
                       b: side(b, ty.layers.token, sy.characterRange, subject),
                       note: padding ? "base64url padding" : "base64url characters differ, same bytes")
        }
    }

    /// x5c entries at the same position: a certificate whose base64 differs is compared as DER
    /// (its string is then left out of the header's JSON walk); the same DER written in other
    /// base64 is a re-encoding.
    private func certificates(_ tx: JWSToken, _ ty: JWSToken, header: inout JSONStructure, name: (String) -> String,
                              into walk: inout StructuralDiff) {
        let ca = tx.document.header.certificates, cb = ty.document.header.certificates
        for k in 0..<min(ca.count, cb.count, tx.layers.certificates.count, ty.layers.certificates.count) {
            guard ca[k].base64 != cb[k].base64 else { continue }
            header.skipA.insert(ca[k].node.index)
            header.skipB.insert(cb[k].node.index)
            let subject = name("x5c[\(k)]")
            if ca[k].der == cb[k].der {
                walk.log.report(.reencoded, a: side(a, tx.layers.certificates[k], 0..<ca[k].der.count, subject),
                                b: side(b, ty.layers.certificates[k], 0..<cb[k].der.count, subject),
                                note: "same certificate, other base64")
            } else {
                walk.compareLayers(tx.layers.certificates[k], ty.layers.certificates[k], prefix: subject)
            }
        }
    }

    /// The signature bytes: the span from the first to the last differing byte.
    private func signature(_ tx: JWSToken, _ ty: JWSToken, name: String, into log: inout StructuralLog) {
        guard let la = tx.layers.signature, let lb = ty.layers.signature else { return }
        let x = tx.document.signatureBytes, y = ty.document.signatureBytes
        guard x != y else { return }
        let common = min(x.count, y.count)
        var start = 0
        while start < common, x[start] == y[start] { start += 1 }
        var tail = 0
        while tail < common - start, x[x.count - 1 - tail] == y[y.count - 1 - tail] { tail += 1 }
        log.report(.contentChanged, a: side(a, la, start..<(x.count - tail), name), b: side(b, lb, start..<(y.count - tail), name),
                   note: x.count == y.count ? nil : "\(x.count) vs \(y.count) bytes")
    }

    private func side(_ s: StoreKitSide, _ layer: LayerID, _ range: Range<Int>, _ path: String) -> DiffSide {
        let tree = s.document.layer(layer).tree
        return DiffSide(node: tree?.roots.first.map { NodeID(layer, $0) }, layer: tree == nil ? layer : nil, range: range,
                        fileRange: s.document.fileRange(range, in: layer), path: path)
    }
}

/// The fields of two JSON bodies outside their tokens (a history's revision, hasMore,
/// environment; a status response's subscription group), by path: semantic entries, values
/// compared by content. Tokens are compared as tokens, and a part holding tokens that one side
/// lacks is told by those tokens' own entries.
struct BodyFields {
    let walk: JSONStructure
    let tokensA: Set<Int>, tokensB: Set<Int>
    var out: [DiffEntry] = []

    static func entries(_ a: StoreKitSide, _ b: StoreKitSide) -> [DiffEntry] {
        guard let walk = JSONStructure(a.document, .file, b.document, .file, name: "body"),
              let x = walk.treeA.root, let y = walk.treeB.root else { return [] }
        var fields = BodyFields(walk: walk, tokensA: a.tokenStrings(in: .file), tokensB: b.tokenStrings(in: .file))
        fields.compare(x, y, path: "")
        return fields.out
    }

    /// Whether the value at `node` is or holds a token.
    static func holdsToken(_ tree: JSONTree, _ tokens: Set<Int>, _ node: Int) -> Bool {
        (node..<tree[node].subtreeEnd).contains(where: tokens.contains)
    }

    mutating func compare(_ x: Int, _ y: Int, path: String) {
        let ta = walk.treeA, tb = walk.treeB
        if tokensA.contains(x) || tokensB.contains(y) { return }
        switch (ta[x].kind, tb[y].kind) {
        case (.object, .object):
            var seen = Set<String>()
            for m in ta.members(of: x) {
                let key = ta.key(ofMember: m) ?? ""
                guard !seen.contains(key), let va = ta.value(ofMember: m) else { continue }
                seen.insert(key)
                if let vb = tb.value(key, in: y) { compare(va, vb, path: StoreKitSide.join(path, key)) } else { removed(va, StoreKitSide.join(path, key)) }
            }
            for m in tb.members(of: y) {
                let key = tb.key(ofMember: m) ?? ""
                guard !seen.contains(key), let vb = tb.value(ofMember: m) else { continue }
                seen.insert(key)
                added(vb, StoreKitSide.join(path, key))
            }
        case (.array, .array):
            let ea = ta.children(of: x), eb = tb.children(of: y)
            for k in 0..<max(ea.count, eb.count) {
                switch (k < ea.count ? ea[k] : nil, k < eb.count ? eb[k] : nil) {
                case let (i?, j?): compare(i, j, path: "\(path)[\(k)]")
                case let (i?, nil): removed(i, "\(path)[\(k)]")
                case let (nil, j?): added(j, "\(path)[\(k)]")
                default: break
                }
            }
        default:
            if walk.hashA[x] != walk.hashB[y] {
                out.append(DiffEntry(kind: .fieldChanged, subject: path, a: side(walk.a, ta, x), b: side(walk.b, tb, y)))
            }
        }
    }

    mutating func removed(_ node: Int, _ path: String) {
        guard !Self.holdsToken(walk.treeA, tokensA, node) else { return }
        out.append(DiffEntry(kind: .fieldRemoved, subject: path, a: side(walk.a, walk.treeA, node)))
    }

    mutating func added(_ node: Int, _ path: String) {
        guard !Self.holdsToken(walk.treeB, tokensB, node) else { return }
        out.append(DiffEntry(kind: .fieldAdded, subject: path, b: side(walk.b, walk.treeB, node)))
    }

    func side(_ doc: Document, _ tree: JSONTree, _ node: Int) -> DiffSide {
        let value: String? = tree[node].kind == .object || tree[node].kind == .array ? nil : (tree.string(at: node) ?? tree.text(of: node))
        return DiffSide(node: NodeID(.file, node), range: tree[node].range, fileRange: tree[node].range, value: value)
    }
}
