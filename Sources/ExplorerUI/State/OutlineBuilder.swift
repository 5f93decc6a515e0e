import ASN1Lenient
import ByteText
import DocumentCore
import Threads
import JSONLenient

/// What building any part of an outline reads, computed once per document: the format's wording
/// of its layers and each layer's child layers by the range they were decoded from.
struct OutlineBuildContext: Sendable {
    let document: Document
    let wording: any OutlineWording
    /// Each layer's child layers with the range they come from in it, by start.
    let childLayers: [[(range: Range<Int>, layer: LayerID)]]
    /// Schema meanings escaped once each (every transaction's field rows show the same few dozen).
    let meanings = EscapedTexts()

    init(document: Document) {
        self.document = document
        wording = document.outlineWording
        var children = [[(range: Range<Int>, layer: LayerID)]](repeating: [], count: document.layers.count)
        for layer in document.layers {
            guard let parent = layer.parent, let map = layer.map else { continue }
            children[parent.index].append((map.parentRange(0..<layer.bytes.count), layer.id))
        }
        childLayers = children.map { $0.sorted { $0.range.lowerBound < $1.range.lowerBound } }
    }

    /// Child layers of `layer` whose bytes start inside `range`, by start.
    func children(of layer: LayerID, in range: Range<Int>) -> ArraySlice<(range: Range<Int>, layer: LayerID)> {
        let list = childLayers[layer.index]
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].range.lowerBound < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var end = lo
        while end < list.count, list[end].range.lowerBound < range.upperBound { end += 1 }
        return list[lo..<end]
    }

    /// `layer` and every layer decoded from it, at any depth.
    func descendants(of layer: LayerID) -> [LayerID] {
        var out = [layer], i = 0
        while i < out.count { out += childLayers[out[i].index].map(\.layer); i += 1 }
        return out
    }
}

/// An ASN.1 layer's rows: row `first + i` is node `i` of the layer's arena, made when it is read
/// (no storage and no text per row: a receipt's million nodes cost nothing until drawn).
struct TreeRun: Sendable {
    var first: Int
    var count: Int
    var layer: LayerID
    /// The depth of the layer's roots.
    var depth: Int
    /// The row the layer's roots hang under (-1 at the top).
    var parent: Int
}

/// Rows in pre-order from row `base`, generically over `Document.layers`: a JSON layer's members
/// (a `JSONRun`, each child layer under the string it was decoded from), an ASN.1 layer's nodes (a `TreeRun`),
/// a text or raw layer's one row with its named parts and child layers. With `lazy`, each child
/// layer of the top layers becomes a counted block (its head row built, the rest on first use);
/// `counting` only advances `cursor` (no text made).
struct OutlineBuilder {
    let context: OutlineBuildContext
    var document: Document { context.document }
    let lazy: Bool
    var counting = false
    /// Only the first row is built (a lazy block's head row).
    var headOnly = false
    /// The next row's index.
    var cursor: Int
    var rows: [OutlineRow] = []
    /// Row index of each entry of `rows` (they skip runs and unbuilt blocks).
    var positions: [Int] = []
    var runs: [TreeRun] = []
    var jsonRuns: [JSONRun] = []
    var blocks: [LayerBlock] = []
    /// Open rows, innermost last (their index), for each new row's parent.
    var parents: [Int] = []
    /// Set by the search index: a JSON child layer the format adds no field words to (a token's
    /// header, its certificates included) is counted, not built, and recorded here (first row,
    /// layer), since its rows' text depends only on its bytes and a history carries the same
    /// header in every token.
    var sharedRuns: [(row: Int, layer: LayerID)]?

    init(context: OutlineBuildContext, base: Int, lazy: Bool, counting: Bool = false) {
        self.context = context
        self.cursor = base
        self.lazy = lazy
        self.counting = counting
    }

    var isSilent: Bool { counting || headDone }
    /// A head-only builder has its row: nothing else needs walking.
    var headDone: Bool { headOnly && !(rows.isEmpty && runs.isEmpty) }

    /// Appends a row (its text only when building) and opens it; returns its index in `rows`.
    /// `valueIsSafe`: the value is already terminal-safe (the format's heading).
    @discardableResult
    mutating func open(_ node: NodeID, _ range: Range<Int>, depth: Int, label: @autoclosure () -> String,
                       value: @autoclosure () -> String = "", valueIsSafe: Bool = false) -> Int {
        defer { parents.append(cursor); cursor += 1 }
        guard !isSilent else { return -1 }
        rows.append(OutlineRow(node: node, range: range, depth: depth, subtreeEnd: cursor + 1, parent: parents.last ?? -1,
                               label: UIText.escape(label()), value: valueIsSafe ? value() : UIText.escape(value())))
        positions.append(cursor)
        return rows.count - 1
    }

    mutating func close(_ row: Int) {
        parents.removeLast()
        if row >= 0 { rows[row].subtreeEnd = cursor }
    }

    /// A layer's rows and, under them, its child layers'.
    mutating func layer(_ id: LayerID, depth: Int) {
        guard !headDone else { return }
        let document = self.document
        let layer = document.layer(id)
        let wording = context.wording
        switch layer.content {
        case .asn1(let tree):
            guard !tree.nodes.isEmpty else { return }
            if !isSilent { runs.append(TreeRun(first: cursor, count: headOnly ? 1 : tree.nodes.count, layer: id, depth: depth, parent: parents.last ?? -1)) }
            cursor += tree.nodes.count
            // A layer decoded from DER bytes (none is shown today) follows its nodes.
            attach(from: id, in: 0..<layer.bytes.count, depth: depth)
        case .json(let tree, _):
            guard !tree.nodes.isEmpty else { return }
            if sharedRuns != nil, !counting, !headOnly, wording.fields(of: id, in: document).isEmpty {
                sharedRuns?.append((cursor, id))
                counting = true
                json(tree, layer: id, depth: depth, label: "", fields: [:])
                counting = false
                return
            }
            let fields = isSilent ? [:] : wording.fields(of: id, in: document)
            json(tree, layer: id, depth: depth, label: wording.heading(of: id, in: document)?.label ?? layer.name, fields: fields)
        case .token, .raw:
            guard let heading = wording.heading(of: id, in: document) else {
                attach(from: id, in: 0..<layer.bytes.count, depth: depth)
                return
            }
            let bytes = layer.bytes
            let row = open(NodeID(id, 0), 0..<bytes.count, depth: depth, label: heading.label,
                           value: heading.value ?? "\(bytes.count) bytes", valueIsSafe: heading.value != nil)
            for (i, part) in wording.parts(of: id, in: document).enumerated() where part.range.upperBound <= bytes.count {
                close(open(NodeID(id, i + 1), part.range, depth: depth + 1, label: part.label, value: Self.hex(bytes.baseSlice(part.range))))
            }
            attach(from: id, in: 0..<bytes.count, depth: depth + 1)
            close(row)
        }
    }

    /// The child layers of `layer` decoded from bytes in `range`: built in place, or (lazy) each
    /// a counted block whose head row is built now.
    mutating func attach(from layer: LayerID, in range: Range<Int>, depth: Int) {
        let children = Array(context.children(of: layer, in: range))
        for child in children {
            if lazy && !isSilent { block(child.layer, depth: depth) } else { self.layer(child.layer, depth: depth) }
        }
    }

    /// A child layer as a block: counted now, its head row built now, the rest on first use.
    mutating func block(_ layer: LayerID, depth: Int) {
        var counter = OutlineBuilder(context: context, base: 0, lazy: false, counting: true)
        counter.layer(layer, depth: depth)
        guard counter.cursor > 0 else { return }
        let start = cursor, parent = parents.last ?? -1
        var head = OutlineBuilder(context: context, base: start, lazy: false)
        head.headOnly = true
        head.parents = [parent]
        head.layer(layer, depth: depth)
        // A layer without a row of its own (no heading) is built now: its children are the blocks.
        guard !head.rows.isEmpty || !head.runs.isEmpty else {
            self.layer(layer, depth: depth)
            return
        }
        blocks.append(LayerBlock(start: start, count: counter.cursor, layer: layer, depth: depth, parent: parent))
        if var row = head.rows.first {
            row.subtreeEnd = start + counter.cursor
            rows.append(row)
            positions.append(start)
        }
        runs += head.runs
        cursor = start + counter.cursor
    }

    /// A JSON layer's rows as a `JSONRun` (counted only, when silent; its root row alone, built,
    /// when head-only); the layers decoded from a string value are attached under its row.
    mutating func json(_ tree: JSONTree, layer: LayerID, depth: Int, label: @autoclosure () -> String,
                       fields: [Int: FieldWording]) {
        guard !headDone else { return }
        var run = JSONRun(first: cursor, count: 0, layer: layer, depth: depth, parent: parents.last ?? -1,
                          label: isSilent ? "" : label(), fields: fields)
        if headOnly {
            run.nodes = [0]
            run.ordinals = [0]
            run.count = 1
            rows.append(run.row(0, in: context))
            positions.append(cursor)
            cursor += 1
            return
        }
        let recording = !isSilent
        // Kept in row order: runs of layers attached inside this one are appended after it.
        let slot = jsonRuns.count
        if recording { jsonRuns.append(run) }
        walk(tree, &run, index: 0, ordinal: 0, depth: depth, recording: recording)
        run.count = cursor - run.first
        if recording { jsonRuns[slot] = run }
    }

    /// The row of JSON node `index` (a member with its value), then its container value's
    /// children, or the child layers decoded from its string value.
    private mutating func walk(_ tree: JSONTree, _ run: inout JSONRun, index: Int, ordinal: Int, depth: Int, recording: Bool) {
        let k = run.nodes.count, row = cursor
        if recording {
            run.nodes.append(UInt32(truncatingIfNeeded: index))
            run.ordinals.append(UInt32(truncatingIfNeeded: ordinal))
        }
        cursor += 1
        guard let v = tree[index].kind == .member ? tree.value(ofMember: index) : index else { return }
        let value = tree[v]
        if value.kind == .object || value.kind == .array {
            var child = v + 1, i = 0
            while child < value.subtreeEnd {
                walk(tree, &run, index: child, ordinal: i, depth: depth + 1, recording: recording)
                child = tree[child].subtreeEnd
                i += 1
            }
        } else if value.kind == .string {
            let before = cursor
            parents.append(row)
            attach(from: run.layer, in: value.range, depth: depth + 1)
            parents.removeLast()
            if recording, cursor > before {
                run.gaps.append(JSONRun.Gap(after: k, before: run.gaps.last.map { $0.before + $0.count } ?? 0, count: cursor - before))
            }
        }
    }

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        Hex.string(bytes.prefix(12), .lower) + (bytes.count > 12 ? "…" : "")
    }

    /// The rows built, by index, as a `RowSet`.
    var rowSet: RowSet { RowSet(rows: rows, positions: positions, runs: runs, jsonRuns: jsonRuns) }
}

/// `UIText.escape` of texts that repeat (Apple's field meanings), made once per text and shared by
/// every copy of the outline's build context.
// @unchecked: `done` is read and written only with `lock` held, and holds Strings.
final class EscapedTexts: @unchecked Sendable {
    private let lock = Lock()
    private var done: [String: String] = [:]

    func escaped(_ text: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = done[text] { return known }
        let escaped = UIText.escape(text)
        done[text] = escaped
        return escaped
    }
}
