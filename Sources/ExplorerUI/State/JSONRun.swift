import ByteText
import DocumentCore
import JSONLenient

/// A JSON layer's rows, made from its tree when read (like an ASN.1 `TreeRun`): a member and its
/// value are one row, an object's or array's children are rows below it, and the child layers
/// decoded from a string value (a nested token, an x5c certificate) follow its row. Up front it
/// keeps 8 bytes a row (the row's JSON node and its place among its siblings) and one entry per
/// string that has child layers, instead of an `OutlineRow` (≈ 300 bytes with its texts).
struct JSONRun: Sendable {
    /// Child layers' rows under JSON row `after`: rows `after + 1 ..< after + 1 + count` of the
    /// run once the `before` rows of earlier gaps are added.
    struct Gap: Sendable {
        var after: Int
        var before: Int
        var count: Int
    }

    var first: Int
    /// Rows from `first` to the end of the layer's rows, its child layers' included.
    var count: Int
    var layer: LayerID
    /// The depth of the root's row.
    var depth: Int
    /// The row the layer's root hangs under (-1 at the top).
    var parent: Int
    /// The root row's label (the format's heading, or the layer's name), not yet escaped.
    var label: String
    var fields: [Int: FieldWording]
    /// The JSON node of each JSON row, ascending (pre-order without members' values).
    var nodes: [UInt32] = []
    /// Each JSON row's position among its container's children (`[i]`, and a container's count).
    var ordinals: [UInt32] = []
    var gaps: [Gap] = []

    /// Outline row of JSON row `k` (`k == nodes.count`: the row after the run).
    func rowIndex(_ k: Int) -> Int {
        let g = SortedSearch.partition(gaps.count) { gaps[$0].after < k }
        return first + k + (g > 0 ? gaps[g - 1].before + gaps[g - 1].count : 0)
    }

    /// The JSON row at outline row `index`; nil outside the run or in a child layer's rows.
    func jsonRow(at index: Int) -> Int? {
        guard index >= first, index < first + count else { return nil }
        let offset = index - first
        // The last gap starting at or before `offset`.
        let g = SortedSearch.partition(gaps.count) { gaps[$0].after + 1 + gaps[$0].before <= offset }
        guard g > 0 else { return offset < nodes.count ? offset : nil }
        let gap = gaps[g - 1]
        let gapStart = gap.after + 1 + gap.before
        if offset < gapStart + gap.count { return nil }
        let k = offset - gap.before - gap.count
        return k < nodes.count ? k : nil
    }

    /// The JSON row showing node `node` (nil for a member's value, which shares its member's row).
    func jsonRow(ofNode node: Int) -> Int? {
        let k = lowerBound(node)
        return k < nodes.count && Int(nodes[k]) == node ? k : nil
    }

    /// The first JSON row whose node is at or after `node`.
    func lowerBound(_ node: Int) -> Int { SortedSearch.partition(nodes.count) { Int(nodes[$0]) < node } }

    /// The last JSON row whose node starts at or before `offset` (rows of one layer in pre-order
    /// start at non-decreasing offsets).
    func lastRow(startingAtOrBefore offset: Int, in tree: JSONTree) -> Int? {
        let k = SortedSearch.partition(nodes.count) { tree[Int(nodes[$0])].start <= offset }
        return k > 0 ? k - 1 : nil
    }

    /// The node whose row holds `node`'s row: its container, or the member whose value that is.
    static func rowParent(of node: Int, in tree: JSONTree) -> Int? {
        guard let container = tree.parent(of: node) else { return nil }
        if let member = tree.parent(of: container), tree.value(ofMember: member) == container { return member }
        return container
    }

    /// JSON row `k`'s depth and subtree end, without its texts.
    func extent(_ k: Int, in tree: JSONTree) -> (depth: Int, subtreeEnd: Int) {
        let node = Int(nodes[k])
        var depth = self.depth, current = node
        while let up = Self.rowParent(of: current, in: tree) { depth += 1; current = up }
        return (depth, rowIndex(lowerBound(tree[node].subtreeEnd)))
    }

    /// JSON row `k`'s parent row, without its texts.
    func parentRow(_ k: Int, in tree: JSONTree) -> Int { parentRow(up: Self.rowParent(of: Int(nodes[k]), in: tree)) }

    /// The parent row of a row whose node's row parent is `up` (nil: the run's own parent).
    private func parentRow(up: Int?) -> Int { up.flatMap { jsonRow(ofNode: $0).map(rowIndex) } ?? parent }

    /// JSON row `k`, its texts made now (escaped; a schema field's wording from `fields`).
    func row(_ k: Int, in context: OutlineBuildContext) -> OutlineRow {
        let tree = context.document.layer(layer).json!
        let index = Int(nodes[k])
        let node = tree[index]
        let extent = extent(k, in: tree)
        let up = Self.rowParent(of: index, in: tree)
        let parentRow = parentRow(up: up)
        var label = label
        if up != nil, let container = tree.parent(of: index) {
            label = tree[container].kind == .array ? "[\(ordinals[k])]" : (tree.key(ofMember: index) ?? "?")
        }
        let valueIndex = node.kind == .member ? tree.value(ofMember: index) : index
        var row = OutlineRow(node: NodeID(layer, index), range: node.range, depth: extent.depth, subtreeEnd: extent.subtreeEnd,
                             parent: parentRow, label: UIText.escape(label),
                             value: UIText.escape(valueIndex.map { summary(tree, $0) } ?? "(missing)"))
        if let field = fields[index] {
            if let display = field.display { row.value = UIText.escape(display) }
            row.meaning = context.meanings.escaped(field.meaning)
            row.raw = UIText.escape(valueIndex.map { String(tree.text(of: $0).prefix(120)) } ?? "")
        }
        return row
    }

    /// A value's preview: a container's count of children, a string quoted (cut at 57 characters).
    func summary(_ tree: JSONTree, _ index: Int) -> String {
        let node = tree[index]
        switch node.kind {
        case .object: return "{\(childCount(tree, index))}"
        case .array: return "[\(childCount(tree, index))]"
        case .string:
            let text = tree.string(at: index) ?? ""
            let count = tree.characterCount(ofString: index) ?? 0
            return count > 60 ? "\"" + String(text.prefix(57)) + "…\" (\(count) chars)" : "\"" + text + "\""
        default: return tree.text(of: index)
        }
    }

    /// How many children a container has: its last child's ordinal plus one (O(depth), not a walk
    /// of a dense array), or counted when that child has no row here (a block's head row alone).
    func childCount(_ tree: JSONTree, _ container: Int) -> Int {
        let end = tree[container].subtreeEnd
        guard end > container + 1 else { return 0 }
        var last = end - 1
        while let up = tree.parent(of: last), up != container { last = up }
        if let k = jsonRow(ofNode: last) { return Int(ordinals[k]) + 1 }
        var count = 0, child = container + 1
        while child < end { count += 1; child = tree[child].subtreeEnd }
        return count
    }
}
