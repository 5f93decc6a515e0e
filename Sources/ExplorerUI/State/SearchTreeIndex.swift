import ASN1Lenient

/// Texts to search, each with the node a match in it selects: one field per text of one
/// ASCII-folded `SearchText`, so a query is one `memchr` + `memcmp` scan of the buffer.
struct NodeTexts: Sendable {
    private(set) var text = SearchText(fieldsPerRow: 1)
    private(set) var nodes: [Int32] = []

    mutating func add<C: Collection>(_ bytes: C, node: Int) where C.Element == UInt8 {
        text.append(field: bytes)
        nodes.append(Int32(truncatingIfNeeded: node))
    }

    mutating func add(_ string: String, node: Int) {
        var string = string
        string.withUTF8 { add($0, node: node) }
    }

    /// `String(value)`'s digits, written without making the string.
    mutating func add(decimal value: Int64, node: Int) {
        text.append(decimal: value)
        nodes.append(Int32(truncatingIfNeeded: node))
    }

    /// The node of each text holding `needle` (lower case), in the order the texts were added.
    func nodes(matching needle: [UInt8]) -> [Int] { text.matchingRows(needle).map { Int(nodes[$0]) } }
}

/// What a receipt (or any overlay) adds to `/` on the node tree: its texts (field values,
/// meanings), its decimals (integer values) and its field names, each name once with the
/// attribute nodes of every field that has it. Filled once, on the first search.
struct SearchEntries: Sendable {
    var texts = NodeTexts()
    var decimals = NodeTexts()
    /// Two fields per row (display name, label); `namedNodes[row]` holds the row's nodes.
    private(set) var names = SearchText(fieldsPerRow: 2)
    private(set) var namedNodes: [[Int32]] = []

    /// A field's value nodes (the OCTET STRING and the value parsed inside it) → the field's
    /// attribute node: a value found in the tree is one hit on its field, not one per level.
    private(set) var fieldOfValueNode: [Int32: Int32] = [:]

    mutating func addField(attribute: Int, values: [Int?]) {
        for case let value? in values where value != attribute {
            fieldOfValueNode[Int32(truncatingIfNeeded: value)] = Int32(truncatingIfNeeded: attribute)
        }
    }

    /// `node`, or the attribute node of the field whose value it is.
    func field(of node: Int) -> Int {
        fieldOfValueNode[Int32(truncatingIfNeeded: node)].map(Int.init) ?? node
    }

    mutating func addName(_ name: String, label: String, nodes: [Int32]) {
        names.append(field: name.utf8)
        names.append(field: label.utf8)
        namedNodes.append(nodes)
    }
}

/// `/` on a node tree (receipts and plain DER), made on the first search and kept in the state's
/// `RenderCache`: each node's tag name as an index into the distinct names, the texts a node's
/// value is matched by (strings, OIDs dotted and named, BOOLEAN words, short OCTET STRINGs), the
/// INTEGER decimals (tested only by a query of digits and `-`), and the receipt's own entries. A
/// query then scans these buffers instead of decoding every node and every receipt field.
/// `Search.scan` is the per-node test this must equal (tests compare the two).
struct TreeSearchIndex: Sendable {
    /// Distinct tag names, lower case, one per row; `tagOfNode[i]` is node i's row.
    let tagNames: SearchText
    let tagOfNode: [UInt32]
    let texts: NodeTexts
    let decimals: NodeTexts
    let entries: SearchEntries

    init(tree: Tree, entries: SearchEntries) {
        var names = SearchText(fieldsPerRow: 1)
        // Rows 0…30: the universal tag names; 31: an unparsed region; then other tags as met.
        for number in 0..<31 { names.append(field: UniversalTag.name(UInt32(number)).lowercased().utf8) }
        names.append(field: "unparsed".utf8)
        var otherTags: [UInt64: UInt32] = [:]
        var tagOfNode = [UInt32](repeating: 0, count: tree.count)
        var texts = NodeTexts(), decimals = NodeTexts()
        let nodes = tree.nodes
        tree.bytes.withUnsafeBufferPointer { buffer in
            tagOfNode.withUnsafeMutableBufferPointer { tagOfNode in
                for index in nodes.indices {
                    let node = nodes[index]
                    if node.kind == .unparsed { tagOfNode[index] = 31; continue }
                    if node.tagClass == .universal && node.tagNumber < 31 {
                        tagOfNode[index] = node.tagNumber
                    } else {
                        let key = UInt64(node.tagClass.rawValue) << 32 | UInt64(node.tagNumber)
                        tagOfNode[index] = otherTags[key] ?? {
                            names.append(field: tree.tagName(of: index).lowercased().utf8)
                            let row = UInt32(names.rowCount - 1)
                            otherTags[key] = row
                            return row
                        }()
                    }
                    guard node.tagClass == .universal, !node.isConstructed else { continue }
                    let content = UnsafeBufferPointer(rebasing: buffer[node.contentRange.clamped(to: 0..<buffer.count)])
                    switch node.tagNumber {
                    case 12, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27:
                        texts.add(content, node: index)
                    case 30, 28:
                        if case .string(let text, _)? = tree.value(of: index) { texts.add(text.lowercased(), node: index) }
                    case 2, 10:
                        guard content.count <= 64 else { break }
                        if content.count <= 8, !content.isEmpty, node.kind == .tlv {
                            decimals.add(decimal: Self.signedValue(content), node: index)
                        } else if case .integer(let decimal, _)? = tree.value(of: index) {
                            decimals.add(decimal, node: index)
                        }
                    case 6:
                        if case .objectIdentifier(let dotted, let name)? = tree.value(of: index) {
                            texts.add(dotted, node: index)
                            if let name { texts.add(name.lowercased(), node: index) }
                        }
                    case 4:
                        // An encapsulating string's bytes are its children's: they match on their own.
                        if !node.isEncapsulated, content.count <= 4096 { texts.add(content, node: index) }
                    case 1:
                        if let first = content.first { texts.add(first == 0 ? "false" : "true", node: index) }
                    default:
                        break
                    }
                }
            }
        }
        self.tagNames = names
        self.tagOfNode = tagOfNode
        self.texts = texts
        self.decimals = decimals
        self.entries = entries
    }

    /// Big-endian two's complement of 1…8 bytes (`IntegerValue.decimal`'s value at that size).
    static func signedValue(_ content: UnsafeBufferPointer<UInt8>) -> Int64 {
        var value: Int64 = content[0] & 0x80 != 0 ? -1 : 0
        for byte in content { value = value << 8 | Int64(byte) }
        return value
    }

    /// The nodes matching `needle` (lower case), ascending, each once, below `count`; without
    /// `treeNodes`, only the overlay's entries (a `0x` query scans the tree instead).
    func nodes(matching needle: [UInt8], count: Int, treeNodes: Bool = true) -> [Int] {
        var tagged: [Int] = []
        let tagRows = treeNodes ? tagNames.matchingRows(needle) : []
        if !tagRows.isEmpty {
            var matched = [Bool](repeating: false, count: tagNames.rowCount)
            for row in tagRows { matched[row] = true }
            tagOfNode.withUnsafeBufferPointer { tags in
                for (index, tag) in tags.enumerated() where matched[Int(tag)] { tagged.append(index) }
            }
        }
        let digits = Search.isDecimalQuery(needle)
        var other = entries.texts.nodes(matching: needle)
        if digits { other += entries.decimals.nodes(matching: needle) }
        if treeNodes {
            // A field's value matches as its field (one hit per field), its tag name as itself.
            other += texts.nodes(matching: needle).map(entries.field(of:))
            if digits { other += decimals.nodes(matching: needle).map(entries.field(of:)) }
        }
        for row in entries.names.matchingRows(needle) { other += entries.namedNodes[row].map(Int.init) }
        other = other.filter { $0 >= 0 && $0 < count }
        other.sort()
        return Self.mergeUnique(tagged, other)
    }

    /// The union of two ascending lists, ascending, each value once.
    static func mergeUnique(_ a: [Int], _ b: [Int]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count || j < b.count {
            let next = j >= b.count || (i < a.count && a[i] <= b[j]) ? a[i] : b[j]
            if out.last != next { out.append(next) }
            if i < a.count && a[i] == next { i += 1 }
            if j < b.count && b[j] == next { j += 1 }
        }
        return out
    }
}
