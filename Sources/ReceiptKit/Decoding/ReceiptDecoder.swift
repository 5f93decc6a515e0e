import ASN1Lenient

/// Turns the payload SET of a parsed tree into a `Receipt`, with a finding for every structural or
/// semantic problem. Values are decoded from the bytes of each attribute's OCTET STRING; the
/// parser's expansion of those bytes (the inner node) is used for links when it exists.
struct ReceiptDecoder {
    let tree: Tree
    let nodes: NodeStore
    let bytes: [UInt8]
    /// Nodes that are cut short (truncated input, a length past the parent, a missing end-of-contents).
    let cutNodes: Set<Int>
    var findings: [Diagnostic] = []
    /// A value that should have been parsed as ASN.1 was not expanded by the parser: parse again
    /// with it on purpose so that every defect inside is reported.
    var needsPurposefulParse = false
    /// The purchase loop's "first field index of each type" table, reused from purchase to purchase
    /// (one allocation per receipt instead of one per purchase).
    private var seenScratch = [Int](repeating: -1, count: 22)

    init(tree: Tree) {
        self.tree = tree
        self.nodes = tree.nodes
        self.bytes = tree.bytes
        var cut = Set<Int>()
        for d in tree.diagnostics {
            guard let node = d.node else { continue }
            switch d.code.parserCode {
            case .truncatedContent?, .lengthExceedsParent?, .missingEOC?, .truncatedLength?, .truncatedIdentifier?:
                cut.insert(node)
            default: break
            }
        }
        cutNodes = cut
    }

    /// Whether a node's own bytes are cut short (its declared length ran past the input or its parent).
    func isCut(_ node: Int) -> Bool {
        !cutNodes.isEmpty && cutNodes.contains(node)
    }

    // MARK: - Payload

    mutating func decode(payloadSet set: Int) -> Receipt {
        var receipt = Receipt(payloadNode: set, bytes: bytes)
        receipt.isComplete = !isCut(set)
        var seen = [Int](repeating: -1, count: 22)
        let attributes = tree.childCount(of: set)
        receipt.fields.reserveCapacity(attributes)
        receipt.inApp.reserveCapacity(attributes)
        for child in tree.children(of: set) {
            guard decodeAttribute(child, level: .app, inAppIndex: nil, into: &receipt.fields) else { continue }
            let last = receipt.fields.count - 1
            let type = receipt.fields[last].type
            if type == 17 {
                let index = receipt.inApp.count
                receipt.fields[last].value = .inAppPurchase(index)
                receipt.inApp.append(decodePurchase(receipt.fields[last], index: index))
            } else if receipt.fields[last].isListed {  // 17 is the only repeatable type
                checkDuplicate(at: last, seen: &seen[type], fields: receipt.fields)
            }
        }
        checkMissing(seen: seen, required: ReceiptSchema.required(at: .app), set: set,
                     inAppIndex: nil, level: .app)
        return receipt
    }

    private mutating func decodePurchase(_ field: ReceiptField, index: Int) -> InAppPurchase {
        var purchase = InAppPurchase(index: index, attributeNode: field.attributeNode, setNode: nil)
        // Complete unless the bytes holding the purchase (its OCTET STRING or SET) are cut short;
        // a SEQUENCE that merely claims too much around a whole value still holds a whole purchase.
        purchase.isComplete = !isCut(field.valueNode ?? field.attributeNode)
        guard let inner = field.innerNode, nodes[inner].isUniversal(17), nodes[inner].isConstructed else {
            purchase.isComplete = false
            return purchase
        }
        purchase.setNode = inner
        if isCut(inner) { purchase.isComplete = false }
        var seen: [Int] = []
        swap(&seen, &seenScratch)
        for i in seen.indices { seen[i] = -1 }
        purchase.fields.reserveCapacity(tree.childCount(of: inner))
        for child in tree.children(of: inner) {
            guard decodeAttribute(child, level: .inApp, inAppIndex: index, into: &purchase.fields) else { continue }
            let last = purchase.fields.count - 1
            if purchase.fields[last].isListed {
                let slot = purchase.fields[last].type - 1701
                checkDuplicate(at: last, seen: &seen[slot], fields: purchase.fields)
                // The first occurrence is the one that counts.
                if seen[slot] == last { assign(type: slot + 1701, value: purchase.fields[last].value, to: &purchase) }
            }
        }
        checkMissing(seen: seen, required: ReceiptSchema.required(at: .inApp), set: inner,
                     inAppIndex: index, level: .inApp)
        swap(&seen, &seenScratch)
        return purchase
    }

    private func assign(type: Int, value: FieldValue, to p: inout InAppPurchase) {
        switch type {
        case 1701: p.quantity = value.integer
        case 1702: p.productID = value.string
        case 1703: p.transactionID = value.string
        case 1704: p.purchaseDate = value.date
        case 1705: p.originalTransactionID = value.string
        case 1706: p.originalPurchaseDate = value.date
        case 1707: p.productType = value.integer
        case 1708: p.expiresDate = value.date
        case 1711: p.webOrderLineItemID = value.integerText
        case 1712: p.cancellationDate = value.date
        case 1713: p.isTrialPeriod = value.integer.map { $0 != 0 }
        case 1719: p.isInIntroOfferPeriod = value.integer.map { $0 != 0 }
        case 1720: p.cancellationReason = value.integer
        case 1721: p.promotionalOfferID = value.string
        default: break
        }
    }

    /// Records the first field index of a singleton type; reports later ones. `index`: the field's
    /// position in `fields`, which already holds it.
    private mutating func checkDuplicate(at index: Int, seen: inout Int, fields: [ReceiptField]) {
        if seen < 0 {
            seen = index
            return
        }
        let f = fields[index]
        let first = fields[seen]
        let firstOffset = nodes[first.attributeNode].offset
        findings.append(.receipt(.duplicate,
            "\(f.spec!.label) (\(f.spec!.name)) appears more than once; the first occurrence, at offset \(firstOffset), is the one used",
            node: f.attributeNode, in: tree))
    }

    /// `inAppIndex` nil: the receipt itself. The message is built only when something is missing.
    private mutating func checkMissing(seen: [Int], required: [AttributeSpec], set: Int, inAppIndex: Int?,
                                       level: AttributeLevel) {
        // A cut SET lost its tail: absent attributes are a consequence of the truncation already reported.
        guard !isCut(set) else { return }
        for spec in required {
            let slot = level == .app ? spec.type : spec.type - 1701
            if seen[slot] < 0 {
                findings.append(.receipt(.missing,
                    "required \(spec.label) (\(spec.name)) is missing from \(inAppIndex.map { "in-app purchase #\($0 + 1)" } ?? "the receipt")",
                    node: set, in: tree))
            }
        }
    }

    // MARK: - One attribute

    /// Appends the attribute's `ReceiptField` to `fields` (built in place: the struct is large and
    /// copying it per attribute was a measurable cost); false when the node is not an attribute.
    private mutating func decodeAttribute(_ node: Int, level: AttributeLevel, inAppIndex: Int?,
                                          into fields: inout [ReceiptField]) -> Bool {
        let n = nodes[node]
        if n.kind == .unparsed { return false }  // the parser already reported these bytes
        // Messages are built only on the error paths: this runs for every attribute of every purchase.
        func place() -> String { level == .app ? "the payload" : "in-app purchase #\((inAppIndex ?? 0) + 1)" }
        guard n.isUniversal(16), n.isConstructed else {
            findings.append(.receipt(.attributeMalformed,
                "an element of \(place()) is \(InnerTLV.describe(tag: firstOctet(node))), an attribute SEQUENCE was expected",
                node: node, in: tree))
            return false
        }
        // The first three readable children, and how many there are, without allocating.
        var p0 = -1, p1 = -1, p2 = -1, count = 0
        var c = node + 1
        let end = Int(n.subtreeEnd)
        while c < end {
            if nodes[c].kind == .tlv {
                switch count {
                case 0: p0 = c
                case 1: p1 = c
                case 2: p2 = c
                default: break
                }
                count += 1
            }
            c = Int(nodes[c].subtreeEnd)
        }
        guard count >= 1, let type = smallInteger(p0) else {
            if !isCut(node) {
                findings.append(.receipt(.attributeMalformed,
                    "an attribute of \(place()) does not start with its type INTEGER", node: node, in: tree))
            }
            return false
        }
        func label() -> String { ReceiptSchema.label(type: type, level: level) }
        guard count >= 3 else {
            if !isCut(node) {
                findings.append(.receipt(.attributeMalformed,
                    "\(label()): the attribute has \(count) element(s), 3 expected (type, version, value)",
                    node: node, in: tree))
            }
            return false
        }
        if count > 3 {
            findings.append(.receipt(.attributeMalformed,
                "\(label()): the attribute has \(count) elements, 3 expected (type, version, value); the extra ones are ignored",
                node: node, in: tree, severity: .warning))
        }
        let versionNode = p1
        let version = nodes[versionNode].isUniversal(2) ? contentInt64(versionNode) : nil
        if version == nil {
            findings.append(.receipt(.attributeMalformed,
                "\(label()): the version is \(InnerTLV.describe(tag: firstOctet(versionNode))), an INTEGER was expected",
                node: versionNode, in: tree))
        }
        // The value OCTET STRING; a constructed one (BER) is accepted when it has a single segment.
        var valueNode = p2
        if nodes[valueNode].isUniversal(4) && nodes[valueNode].isConstructed,
           tree.childCount(of: valueNode) == 1, let only = tree.child(of: valueNode, at: 0),
           nodes[only].isUniversal(4), !nodes[only].isConstructed {
            valueNode = only
        }
        let vn = nodes[valueNode]
        guard vn.isUniversal(4), !vn.isConstructed else {
            findings.append(.receipt(.attributeMalformed,
                "\(label()): the value is \(InnerTLV.describe(tag: firstOctet(valueNode))), a primitive OCTET STRING was expected",
                node: valueNode, in: tree))
            return false
        }
        var inner: Int?
        if vn.isEncapsulated, tree.hasChildren(valueNode) { inner = valueNode + 1 }
        let valueRange = vn.contentRange
        var value = FieldValue.bytes
        if let expected = ReceiptSchema.expected(type: type, level: level) {
            value = decodeValue(expected, type: type, level: level, range: valueRange,
                                valueNode: valueNode, innerNode: inner)
        }
        fields.append(ReceiptField(type: type, level: level, version: version, attributeNode: node,
                                   typeNode: p0, versionNode: versionNode, valueNode: valueNode,
                                   innerNode: inner, valueRange: valueRange, value: value, inAppIndex: inAppIndex))
        return true
    }

    // MARK: - Values

    /// A listed attribute's value. The spec's strings are looked up only to build a finding.
    private mutating func decodeValue(_ expected: ExpectedValue, type: Int, level: AttributeLevel,
                                      range: Range<Int>, valueNode: Int, innerNode: Int?) -> FieldValue {
        var spec: AttributeSpec { ReceiptSchema.spec(type: type, level: level)! }
        switch expected {
        case .bytes:
            return .bytes
        case .fixedBytes(let count):
            if range.count != count {
                findings.append(.receipt(.wrongType,
                    "\(spec.label): value is \(range.count) raw byte(s), \(count) raw bytes (\(spec.name)) were expected",
                    node: valueNode, in: tree))
            }
            return .bytes
        default:
            break
        }
        let expectedTag = expected.tagByte!
        // The inner TLV: the parser's node when it expanded the value, else a header read here.
        var tag: UInt8?
        var content: Range<Int>?
        var cut = false
        if let inner = innerNode {
            let n = nodes[inner]
            if n.kind == .tlv {
                tag = bytes[Int(n.offset)]
                content = n.contentRange
                cut = isCut(inner)
            }
            if nodes[inner].subtreeEnd < nodes[valueNode].subtreeEnd {
                findings.append(.receipt(.wrongType,
                    "\(spec.label): the value holds more than one element, \(expected.description) was expected",
                    node: valueNode, in: tree))
            }
        } else if let header = InnerTLV.read(bytes, at: range.lowerBound, limit: range.upperBound),
                  header.fits, !header.indefinite || header.isConstructed {
            tag = header.tag
            content = header.contentStart..<header.contentEnd
            cut = isCut(valueNode)
            if header.tag == expectedTag && (header.contentEnd == range.upperBound || header.indefinite) {
                needsPurposefulParse = true
            }
        }
        let pinned = innerNode ?? valueNode
        guard let tag, let content else {
            if !isCut(valueNode) {
                let what = range.isEmpty ? "empty" : "not an ASN.1 element (\(range.count) raw byte(s))"
                findings.append(.receipt(.wrongType,
                    "\(spec.label): value is \(what), \(expected.description) was expected",
                    node: pinned, in: tree))
            }
            return .invalid("not \(expected.description)")
        }
        if tag != expectedTag {
            findings.append(.receipt(.wrongType,
                "\(spec.label): value is \(InnerTLV.describe(tag: tag)), \(expected.description) was expected",
                node: pinned, in: tree))
            // Still show what is there when it is text of another string type.
            guard isStringTag(tag), expected != .integer, expected != .flag, expected != .inAppSet else {
                return .invalid("\(InnerTLV.describe(tag: tag)) instead of \(expected.description)")
            }
        }
        let slice = bytes[content]
        switch expected {
        case .utf8String, .ia5String:
            return .string(String(decoding: slice, as: UTF8.self))
        case .integer, .flag:
            if slice.isEmpty { return .invalid("an empty INTEGER") }
            if let v = int64(slice) { return .integer(v) }
            return .bigInteger(IntegerValue.decimal(slice))
        case .date:
            switch ReceiptDate.parse(slice) {
            case .date(let d): return .date(d)
            case .absent: return .absentDate
            case .invalid(let why):
                let text = String(decoding: slice, as: UTF8.self)
                if !cut {
                    findings.append(.receipt(.dateInvalid,
                        "\(spec.label) (\(spec.name)): '\(text)' is not an RFC 3339 date: \(why)",
                        node: pinned, in: tree))
                }
                return .invalid("not an RFC 3339 date: \(why)")
            }
        case .inAppSet:
            return .bytes  // replaced by .inAppPurchase by the caller
        case .bytes, .fixedBytes:
            return .bytes
        }
    }

    private func isStringTag(_ tag: UInt8) -> Bool {
        [0x0C, 0x12, 0x13, 0x14, 0x16, 0x1A, 0x1B, 0x1E].contains(tag)
    }

    private func firstOctet(_ node: Int) -> UInt8 {
        let n = nodes[node]
        return n.kind == .tlv && Int(n.offset) < bytes.count ? bytes[Int(n.offset)] : 0
    }

    /// An INTEGER node's value when it fits in an Int.
    private func smallInteger(_ node: Int) -> Int? {
        guard nodes[node].isUniversal(2), !nodes[node].isConstructed else { return nil }
        return contentInt64(node).flatMap { Int(exactly: $0) }
    }

    /// `IntegerValue.int64` of a node's content, read in place: slicing `bytes` for it retained and
    /// released the array twice per attribute.
    private func contentInt64(_ node: Int) -> Int64? {
        let n = nodes[node]
        let start = n.contentStart
        let count = Int(n.contentLength)
        guard count >= 1, count <= 8 else { return nil }
        var value: Int64 = bytes[start] & 0x80 != 0 ? -1 : 0
        for i in start..<(start + count) { value = (value << 8) | Int64(bytes[i]) }
        return value
    }

    private func int64(_ content: ArraySlice<UInt8>) -> Int64? { IntegerValue.int64(content) }

}
