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
/// per-node slot table: O(depth), no hashing, cheap enough to call for every visible row.
/// Node indices are those of `ReceiptAnalysis.receiptTree` (the input's tree, or the reassembled
/// payload's tree when the payload came in several chunks).
public struct ReceiptLinks: Sendable {
    struct Entry: Sendable {
        var inApp: Int32
        var field: Int32
        var type: Int32
        var inAppLevel: Bool
        var typeNode: Int32
        var versionNode: Int32
        var valueNode: Int32
        var innerNode: Int32
    }

    /// Collects the entries field by field: the decoder fills one as it decodes (so opening a
    /// receipt does not walk and copy every `ReceiptField` a second time), `init(receipt:tree:)` too.
    struct Builder {
        /// For each node: 1 + index into `entries` when the node is an attribute SEQUENCE, else 0.
        var slots: [Int32]
        var entries: [Entry] = []

        init(nodeCount: Int, capacity: Int) {
            slots = [Int32](repeating: 0, count: nodeCount)
            entries.reserveCapacity(capacity)
        }

        /// `index`: the field's position in `Receipt.fields` or in its purchase's `fields`.
        @inline(__always)
        mutating func add(attributeNode: Int, type: Int, level: AttributeLevel, inApp: Int?, index: Int,
                          typeNode: Int?, versionNode: Int?, valueNode: Int?, innerNode: Int?) {
            guard attributeNode >= 0, attributeNode < slots.count else { return }
            entries.append(Entry(inApp: Int32(inApp ?? -1), field: Int32(index), type: Int32(truncatingIfNeeded: type),
                                 inAppLevel: level == .inApp,
                                 typeNode: Int32(typeNode ?? -1), versionNode: Int32(versionNode ?? -1),
                                 valueNode: Int32(valueNode ?? -1), innerNode: Int32(innerNode ?? -1)))
            slots[attributeNode] = Int32(entries.count)
        }

        mutating func add(_ f: ReceiptField, inApp: Int?, index: Int) {
            add(attributeNode: f.attributeNode, type: f.type, level: f.level, inApp: inApp, index: index,
                typeNode: f.typeNode, versionNode: f.versionNode, valueNode: f.valueNode, innerNode: f.innerNode)
        }

        func links(_ tree: Tree) -> ReceiptLinks { ReceiptLinks(nodes: tree.nodes, slots: slots, entries: entries) }
    }

    private let nodes: NodeStore
    /// For each node: 1 + index into `entries` when the node is an attribute SEQUENCE, else 0.
    private let slots: [Int32]
    private let entries: [Entry]

    public static let empty = ReceiptLinks(nodes: [], slots: [], entries: [])

    private init(nodes: NodeStore, slots: [Int32], entries: [Entry]) {
        self.nodes = nodes
        self.slots = slots
        self.entries = entries
    }

    public init(receipt: Receipt, tree: Tree) {
        var builder = Builder(nodeCount: tree.count, capacity: receipt.fields.count + receipt.inApp.count * 24)
        for (i, f) in receipt.fields.enumerated() {
            var inApp: Int?
            if case .inAppPurchase(let p) = f.value { inApp = p }
            builder.add(f, inApp: inApp, index: i)
        }
        for p in receipt.inApp {
            for (j, f) in p.fields.enumerated() { builder.add(f, inApp: p.index, index: j) }
        }
        self = builder.links(tree)
    }

    /// Number of attributes linked (app level and in-app).
    public var count: Int { entries.count }

    /// Which field (and which in-app purchase) a node belongs to; nil outside the payload's attributes.
    public func location(of node: Int) -> FieldLocation? {
        guard node >= 0, node < slots.count else { return nil }
        var n = node
        while n >= 0 {
            let slot = slots[n]
            if slot != 0 {
                let e = entries[Int(slot) - 1]
                let part: FieldPart
                if node == n { part = .attribute }
                else if node == Int(e.typeNode) { part = .type }
                else if node == Int(e.versionNode) { part = .version }
                else if node == Int(e.valueNode) { part = .value }
                else if node == Int(e.innerNode) { part = .innerValue }
                else { part = .insideValue }
                return FieldLocation(level: e.inAppLevel ? .inApp : .app, inAppIndex: e.inApp >= 0 ? Int(e.inApp) : nil,
                                     fieldIndex: Int(e.field), attributeType: Int(e.type), part: part)
            }
            n = Int(nodes[n].parent)
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
