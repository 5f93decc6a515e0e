import ASN1Lenient

/// Turns the payload SET of a parsed tree into a `Receipt`, with a finding for every structural or
/// semantic problem. Values are decoded from the bytes of each attribute's OCTET STRING; the
/// parser's expansion of those bytes (the inner node) is used for links when it exists.
///
/// This runs for every attribute of every purchase (190,000 in a 10,000-purchase receipt), so node
/// facts are read from `Node`'s stored fields and the identifier octet (class and constructed bit)
/// rather than through its computed accessors, which are calls across the module boundary.
struct ReceiptDecoder {
    let tree: Tree
    let nodes: NodeStore
    let bytes: [UInt8]
    /// Nodes that are cut short (truncated input, a length past the parent, a missing end-of-contents).
    let cutNodes: Set<Int>
    /// Findings, at most 10,000 of each code (a payload of a million malformed attributes is
    /// one finding a node otherwise).
    var found = DiagnosticCap()
    var findings: [Diagnostic] { found.diagnostics }
    /// `findings`, handed over without a copy once decoding is done.
    mutating func takeFindings() -> [Diagnostic] { found.takeDiagnostics() }
    /// A value that should have been parsed as ASN.1 was not expanded by the parser: parse again
    /// with it on purpose so that every defect inside is reported.
    var needsPurposefulParse = false
    /// The purchase loop's "first field index of each type" table, reused from purchase to purchase
    /// (one allocation per receipt instead of one per purchase).
    private var seenScratch = [Int](repeating: -1, count: 22)
    /// The field table being built (see `ReceiptFieldTable`).
    var appRecords: [FieldRecord] = []
    var inAppRecords: [FieldRecord] = []
    /// The first in-app record of each purchase (`ReceiptFieldTable.purchaseStarts`).
    var purchaseStarts: [Int32] = []
    var sideValues: [FieldValue] = []
    /// The attribute node of each side value and of each purchase (their records hold an index).
    var sideNodes: [Int32] = []
    var purchaseNodes: [Int32] = []
    /// Records of types outside the schema (`Receipt.unlistedCount` without a pass over the table).
    var unlistedCount = 0
    /// `ReceiptSchema.expected` of each type, indexed by type (app) and type - 1701 (in-app): read
    /// once per receipt, not through the schema's lazily initialised globals per attribute.
    private let appExpected = (0...(ReceiptSchema.app.map(\.type).max() ?? 0)).map {
        ReceiptSchema.expected(type: $0, level: .app)
    }
    private let inAppExpected = (1701...(ReceiptSchema.inApp.map(\.type).max() ?? 1701)).map {
        ReceiptSchema.expected(type: $0, level: .inApp)
    }

    init(tree: Tree) {
        self.tree = tree
        self.nodes = tree.nodes
        self.bytes = tree.bytes
        var cut = Set<Int>()
        for d in tree.diagnostics {
            guard let node = d.node?.index else { continue }
            switch d.code.parserCode {
            case .truncatedContent?, .lengthExceedsParent?, .missingEOC?, .truncatedLength?, .truncatedIdentifier?:
                cut.insert(node)
            default: break
            }
        }
        cutNodes = cut
    }

    /// Whether a node's own bytes are cut short (its declared length ran past the input or its parent).
    @inline(__always)
    func isCut(_ node: Int) -> Bool {
        !cutNodes.isEmpty && cutNodes.contains(node)
    }

    // MARK: - Node facts from stored fields

    @inline(__always)
    static func contentStart(_ n: Node) -> Int { Int(n.offset) + Int(n.identifierLength) + Int(n.lengthLength) }

    @inline(__always)
    static func contentRange(_ n: Node) -> Range<Int> {
        let start = contentStart(n)
        return start..<(start + Int(n.contentLength))
    }

    // MARK: - Payload

    mutating func decode(payloadSet set: Int) -> Receipt {
        let nodes = self.nodes, bytes = self.bytes
        return nodes.withUnsafeBufferPointer { nb in
            bytes.withUnsafeBufferPointer { bb in decode(payloadSet: set, nb, bb) }
        }
    }

    /// `nb`, `bb`: the tree's nodes and bytes, read directly on the per-attribute path.
    private mutating func decode(payloadSet set: Int, _ nb: UnsafeNodeBuffer,
                                 _ bb: UnsafeBufferPointer<UInt8>) -> Receipt {
        var receipt = Receipt(payloadNode: set, bytes: bytes)
        receipt.isComplete = !isCut(set)
        var seen = [Int](repeating: -1, count: 22)
        let attributes = tree.childCount(of: set)
        let end = min(Int(nb[set].subtreeEnd), nb.count)
        // Room for every record at once, instead of growing to 180,000 records (10,000 purchases)
        // by doubling, copying and faulting in fresh pages at every step; no more than the
        // attributes can make: a SET of millions of empty attributes reserved half a gigabyte, and
        // a bound of a quarter of the nodes still 40 MB for 5 MB of them (issue 32).
        let census = Self.census(set: set, end: end, nb, bb)
        appRecords.reserveCapacity(min(attributes, census.appRecords))
        inAppRecords.reserveCapacity(census.purchaseNodes / 4)
        receipt.inApp.reserveCapacity(census.purchases)
        purchaseStarts.reserveCapacity(census.purchases)
        var c = set + 1
        while c < end {
            let child = c
            c = max(Int(nb[c].subtreeEnd), c + 1)
            guard let added = decodeAttribute(child, level: .app, inAppIndex: nil, app: true, nb, bb) else { continue }
            let last = appRecords.count - 1
            if added.type == 17 {
                let index = receipt.inApp.count
                appRecords[last].kind = .inAppPurchase
                appRecords[last].word = Int32(index)
                purchaseNodes.append(Int32(child))
                receipt.inApp.append(InAppPurchase(index: index, attributeNode: child, setNode: nil))
                decodePurchase(valueNode: added.valueNode, attributeNode: child,
                               innerNode: added.innerNode >= 0 ? added.innerNode : nil, into: &receipt.inApp[index], nb, bb)
            } else if added.listed {  // 17 is the only repeatable type
                checkDuplicate(at: last, type: added.type, seen: &seen[added.type], app: true, start: 0)
            }
        }
        checkMissing(seen: seen, required: ReceiptSchema.required(at: .app), set: set,
                     inAppIndex: nil, level: .app)
        let table = ReceiptFieldTable(bytes: bytes, nodes: nodes, app: appRecords, inApp: inAppRecords,
                                      purchaseStarts: purchaseStarts, side: sideValues, sideNodes: sideNodes,
                                      purchaseNodes: purchaseNodes, unlistedCount: unlistedCount)
        receipt.table = table
        for i in receipt.inApp.indices {
            let range = receipt.inApp[i].fields.range
            receipt.inApp[i].fields = ReceiptFields(table: table, level: .inApp, range: range)
        }
        return receipt
    }

    /// What the payload's attributes can make, from their node counts: every attribute that makes
    /// a record has at least four nodes (itself and three children), and so has every attribute of
    /// a purchase, inside a type-17 attribute's nodes.
    private static func census(set: Int, end: Int, _ nb: UnsafeNodeBuffer,
                               _ bb: UnsafeBufferPointer<UInt8>) -> (appRecords: Int, purchases: Int, purchaseNodes: Int) {
        var appRecords = 0, purchases = 0, purchaseNodes = 0, c = set + 1
        while c < end {
            let next = max(Int(nb[c].subtreeEnd), c + 1)
            if next >= c + 4 { appRecords += 1 }
            if next > c + 1 {
                let type = nb[c + 1], start = contentStart(type)
                if type.isUniversal(2), !type.isConstructed, type.contentLength == 1, start < bb.count, bb[start] == 17 {
                    purchases += 1
                    purchaseNodes += next - c
                }
            }
            c = next
        }
        return (appRecords, purchases, purchaseNodes)
    }

    /// Decodes the purchase in place (building it apart and copying it into `Receipt.inApp` cost
    /// a retain and release of what it holds).
    private mutating func decodePurchase(valueNode: Int?, attributeNode: Int, innerNode: Int?,
                                         into purchase: inout InAppPurchase,
                                         _ nb: UnsafeNodeBuffer, _ bb: UnsafeBufferPointer<UInt8>) {
        let index = purchase.index
        // Complete unless the bytes holding the purchase (its OCTET STRING or SET) are cut short;
        // a SEQUENCE that merely claims too much around a whole value still holds a whole purchase.
        purchase.isComplete = !isCut(valueNode ?? attributeNode)
        let start = inAppRecords.count
        purchaseStarts.append(Int32(start))
        guard let inner = innerNode, inner < nb.count, AttributeReader.isUniversal(nb[inner], 17, bb),
              AttributeReader.isConstructed(nb[inner], bb) else {
            purchase.isComplete = false
            purchase.fields = ReceiptFields(table: .empty, level: .inApp, range: start..<start)
            return
        }
        purchase.setNode = inner
        if isCut(inner) { purchase.isComplete = false }
        var seen: [Int] = []
        swap(&seen, &seenScratch)
        for i in seen.indices { seen[i] = -1 }
        var c = inner + 1
        let end = min(Int(nb[inner].subtreeEnd), nb.count)
        while c < end {
            let child = c
            c = max(Int(nb[c].subtreeEnd), c + 1)
            guard let added = decodeAttribute(child, level: .inApp, inAppIndex: index, app: false,
                                              nb, bb) else { continue }
            if added.listed {
                // The first occurrence is the one that counts (`InAppPurchase` reads its typed values from it).
                checkDuplicate(at: inAppRecords.count - 1 - start, type: added.type, seen: &seen[added.type - 1701],
                               app: false, start: start)
            }
        }
        // The table is shared once the whole receipt is decoded (see `decode(payloadSet:)`).
        purchase.fields = ReceiptFields(table: .empty, level: .inApp, range: start..<inAppRecords.count)
        checkMissing(seen: seen, required: ReceiptSchema.required(at: .inApp), set: inner,
                     inAppIndex: index, level: .inApp)
        swap(&seen, &seenScratch)
    }

    /// Records the first field index of a singleton type; reports later ones. `index`: the field's
    /// position in its list (from `start` in the app-level or in-app records), which already holds it.
    private mutating func checkDuplicate(at index: Int, type: Int, seen: inout Int, app: Bool, start: Int) {
        if seen < 0 {
            seen = index
            return
        }
        let f = app ? appRecords[start + index] : inAppRecords[start + index]
        let first = app ? appRecords[start + seen] : inAppRecords[start + seen]
        let firstOffset = nodes[attributeNode(of: first)].offset
        let spec = ReceiptSchema.spec(type: type, level: f.level)!
        found.receipt(.duplicate,
            "\(spec.label) (\(spec.name)) appears more than once; the first occurrence, at offset \(firstOffset), is the one used",
            node: attributeNode(of: f), in: tree)
    }

    /// A record's attribute node while the table is being built (`ReceiptFieldTable.attributeNode`).
    private func attributeNode(of r: FieldRecord) -> Int {
        switch r.kind {
        case .inAppPurchase: Int(purchaseNodes[Int(r.word)])
        case .side: Int(sideNodes[Int(r.word)])
        default: Int(r.word)
        }
    }

    /// `inAppIndex` nil: the receipt itself. The message is built only when something is missing.
    private mutating func checkMissing(seen: [Int], required: [AttributeSpec], set: Int, inAppIndex: Int?,
                                       level: AttributeLevel) {
        // A cut SET lost its tail: absent attributes are a consequence of the truncation already reported.
        guard !isCut(set) else { return }
        for spec in required {
            let slot = level == .app ? spec.type : spec.type - 1701
            if seen[slot] < 0 {
                found.receipt(.missing,
                    "required \(spec.label) (\(spec.name)) is missing from \(inAppIndex.map { "in-app purchase #\($0 + 1)" } ?? "the receipt")",
                    node: set, in: tree)
            }
        }
    }

    // MARK: - One attribute

    /// What `decodeAttribute` tells its caller of an attribute it recorded.
    struct Added {
        var type: Int
        var listed: Bool
        var valueNode: Int
        /// -1: the parser did not expand the value.
        var innerNode: Int
    }

    /// Appends the attribute's record to its list and returns what the caller needs of it; nil when
    /// the node is not an attribute. The nodes are read in one pass
    /// by `AttributeReader`; findings are worded only on the error paths.
    private mutating func decodeAttribute(_ node: Int, level: AttributeLevel, inAppIndex: Int?, app: Bool,
                                          _ nb: UnsafeNodeBuffer,
                                          _ bb: UnsafeBufferPointer<UInt8>) -> Added? {
        let shape = AttributeReader.read(node, nodes: nb, bytes: bb)
        guard shape.isParsed else { return nil }  // unparsed: the parser already reported these bytes
        func place() -> String { level == .app ? "the payload" : "in-app purchase #\((inAppIndex ?? 0) + 1)" }
        guard shape.isSequence else {
            found.receipt(.attributeMalformed,
                "an element of \(place()) is \(InnerTLV.describe(tree, node)), an attribute SEQUENCE was expected",
                node: node, in: tree)
            return nil
        }
        guard shape.count >= 1, let type = shape.type else {
            if !isCut(node) {
                found.receipt(.attributeMalformed,
                    "an attribute of \(place()) does not start with its type INTEGER", node: node, in: tree)
            }
            return nil
        }
        func label() -> String { ReceiptSchema.label(type: type, level: level) }
        let count = shape.count
        guard count >= 3 else {
            if !isCut(node) {
                found.receipt(.attributeMalformed,
                    "\(label()): the attribute has \(count) element(s), 3 expected (type, version, value)",
                    node: node, in: tree)
            }
            return nil
        }
        if count > 3 {
            found.receipt(.attributeMalformed,
                "\(label()): the attribute has \(count) elements, 3 expected (type, version, value); the extra ones are ignored",
                node: node, in: tree, severity: .warning)
        }
        let versionNode = shape.versionNode
        let version = shape.version
        if version == nil {
            found.receipt(.attributeMalformed,
                "\(label()): the version is \(InnerTLV.describe(tree, versionNode)), an INTEGER was expected",
                node: versionNode, in: tree)
        }
        let valueNode = shape.valueNode
        guard shape.valueIsOctetString else {
            found.receipt(.attributeMalformed,
                "\(label()): the value is \(InnerTLV.describe(tree, valueNode)), a primitive OCTET STRING was expected",
                node: valueNode, in: tree)
            return nil
        }
        let vn = nb[valueNode]
        let inner = Int(vn.subtreeEnd) > valueNode + 1 && vn.isEncapsulated ? valueNode + 1 : -1
        let valueStart = Self.contentStart(vn)
        let valueEnd = valueStart + Int(vn.contentLength)
        let expected: ExpectedValue?
        if app {
            expected = type >= 0 && type < appExpected.count ? appExpected[type] : nil
        } else {
            expected = type >= 1701 && type - 1701 < inAppExpected.count ? inAppExpected[type - 1701] : nil
        }
        var stored = StoredValue()
        if let expected {
            decodeValue(expected, type: type, level: level, range: valueStart..<valueEnd, valueNode: valueNode,
                        innerNode: inner >= 0 ? inner : nil, into: &stored)
        } else {
            unlistedCount += 1
        }
        // The nodes, version and value range are the tree's to say again (`AttributeParts`).
        if stored.kind == .side { sideNodes.append(Int32(node)) }
        let record = FieldRecord(type: type, kind: stored.kind, inAppLevel: !app, isListed: expected != nil,
                                 word: stored.kind == .side ? Int(stored.sideIndex) : node)
        if app { appRecords.append(record) } else { inAppRecords.append(record) }
        return Added(type: type, listed: expected != nil, valueNode: valueNode, innerNode: inner)
    }
}
