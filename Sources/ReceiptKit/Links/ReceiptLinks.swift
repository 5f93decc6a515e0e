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
/// Node → field: `location(of:)` finds the attribute holding the node in the field table itself:
/// each list's attributes are siblings (disjoint subtrees, appended in node order by the decoder's
/// walk), so the one holding a node is the last that starts at or before it, found by binary
/// search, in-app first (the deeper); the part, purchase and position come from the tree and the
/// record's place. A table of 4 bytes a node said the same and took 7.2 MB for 20,000 purchases (issue 32).
/// Node indices are those of `ReceiptAnalysis.receiptTree` (the input's tree, or the reassembled
/// payload's tree when the payload came in several chunks).
public struct ReceiptLinks: Sendable {
    private let nodes: NodeStore
    private let table: ReceiptFieldTable

    public static let empty = ReceiptLinks(nodes: [], table: .empty)

    private init(nodes: NodeStore, table: ReceiptFieldTable) {
        self.nodes = nodes
        self.table = table
    }

    public init(receipt: Receipt, tree: Tree) {
        self.init(nodes: tree.nodes, table: receipt.table)
    }

    /// Number of attributes linked (app level and in-app): every record of the field table.
    public var count: Int { table.app.count + table.inApp.count }

    /// Which field (and which in-app purchase) a node belongs to; nil outside the payload's attributes.
    public func location(of node: Int) -> FieldLocation? {
        guard node >= 0, node < nodes.count else { return nil }
        let level: AttributeLevel
        let i: Int
        if let found = holder(of: node, in: table.inApp) {
            (level, i) = (.inApp, found)
        } else if let found = holder(of: node, in: table.app) {
            (level, i) = (.app, found)
        } else {
            return nil
        }
        let e = level == .app ? table.app[i] : table.inApp[i]
        let part: FieldPart
        if node == table.attributeNode(e) {
            part = .attribute
        } else {
            let p = table.parts(e)
            if node == p.typeNode { part = .type }
            else if node == p.versionNode { part = .version }
            else if node == p.valueNode { part = .value }
            else if node == p.innerNode { part = .innerValue }
            else { part = .insideValue }
        }
        let (purchase, position) = table.position(level, i)
        let inApp = purchase ?? (e.kind == .inAppPurchase ? table.index(e) : nil)
        return FieldLocation(level: level, inAppIndex: inApp, fieldIndex: position,
                             attributeType: table.typeNumber(e), part: part)
    }

    /// The index of the record whose attribute's subtree holds `node`: the last starting at or before it.
    private func holder(of node: Int, in records: [FieldRecord]) -> Int? {
        var low = 0, high = records.count
        while low < high {
            let mid = (low + high) / 2
            if table.attributeNode(records[mid]) <= node { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let attribute = table.attributeNode(records[low - 1])
        guard attribute >= 0, attribute < nodes.count, node < max(Int(nodes[attribute].subtreeEnd), attribute + 1) else { return nil }
        return low - 1
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
