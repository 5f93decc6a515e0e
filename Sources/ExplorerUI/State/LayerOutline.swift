import ASN1Lenient
import DocumentModel
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONLenient
import JWSKit

/// One row of a layer-aware outline: a node of any layer (token text, header or payload JSON,
/// signature, an x5c certificate's DER), with its range in that layer and what to show.
public struct OutlineRow: Sendable, Equatable {
    public var node: NodeID
    /// The node's bytes in its layer.
    public var range: Range<Int>
    public var depth: Int
    /// Rows `index + 1 ..< subtreeEnd` are this row's descendants (pre-order, like `Tree`).
    public var subtreeEnd: Int
    /// The parent row, -1 for a root: parents, ancestors and previous rows in O(depth).
    public var parent: Int = -1
    /// "header", "x5c[0]", "signedDate", "SEQUENCE (443)".
    public var label: String
    /// A short, escaped preview of the value ("1709294400000", "ES256", "{4}").
    public var value: String
    /// For a payload field: what it means (Apple's schema), and its value as written in the JSON.
    public var meaning: String = ""
    public var raw: String = ""
    /// For an x5c certificate's node: its RFC 5280 name and decoded detail, shown with the value
    /// ("issuer: CN=…", "serialNumber = 1234"); not searched (the value is, once, so a certificate
    /// string is one hit).
    public var name: NodeName?
}

/// The tree of a StoreKit 2 document across its layers: token → header (fields; each x5c entry
/// holds its certificate's ASN.1 tree) → payload (fields; a nested token under the field that
/// carries it) → signature (r, s). A pre-order arena with `subtreeEnd` and `parent`, like the
/// ASN.1 `Tree`, so the pane walks only the rows it shows.
///
/// Cost model: row indices are fixed when the document opens, but only the JSON body's own rows
/// and one head row per top-level token are built then (plus a row count per token: O(JSON nodes),
/// no text). A token's rows (a few hundred, most of them its certificates) are built the first
/// time one of them is read, once, and kept in `store`; lookups by node or by offset then cost
/// O(log rows) in the body and O(token rows) inside a token, whatever the document's size. A
/// 1,000-transaction history opens with about a thousand rows built instead of ~270,000.
public struct LayerOutline: Sendable {
    /// Rows of the whole outline (built or not).
    public let count: Int
    let context: OutlineBuildContext
    /// The rows built at open time (the body's rows and each top-level token's head row), by row index.
    let eager: [Int: OutlineRow]
    let eagerIndex: [NodeID: Int]
    /// The eager rows of each layer (the body's) in pre-order: offset lookups by binary search.
    let eagerByLayer: [LayerID: [Int]]
    /// Top-level tokens' row blocks, by start row.
    let blocks: [TokenBlock]
    /// The block holding each layer's rows (layer index → block index; -1: the eager rows).
    let layerBlock: [Int]
    /// The token each layer belongs to (layer index → token index; -1: the JSON body).
    let tokenOfLayer: [Int]
    /// Each layer's child layers with the range they come from in it, by start.
    let childLayers: [[(range: Range<Int>, layer: LayerID)]]
    let store = OutlineStore()

    /// Nil unless the document's format asks for the outline (receipts and other ASN.1 keep the file tree).
    public init?(document: Document) {
        guard document.explorerViews.contains(.layerOutline) else { return nil }
        // An external purchase token: its decoded JSON, each field with its meaning, in one outline.
        let external = document.externalPurchase
        guard let model = document.jws ?? (external == nil ? nil : JWSModel.empty) else { return nil }
        let context = OutlineBuildContext(document: document, model: model)
        var builder = OutlineBuilder(context: context, base: 0, lazyTopLevel: true)
        if let external {
            let fields = Dictionary(external.token.payload.fields.map { ($0.member.index, $0) }, uniquingKeysWith: { a, _ in a })
            builder.json(external.token.tree, layer: external.jsonLayer, index: 0, depth: 0, label: "external purchase token",
                         holder: nil, fields: fields)
        } else if let body = model.body {
            builder.json(body, layer: .file, index: 0, depth: 0, label: "body", holder: nil)
        } else {
            for index in model.tokens.indices where model.tokens[index].parent == nil {
                builder.topLevelToken(index, depth: 0, label: "token")
            }
        }
        self.context = context
        count = builder.cursor
        blocks = builder.blocks
        var eager: [Int: OutlineRow] = [:], index: [NodeID: Int] = [:], byLayer: [LayerID: [Int]] = [:]
        for (row, position) in zip(builder.rows, builder.positions) {
            eager[position] = row
            if index[row.node] == nil { index[row.node] = position }
            if row.node.layer == .file || model.body == nil { byLayer[row.node.layer, default: []].append(position) }
        }
        self.eager = eager
        eagerIndex = index
        eagerByLayer = byLayer
        var layerBlock = [Int](repeating: -1, count: document.layers.count)
        var tokenOfLayer = layerBlock
        for (b, block) in blocks.enumerated() {
            for token in context.descendants(of: block.token) {
                let ids = model.tokens[token].layers
                for layer in [ids.token, ids.header, ids.payload, ids.signature, ids.request].compactMap({ $0 }) + ids.certificates {
                    layerBlock[layer.index] = b
                    tokenOfLayer[layer.index] = token
                }
            }
        }
        self.layerBlock = layerBlock
        self.tokenOfLayer = tokenOfLayer
        var children = [[(range: Range<Int>, layer: LayerID)]](repeating: [], count: document.layers.count)
        for layer in document.layers {
            guard let parent = layer.parent, let map = layer.map else { continue }
            children[parent.index].append((map.parentRange(0..<layer.bytes.count), layer.id))
        }
        childLayers = children.map { $0.sorted { $0.range.lowerBound < $1.range.lowerBound } }
    }

    /// Row `index` (built on first use for rows inside a token).
    public func row(_ index: Int) -> OutlineRow {
        if let row = eager[index] { return row }
        guard let b = block(containing: index) else { preconditionFailure("outline row \(index) of \(count)") }
        return built(b).rows[index - blocks[b].start]
    }

    /// Every row, by index, as a collection (`rows[i]`); reading one builds only its token.
    public var rows: Rows { Rows(outline: self) }

    public struct Rows: RandomAccessCollection, Sendable {
        let outline: LayerOutline
        public var startIndex: Int { 0 }
        public var endIndex: Int { outline.count }
        public subscript(index: Int) -> OutlineRow { outline.row(index) }
    }

    /// The head row of the block holding `index`, when that block is not built yet.
    func unbuiltHead(_ index: Int) -> Int? {
        guard eager[index] == nil, let b = block(containing: index), store.block(b) == nil else { return nil }
        return blocks[b].start
    }

    /// The row showing `node`, if any.
    public func row(of node: NodeID) -> Int? {
        guard node.layer.index < layerBlock.count else { return nil }
        let b = layerBlock[node.layer.index]
        // A top-level token's own row is a head row: found without building its block.
        if let row = eagerIndex[node] { return row }
        return b < 0 ? nil : built(b).index[node]
    }

    /// The token `layer` belongs to (nil for a JSON body's own layer).
    public func token(of layer: LayerID) -> Int? {
        layer.index < tokenOfLayer.count && tokenOfLayer[layer.index] >= 0 ? tokenOfLayer[layer.index] : nil
    }

    /// The row of `token`'s text (its head row for a top-level token).
    public func tokenRow(_ token: Int) -> Int? {
        guard let model = context.document.jws, token < model.tokens.count else { return nil }
        return row(of: NodeID(model.tokens[token].layers.token, 0))
    }

    /// The deepest row of `layer` whose range holds `offset` (the byte pane's cursor selects it).
    public func deepestRow(in layer: LayerID, containing offset: Int) -> Int? {
        guard layer.index < layerBlock.count else { return nil }
        let b = layerBlock[layer.index]
        let list = b < 0 ? (eagerByLayer[layer] ?? []) : (built(b).byLayer[layer] ?? [])
        // Rows of one layer in pre-order start at non-decreasing offsets and nest: the last row
        // starting at or before `offset`, or its nearest ancestor of the same layer, holds it.
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if row(list[mid]).range.lowerBound <= offset { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        var candidate = list[lo - 1]
        while candidate >= 0 {
            let r = row(candidate)
            guard r.node.layer == layer else { return nil }
            if r.range.contains(offset) { return candidate }
            candidate = r.parent
        }
        return nil
    }

    /// The deepest row holding `offset` of `layer` or of any layer decoded from those bytes (a
    /// token's header and payload, an x5c certificate, a nested token), with the offset in each
    /// layer on the way down: `:` goes from a file offset to the innermost node.
    public func innermost(from layer: LayerID, offset: Int) -> (row: Int, path: [(layer: LayerID, offset: Int)])? {
        var best: Int?
        var path: [(layer: LayerID, offset: Int)] = []
        var current = (layer: layer, offset: offset)
        for _ in 0..<32 {
            path.append(current)
            if let r = deepestRow(in: current.layer, containing: current.offset) { best = r }
            guard let child = childLayer(of: current.layer, holding: current.offset),
                  let map = context.document.layer(child).map,
                  let inner = map.layerOffset(fromParent: current.offset), inner < context.document.layer(child).bytes.count else { break }
            current = (child, inner)
        }
        return best.map { ($0, path) }
    }

    /// The layer decoded from the bytes at `offset` of `layer` (binary search by range).
    public func childLayer(of layer: LayerID, holding offset: Int) -> LayerID? {
        guard layer.index < childLayers.count else { return nil }
        let list = childLayers[layer.index]
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].range.lowerBound <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && list[lo - 1].range.contains(offset) ? list[lo - 1].layer : nil
    }

    func block(containing index: Int) -> Int? {
        var lo = 0, hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if blocks[mid].start <= index { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0, index < blocks[lo - 1].start + blocks[lo - 1].count else { return nil }
        return lo - 1
    }

    /// The rows of block `b`, built once.
    func built(_ b: Int) -> BuiltBlock {
        if let done = store.block(b) { return done }
        let result = build(b)
        store.keep(result, for: b)
        return result
    }

    /// Builds block `b`'s rows without keeping them (search reads every token once).
    func build(_ b: Int) -> BuiltBlock {
        let block = blocks[b]
        var builder = builder(for: b)
        builder.token(block.token, depth: block.depth, label: block.label)
        return BuiltBlock(rows: builder.rows, base: block.start)
    }

    /// A builder placed at block `b`'s first row, under the row holding it.
    func builder(for b: Int) -> OutlineBuilder {
        var builder = OutlineBuilder(context: context, base: blocks[b].start, lazyTopLevel: false)
        builder.parents = [blocks[b].parent]
        return builder
    }

    /// Rows of block `b` whether built or not, kept only when already built.
    func rowsOfBlock(_ b: Int) -> BuiltBlock { store.block(b) ?? build(b) }
}

/// A top-level token's rows: `start ..< start + count`, the first being the token's own row.
struct TokenBlock: Sendable {
    var start: Int
    var count: Int
    var token: Int
    var depth: Int
    var parent: Int
    var label: String
}

/// A built block and its lookups.
struct BuiltBlock: Sendable {
    let rows: [OutlineRow]
    let index: [NodeID: Int]
    let byLayer: [LayerID: [Int]]

    init(rows: [OutlineRow], base: Int) {
        self.rows = rows
        var index: [NodeID: Int] = [:], byLayer: [LayerID: [Int]] = [:]
        for (i, row) in rows.enumerated() {
            if index[row.node] == nil { index[row.node] = base + i }
            byLayer[row.node.layer, default: []].append(base + i)
        }
        self.index = index
        self.byLayer = byLayer
    }
}

/// The built token blocks, shared by every copy of the outline (rows are a pure function of the
/// document, so building one while rendering keeps `render` pure as far as anyone can observe).
// @unchecked: `blocks` is read and written only with `lock` held; the other slots are `MadeOnce` (locked too).
final class OutlineStore: @unchecked Sendable {
    private let lock = Lock()
    private var blocks: [Int: BuiltBlock] = [:]
    /// Every diagnostic's row in outline order, found on the first `]` / `[`.
    private let diagnosticRows = MadeOnce<[OutlineDiagnostic]>()
    /// Every row's search text, made on the first search.
    private let searchText = MadeOnce<OutlineSearchIndex>()

    func block(_ b: Int) -> BuiltBlock? {
        lock.lock()
        defer { lock.unlock() }
        return blocks[b]
    }

    /// How many token blocks are built (tests check that opening and walking build few).
    var builtCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return blocks.count
    }

    func keep(_ block: BuiltBlock, for b: Int) {
        lock.lock()
        blocks[b] = block
        lock.unlock()
    }

    func searchIndex(_ compute: () -> OutlineSearchIndex) -> OutlineSearchIndex { searchText.value(compute) }

    /// Whether the first search has made the index (tests check that it is made once).
    var hasSearchIndex: Bool { searchText.isMade }

    func diagnostics(_ compute: () -> [OutlineDiagnostic]) -> [OutlineDiagnostic] { diagnosticRows.value(compute) }
}

/// A diagnostic of some layer and the row its range starts in.
public struct OutlineDiagnostic: Sendable {
    public var row: Int
    public var layer: LayerID
    public var diagnostic: Diagnostic
}
