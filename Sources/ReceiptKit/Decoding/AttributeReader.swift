import ASN1Lenient

/// What one attribute `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` holds, as
/// far as its nodes say (no findings: the decoder words those).
struct AttributeShape: Equatable {
    /// The node is a parsed TLV (an unparsed region was already reported by the parser).
    var isParsed = false
    /// A universal, constructed SEQUENCE.
    var isSequence = false
    /// Parsed children, and the first three of them (-1: absent).
    var count = 0
    var typeNode = -1
    var versionNode = -1
    /// The third child as written.
    var thirdNode = -1
    /// The first child's value when it is a primitive universal INTEGER of 1 to 8 octets.
    var type: Int?
    /// The second child's value when it is a universal INTEGER of 1 to 8 octets.
    var version: Int64?
    /// The value OCTET STRING: the third child, or its only segment when it is a constructed
    /// OCTET STRING of one primitive OCTET STRING (BER).
    var valueNode = -1
    /// `valueNode` is a primitive universal OCTET STRING.
    var valueIsOctetString = false
}

/// Reads an attribute in one pass over the node buffer and the bytes: a 10,000-purchase receipt
/// has 190,000 attributes, and reading each child through `NodeStore`'s and `Array`'s checked
/// accessors from a method of the (large, mutable) decoder cost ≈ 460 instructions per attribute
/// (git log -p docs/performance.md, 2026-11-23). Stateless; every read is checked against the buffers' ends.
enum AttributeReader {
    @inline(__always)
    static func identifier(_ n: Node, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt8? {
        n.identifierLength != 0 && Int(n.offset) < bytes.count ? bytes[Int(n.offset)] : nil
    }

    /// `Node.isUniversal(number)`, from the identifier octet's class bits.
    @inline(__always)
    static func isUniversal(_ n: Node, _ number: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard n.tagNumber == number, let first = identifier(n, bytes) else { return false }
        return first & 0xC0 == 0
    }

    @inline(__always)
    static func isConstructed(_ n: Node, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = identifier(n, bytes) else { return false }
        return first & 0x20 != 0
    }

    /// `IntegerValue.int64` of a node's content (1 to 8 octets, two's complement), read in place.
    @inline(__always)
    static func int64(_ n: Node, _ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let start = Int(n.offset) + Int(n.identifierLength) + Int(n.lengthLength)
        let count = Int(n.contentLength)
        guard count >= 1, count <= 8, start + count <= bytes.count else { return nil }
        var value: Int64 = bytes[start] & 0x80 != 0 ? -1 : 0
        for i in start..<(start + count) { value = (value << 8) | Int64(bytes[i]) }
        return value
    }

    @inline(__always)
    static func read(_ node: Int, nodes: UnsafeNodeBuffer, bytes: UnsafeBufferPointer<UInt8>) -> AttributeShape {
        var shape = AttributeShape()
        guard node >= 0, node < nodes.count else { return shape }
        let n = nodes[node]
        guard n.identifierLength != 0 else { return shape }
        shape.isParsed = true
        guard isUniversal(n, 16, bytes), isConstructed(n, bytes) else { return shape }
        shape.isSequence = true
        // Children in pre-order: each one's subtree ends where its next sibling starts.
        var c = node + 1
        let end = min(Int(n.subtreeEnd), nodes.count)
        var count = 0
        while c < end {
            let child = nodes[c]
            if child.identifierLength != 0 {
                switch count {
                case 0:
                    shape.typeNode = c
                    if isUniversal(child, 2, bytes), !isConstructed(child, bytes), let v = int64(child, bytes) {
                        shape.type = Int(v)
                    }
                case 1:
                    shape.versionNode = c
                    if isUniversal(child, 2, bytes) { shape.version = int64(child, bytes) }
                case 2:
                    shape.thirdNode = c
                default: break
                }
                count += 1
            }
            c = max(Int(child.subtreeEnd), c + 1)
        }
        shape.count = count
        guard count >= 3 else { return shape }
        var value = shape.thirdNode
        let third = nodes[value]
        if isUniversal(third, 4, bytes) && isConstructed(third, bytes) {
            // One child (parsed or not) that is a primitive OCTET STRING: the single segment.
            let only = value + 1
            let thirdEnd = min(Int(third.subtreeEnd), nodes.count)
            if only < thirdEnd, Int(nodes[only].subtreeEnd) == thirdEnd,
               isUniversal(nodes[only], 4, bytes), !isConstructed(nodes[only], bytes) {
                value = only
            }
        }
        shape.valueNode = value
        let v = nodes[value]
        shape.valueIsOctetString = isUniversal(v, 4, bytes) && !isConstructed(v, bytes)
        return shape
    }
}
