import ASN1Lenient
import ByteText
import DocumentCore
import JSONLenient
import Threads

/// One row of the outline: a node of any layer (token text, header or payload JSON, signature,
/// a certificate's or a receipt's DER), with its range in that layer and what to show.
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
    /// For an ASN.1 node: its RFC 5280 / 5652 name and decoded detail, shown with the value
    /// ("issuer: CN=…", "serialNumber = 1234"); not searched (the value is, once, so a certificate
    /// string is one hit).
    public var name: NodeName?
}

/// Rows of one part of the outline: built rows (text layers, lazy blocks' head rows), ASN.1 runs
/// whose rows are made from the arena when read, and JSON runs whose rows are made from the tree.
struct RowSet: Sendable {
    let rows: [OutlineRow]
    /// Row index of each entry of `rows`, ascending.
    let positions: [Int]
    let runs: [TreeRun]
    /// By first row; a run's gaps hold its child layers' rows (built, runs, other JSON runs).
    let jsonRuns: [JSONRun]
    let index: [NodeID: Int]
    /// Built rows of each layer in pre-order (offset lookups by binary search).
    let byLayer: [LayerID: [Int]]
    let runOfLayer: [LayerID: Int]
    let jsonRunOfLayer: [LayerID: Int]
    /// Rows held (built or in runs).
    let count: Int
    /// Each JSON run's enclosing run (-1 for none): a run nests in its parent's gap, so the run
    /// holding a row is the last starting at or before it or one of that run's enclosing runs. A
    /// history's thousand tokens are thousands of runs, and a scan of them for every row read cost
    /// 5 ms a key.
    private let enclosingJSONRun: [Int]

    init(rows: [OutlineRow], positions: [Int], runs: [TreeRun], jsonRuns: [JSONRun] = []) {
        self.rows = rows
        self.positions = positions
        self.runs = runs
        self.jsonRuns = jsonRuns
        var index: [NodeID: Int] = [:], byLayer: [LayerID: [Int]] = [:], runOfLayer: [LayerID: Int] = [:]
        for (row, position) in zip(rows, positions) {
            if index[row.node] == nil { index[row.node] = position }
            byLayer[row.node.layer, default: []].append(position)
        }
        for (i, run) in runs.enumerated() where runOfLayer[run.layer] == nil { runOfLayer[run.layer] = i }
        var jsonRunOfLayer: [LayerID: Int] = [:]
        for (i, run) in jsonRuns.enumerated() where jsonRunOfLayer[run.layer] == nil { jsonRunOfLayer[run.layer] = i }
        self.index = index
        self.byLayer = byLayer
        self.runOfLayer = runOfLayer
        self.jsonRunOfLayer = jsonRunOfLayer
        count = rows.count + runs.reduce(0) { $0 + $1.count } + jsonRuns.reduce(0) { $0 + $1.nodes.count }
        var enclosing = [Int](repeating: -1, count: jsonRuns.count)
        var open: [Int] = []
        for i in jsonRuns.indices {
            while let top = open.last, jsonRuns[i].first >= jsonRuns[top].first + jsonRuns[top].count { open.removeLast() }
            enclosing[i] = open.last ?? -1
            open.append(i)
        }
        enclosingJSONRun = enclosing
    }

    /// The JSON run (its index) showing row `position`, and its JSON row there.
    func jsonRun(holding position: Int) -> (run: Int, row: Int)? {
        var i = SortedSearch.partition(jsonRuns.count) { jsonRuns[$0].first <= position } - 1
        while i >= 0 {
            let run = jsonRuns[i]
            if position < run.first + run.count { return run.jsonRow(at: position).map { (i, $0) } }
            i = enclosingJSONRun[i]
        }
        return nil
    }

    /// Whether row `position` is here (built, or in a run).
    func holds(_ position: Int) -> Bool {
        builtRow(position) != nil || run(holding: position) != nil || jsonRun(holding: position) != nil
    }

    /// The built row at `position`, by binary search.
    func builtRow(_ position: Int) -> OutlineRow? {
        var lo = 0, hi = positions.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if positions[mid] < position { lo = mid + 1 } else { hi = mid }
        }
        return lo < positions.count && positions[lo] == position ? rows[lo] : nil
    }

    /// The run holding row `position`.
    func run(holding position: Int) -> TreeRun? {
        // Disjoint and in row order: the last starting at or before `position`.
        let after = SortedSearch.partition(runs.count) { runs[$0].first <= position }
        guard after > 0, position < runs[after - 1].first + runs[after - 1].count else { return nil }
        return runs[after - 1]
    }

    func row(of node: NodeID) -> Int? {
        if let row = index[node] { return row }
        if let j = jsonRunOfLayer[node.layer] { return jsonRuns[j].jsonRow(ofNode: node.index).map(jsonRuns[j].rowIndex) }
        guard let r = runOfLayer[node.layer], node.index >= 0, node.index < runs[r].count else { return nil }
        return runs[r].first + node.index
    }
}

/// The tree of any document across its layers, generically: each layer's rows come from its
/// tree (ASN.1 nodes, JSON members, a text or raw layer's one row and named parts), each child
/// layer under the row of the range it was decoded from; the format's `OutlineWording` only names
/// them (a token's kind and header, a payload field's meaning). A pre-order arena with
/// `subtreeEnd` and `parent`, like the ASN.1 `Tree`, so the pane walks only the rows it shows.
///
/// Cost model: an ASN.1 layer's rows are its arena's nodes, row `first + i` ↔ node `i`, made
/// when read (no storage, no text up front); a JSON layer's rows are made from its tree when read
/// (`JSONRun`: 8 bytes a row up front). Row indices are fixed when the document opens, but
/// only the top layers' rows and one head row per child layer are built then (plus a row count
/// per child layer: O(JSON nodes), no text). A child layer's rows (a token: a few hundred, most
/// of them its certificates' nodes) are built the first time one of them is read, once, and kept
/// in `store`. A 1,000-transaction history opens with about two thousand rows built.
public struct LayerOutline: Sendable {
    /// Rows of the whole outline (built or not).
    public let count: Int
    let context: OutlineBuildContext
    /// The rows built at open time (the top layers' rows and each block's head row).
    let eager: RowSet
    /// Child layers' row blocks, by start.
    let blocks: [LayerBlock]
    /// The block holding each layer's rows (layer index → block index; -1: the eager rows).
    let layerBlock: [Int]
    let store = OutlineStore()

    /// The outline of `document`: the file layer's rows and everything decoded from them.
    public init(document: Document) {
        let context = OutlineBuildContext(document: document)
        var builder = OutlineBuilder(context: context, base: 0, lazy: true)
        builder.layer(.file, depth: 0)
        self.context = context
        count = builder.cursor
        blocks = builder.blocks
        eager = builder.rowSet
        var layerBlock = [Int](repeating: -1, count: document.layers.count)
        for (b, block) in blocks.enumerated() {
            for layer in context.descendants(of: block.layer) { layerBlock[layer.index] = b }
        }
        self.layerBlock = layerBlock
    }

    /// Row `index` (built on first use for rows inside a block).
    public func row(_ index: Int) -> OutlineRow {
        guard let row = row(index, in: set(holding: index)) else { preconditionFailure("outline row \(index) of \(count) not in its block") }
        return row
    }

    /// The rows holding row `index`: the eager ones, or its block's (built now if need be).
    func set(holding index: Int) -> RowSet {
        if eager.holds(index) { return eager }
        guard let b = block(containing: index) else { preconditionFailure("outline row \(index) of \(count)") }
        return built(b)
    }

    /// Row `index` of `set`, made now when it is in a run.
    func row(_ index: Int, in set: RowSet) -> OutlineRow? {
        if let row = set.builtRow(index) { return row }
        if let run = set.run(holding: index) { return treeRow(run, index) }
        if let (j, k) = set.jsonRun(holding: index) { return set.jsonRuns[j].row(k, in: context) }
        return nil
    }

    /// Row `index` of an ASN.1 run: node `index - first` of its layer, its text made now.
    func treeRow(_ run: TreeRun, _ index: Int) -> OutlineRow {
        let i = index - run.first
        let tree = context.document.layer(run.layer).tree!
        let n = tree.nodes[i]
        let preview = n.isConstructed ? "" : NodeText.preview(tree, i, maxLength: 48)   // escaped by `preview`
        var row = OutlineRow(node: NodeID(run.layer, i), range: n.byteRange, depth: run.depth + Int(n.depth),
                             subtreeEnd: run.first + Int(n.subtreeEnd), parent: Self.treeParent(run, i, n, tree),
                             label: UIText.escape(tree.tagName(of: i) + " " + NodeText.lengthText(n)), value: preview)
        row.name = store.names(of: run.layer) { context.document.names(for: run.layer) }[i]
        return row
    }

    /// The parent row of node `i` of an ASN.1 run.
    static func treeParent(_ run: TreeRun, _ i: Int, _ node: Node, _ tree: Tree) -> Int {
        node.depth > 0 ? run.first + tree.nodes.parentIndex(i) : run.parent
    }

    /// Where an unbuilt row `index` comes from: an ASN.1 run's node or a JSON run's row (nil: a
    /// built row). The structure of such a row (depth, subtree end, parent) is read from there
    /// without making its texts.
    private enum Unbuilt {
        case tree(TreeRun, Tree)
        case json(JSONRun, Int, JSONTree)
    }

    private func unbuilt(_ index: Int) -> Unbuilt? {
        let set = set(holding: index)
        guard set.builtRow(index) == nil else { return nil }
        if let run = set.run(holding: index), let tree = context.document.layer(run.layer).tree { return .tree(run, tree) }
        if let (j, k) = set.jsonRun(holding: index), let tree = context.document.layer(set.jsonRuns[j].layer).json {
            return .json(set.jsonRuns[j], k, tree)
        }
        return nil
    }

    /// Row `index`'s depth and subtree end without its text (an ASN.1 row's from its node): the
    /// default expansion walks many rows of a large DER file, and the tree pane's moves read the
    /// rows around the ones on screen.
    func extent(_ index: Int) -> (depth: Int, subtreeEnd: Int) {
        switch unbuilt(index) {
        case .tree(let run, let tree)?:
            let node = tree.nodes[index - run.first]
            return (run.depth + Int(node.depth), run.first + Int(node.subtreeEnd))
        case .json(let run, let k, let tree)?:
            return run.extent(k, in: tree)
        case nil:
            let row = row(index)
            return (row.depth, row.subtreeEnd)
        }
    }

    /// Row `index`'s parent row (-1 at the top) without its text: a frame walks the parents of the
    /// rows it shows and moves over (a row's text, its preview and names, is most of its cost).
    func parent(_ index: Int) -> Int {
        switch unbuilt(index) {
        case .tree(let run, let tree)?:
            let i = index - run.first
            return Self.treeParent(run, i, tree.nodes[i], tree)
        case .json(let run, let k, let tree)?:
            return run.parentRow(k, in: tree)
        case nil:
            return row(index).parent
        }
    }

    /// Every row, by index, as a collection (`rows[i]`); reading one builds only its block.
    public var rows: Rows { Rows(outline: self) }

    public struct Rows: RandomAccessCollection, Sendable {
        let outline: LayerOutline
        public var startIndex: Int { 0 }
        public var endIndex: Int { outline.count }
        public subscript(index: Int) -> OutlineRow { outline.row(index) }
    }

    /// The head row of the block holding `index`, when that block is not built yet.
    func unbuiltHead(_ index: Int) -> Int? {
        guard !eager.holds(index), let b = block(containing: index), store.block(b) == nil else { return nil }
        return blocks[b].start
    }

    /// The row showing `node`, if any.
    public func row(of node: NodeID) -> Int? {
        guard node.layer.index < layerBlock.count else { return nil }
        // A block's head row is found without building the block.
        if let row = eager.row(of: node) { return row }
        let b = layerBlock[node.layer.index]
        return b < 0 ? nil : built(b).row(of: node)
    }

    /// The deepest row of `layer` whose range holds `offset` (the byte pane's cursor selects it).
    public func deepestRow(in layer: LayerID, containing offset: Int) -> Int? {
        guard layer.index < layerBlock.count else { return nil }
        let b = layerBlock[layer.index]
        let set = b < 0 ? eager : built(b)
        if let r = set.runOfLayer[layer] {
            guard let tree = context.document.layer(layer).tree, let node = tree.deepestNode(containing: offset),
                  node < set.runs[r].count else { return nil }
            return set.runs[r].first + node
        }
        // Rows of one layer in pre-order start at non-decreasing offsets and nest: the last row
        // starting at or before `offset`, or its nearest ancestor of the same layer, holds it.
        var last: Int?
        if let j = set.jsonRunOfLayer[layer], let tree = context.document.layer(layer).json {
            last = set.jsonRuns[j].lastRow(startingAtOrBefore: offset, in: tree).map(set.jsonRuns[j].rowIndex)
        } else {
            let list = set.byLayer[layer] ?? []
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if row(list[mid]).range.lowerBound <= offset { lo = mid + 1 } else { hi = mid }
            }
            last = lo > 0 ? list[lo - 1] : nil
        }
        guard var candidate = last else { return nil }
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
        guard layer.index < context.childLayers.count else { return nil }
        let list = context.childLayers[layer.index]
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
    func built(_ b: Int) -> RowSet {
        if let done = store.block(b) { return done }
        let result = build(b)
        store.keep(result, for: b)
        return result
    }

    /// Builds block `b`'s rows without keeping them.
    func build(_ b: Int) -> RowSet {
        var builder = builder(for: b)
        builder.layer(blocks[b].layer, depth: blocks[b].depth)
        return builder.rowSet
    }

    /// A builder placed at block `b`'s first row, under the row holding it.
    func builder(for b: Int) -> OutlineBuilder {
        var builder = OutlineBuilder(context: context, base: blocks[b].start, lazy: false)
        builder.parents = [blocks[b].parent]
        return builder
    }
}

/// A child layer's rows: `start ..< start + count`, the first being the layer's own row.
struct LayerBlock: Sendable {
    var start: Int
    var count: Int
    var layer: LayerID
    var depth: Int
    var parent: Int
}

/// The built blocks, shared by every copy of the outline (rows are a pure function of the
/// document, so building one while rendering keeps `render` pure as far as anyone can observe).
// @unchecked: `blocks` and `names` are read and written only with `lock` held; the other slots are `MadeOnce` (locked too).
final class OutlineStore: @unchecked Sendable {
    private let lock = Lock()
    private var blocks: [Int: RowSet] = [:]
    private var names: [LayerID: NodeNames] = [:]
    /// Every diagnostic's row in outline order, found on the first `]` / `[`.
    private let diagnosticRows = MadeOnce<[OutlineDiagnostic]>()
    /// Every row's search text, made on the first search.
    private let searchText = MadeOnce<OutlineSearchIndex>()

    func block(_ b: Int) -> RowSet? {
        lock.lock()
        defer { lock.unlock() }
        return blocks[b]
    }

    /// How many blocks are built (tests check that opening and walking build few).
    var builtCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return blocks.count
    }

    func keep(_ block: RowSet, for b: Int) {
        lock.lock()
        blocks[b] = block
        lock.unlock()
    }

    /// The names of an ASN.1 layer's nodes, asked once per layer.
    func names(of layer: LayerID, _ compute: () -> NodeNames) -> NodeNames {
        lock.lock()
        if let known = names[layer] { lock.unlock(); return known }
        lock.unlock()
        let made = compute()
        lock.lock()
        names[layer] = made
        lock.unlock()
        return made
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
