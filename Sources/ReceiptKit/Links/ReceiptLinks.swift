import ASN1Lenient

/// Which part of an attribute a node is.
public enum FieldPart: String, Sendable, Equatable {
    /// The attribute SEQUENCE itself.
    case attribute
    /// Its type INTEGER.
    case type
    /// Its version INTEGER.
    case version
    /// The OCTET STRING holding the value.
    case value
    /// The value's own TLV inside the OCTET STRING (the UTF8String, INTEGER, in-app SET …).
    case innerValue
    /// Deeper inside the value (an element of an unlisted attribute's SEQUENCE, say).
    case insideValue
}

/// The answer to "which receipt field is this node?".
public struct FieldLocation: Sendable, Equatable {
    public var level: AttributeLevel
    /// The in-app purchase (index into `Receipt.inApp`): set for every field inside a purchase and
    /// for the app-level attribute 17 that holds it.
    public var inAppIndex: Int?
    /// Index into `Receipt.fields` (app level) or `Receipt.inApp[inAppIndex].fields` (in-app level).
    public var fieldIndex: Int
    public var attributeType: Int
    public var part: FieldPart

    public init(level: AttributeLevel, inAppIndex: Int?, fieldIndex: Int, attributeType: Int, part: FieldPart) {
        self.level = level
        self.inAppIndex = inAppIndex
        self.fieldIndex = fieldIndex
        self.attributeType = attributeType
        self.part = part
    }

    /// "bundle id (attribute 2)", "in-app purchase #3 · product id (in-app 1702)".
    public var label: String {
        let name = ReceiptSchema.displayName(type: attributeType, level: level)
        if level == .inApp, let i = inAppIndex { return "in-app purchase #\(i + 1) · \(name)" }
        if attributeType == 17, let i = inAppIndex { return "in-app purchase #\(i + 1)" }
        return name
    }
}

/// Two-way links between decoded fields and tree nodes.
///
/// Field → node: every `ReceiptField` keeps `attributeNode`, `typeNode`, `versionNode`,
/// `valueNode` and `innerNode` (and `Receipt.node(at:)` resolves a `FieldLocation`).
/// Node → field: `location(of:)` climbs from the node to the nearest attribute SEQUENCE through a
/// per-node slot table pointing at the field's record in the receipt's field table: O(depth), no
/// hashing, cheap enough to call for every visible row.
/// Node indices are those of `ReceiptAnalysis.receiptTree` (the input's tree, or the reassembled
/// payload's tree when the payload came in several chunks).
public struct ReceiptLinks: Sendable {
    /// Collects the slots field by field: the decoder fills one as it decodes (so opening a
    /// receipt does not walk every field a second time), `init(receipt:tree:)` too.
    struct Builder {
        /// For each node: when the node is an attribute SEQUENCE, 1 + the index of its record in the
        /// field table's app-level list, or -(1 + the index) in its in-app list; else 0.
        var slots: [Int32] = []
        var count = 0
        let nodeCount: Int

        /// The table (4 bytes a node) is made at the first attribute linked: a payload of
        /// elements that are no attributes (dense hostile input) links none and costs nothing.
        init(nodeCount: Int) {
            self.nodeCount = nodeCount
        }

        @inline(__always)
        mutating func add(attributeNode: Int, record: Int, app: Bool) {
            if slots.isEmpty { slots = [Int32](repeating: 0, count: nodeCount) }
            guard attributeNode >= 0, attributeNode < slots.count else { return }
            slots[attributeNode] = app ? Int32(record + 1) : -Int32(record + 1)
            count += 1
        }

        func links(_ tree: Tree, table: ReceiptFieldTable) -> ReceiptLinks {
            ReceiptLinks(nodes: tree.nodes, slots: slots, count: count, table: table)
        }
    }

    private let nodes: NodeStore
    private let slots: [Int32]
    private let linked: Int
    private let table: ReceiptFieldTable

    public static let empty = ReceiptLinks(nodes: [], slots: [], count: 0, table: .empty)

    private init(nodes: NodeStore, slots: [Int32], count: Int, table: ReceiptFieldTable) {
        self.nodes = nodes
        self.slots = slots
        self.linked = count
        self.table = table
    }

    public init(receipt: Receipt, tree: Tree) {
        var builder = Builder(nodeCount: tree.count)
        let table = receipt.table
        for (i, r) in table.app.enumerated() { builder.add(attributeNode: Int(r.attributeNode), record: i, app: true) }
        for (i, r) in table.inApp.enumerated() { builder.add(attributeNode: Int(r.attributeNode), record: i, app: false) }
        self = builder.links(tree, table: table)
    }

    /// Number of attributes linked (app level and in-app).
    public var count: Int { linked }

    /// Which field (and which in-app purchase) a node belongs to; nil outside the payload's attributes.
    public func location(of node: Int) -> FieldLocation? {
        guard node >= 0, node < slots.count else { return nil }
        var n = node
        while n >= 0 {
            let slot = slots[n]
            if slot != 0 {
                let e = slot > 0 ? table.app[Int(slot) - 1] : table.inApp[Int(-slot) - 1]
                let part: FieldPart
                if node == n { part = .attribute }
                else if node == Int(e.typeNode) { part = .type }
                else if node == Int(e.versionNode) { part = .version }
                else if node == Int(e.valueNode) { part = .value }
                else if node == Int(e.innerNode) { part = .innerValue }
                else { part = .insideValue }
                let inApp = e.inAppLevel ? Int(e.inApp) : e.kind == .inAppPurchase ? Int(e.scalar) : nil
                return FieldLocation(level: e.level, inAppIndex: inApp, fieldIndex: Int(e.position),
                                     attributeType: e.type, part: part)
            }
            n = nodes.parentIndex(n)
        }
        return nil
    }
}

extension Receipt {
    /// The field a location names (the reverse of `ReceiptLinks.location(of:)`).
    public func field(at location: FieldLocation) -> ReceiptField? {
        switch location.level {
        case .app:
            return fields.indices.contains(location.fieldIndex) ? fields[location.fieldIndex] : nil
        case .inApp:
            guard let p = location.inAppIndex, inApp.indices.contains(p),
                  inApp[p].fields.indices.contains(location.fieldIndex) else { return nil }
            return inApp[p].fields[location.fieldIndex]
        }
    }

    /// The node a location's part refers to (for `.insideValue`, the inner value holding it).
    public func node(at location: FieldLocation) -> Int? {
        guard let f = field(at: location) else { return nil }
        switch location.part {
        case .attribute: return f.attributeNode
        case .type: return f.typeNode
        case .version: return f.versionNode
        case .value: return f.valueNode
        case .innerValue, .insideValue: return f.innerNode
        }
    }
}
