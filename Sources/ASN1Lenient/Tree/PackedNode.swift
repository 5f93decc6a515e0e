/// A node as the arena keeps it: 16 bytes, so that the 1.8 million nodes of a 20,000-purchase
/// receipt take 29 MB instead of 36 (docs/performance.md, "`dump` memory").
///
/// `offset`, `contentLength`, `subtreeEnd` and the flags-and-depth word are `Node`'s own; the tag
/// number, the identifier length and the length-octet count share the last 16 bits (`header`):
/// tag number in bits 6-15, identifier length in bits 3-5, length-octet count in bits 0-2. A node
/// whose values do not fit there (a tag number of 1023 or more, an identifier or a length of 8
/// octets or more: rare, and mostly in hostile input) has `header == escaped` and its three values
/// in the store's `NodeEscape` table, keyed by node index. `NodeStore` and `NodeBuilder` hand out
/// whole `Node`s, so nothing outside them sees the packing.
@usableFromInline
struct PackedNode: Equatable {
    @usableFromInline var offset: UInt32
    @usableFromInline var contentLength: UInt32
    @usableFromInline var subtreeEnd: Int32
    /// `Node.packed`: the flags in the low 6 bits, the depth in the high 10.
    @usableFromInline var packed: UInt16
    /// Tag number, identifier length and length-octet count, or `escaped`.
    @usableFromInline var header: UInt16

    /// The header of a node whose values are in the escape table. Never a packed value: that
    /// would need tag number 1023, which does not fit.
    @usableFromInline static let escaped: UInt16 = 0xFFFF
    static let tagShift: UInt16 = 6
    static let identifierShift: UInt16 = 3
    /// The largest values kept in place.
    static let maxTagNumber: UInt32 = 1022
    static let maxOctets: UInt8 = 7

    @usableFromInline var isEscaped: Bool { header == Self.escaped }

    /// Packs `node`; `isEscaped` then says whether its values must go to the escape table.
    @inline(__always)
    init(_ node: Node) {
        offset = node.offset
        contentLength = node.contentLength
        subtreeEnd = node.subtreeEnd
        packed = node.packed
        if node.tagNumber <= Self.maxTagNumber && node.identifierLength <= Self.maxOctets
            && node.lengthLength <= Self.maxOctets {
            header = UInt16(truncatingIfNeeded: node.tagNumber) << Self.tagShift
                | UInt16(node.identifierLength) << Self.identifierShift | UInt16(node.lengthLength)
        } else {
            header = Self.escaped
        }
    }

    /// A node with a one-octet identifier: class and constructed bit from `first` as `Node`'s
    /// general `init` sets them, the depth given as `depth << Node.Flag.depthShift`, at most 3
    /// length octets (the parser's common loop; `NodeStoreTests` checks it against `Node.init`
    /// for every octet).
    @inline(__always)
    init(offset: Int, first: UInt8, depthBits: UInt16, lengthLength: Int) {
        self.offset = UInt32(truncatingIfNeeded: offset)
        contentLength = 0
        subtreeEnd = 0
        packed = depthBits | UInt16(first &>> 5)
        header = UInt16(first & 0x1F) &<< Self.tagShift | 1 &<< Self.identifierShift
            | UInt16(truncatingIfNeeded: lengthLength)
    }

    /// The node, for a packed one (`!isEscaped`).
    @inlinable @inline(__always)
    var unpacked: Node {
        Node(offset: offset, contentLength: contentLength, tagNumber: UInt32(header &>> 6), subtreeEnd: subtreeEnd,
             identifierLength: UInt8(truncatingIfNeeded: header &>> 3) & 7,
             lengthLength: UInt8(truncatingIfNeeded: header) & 7, packed: packed)
    }

    var depth: UInt16 { packed >> Node.Flag.depthShift }
    var isEncapsulated: Bool { packed & Node.Flag.encapsulated != 0 }

    /// `Node.isUniversal` for a packed node (`!isEscaped`: an escaped node's tag number is in the table).
    @inline(__always)
    func isUniversal(_ number: UInt32) -> Bool {
        UInt32(header &>> Self.tagShift) == number && packed & (0b11 << Node.Flag.classShift) == 0
            && header & (7 << Self.identifierShift) != 0
    }

    @inline(__always)
    mutating func set(_ flag: UInt16, _ on: Bool = true) {
        if on { packed |= flag } else { packed &= ~flag }
    }
}

/// The values of an escaped node (`PackedNode.escaped`), kept in index order.
@usableFromInline
struct NodeEscape: Equatable {
    @usableFromInline var index: Int32
    @usableFromInline var tagNumber: UInt32
    @usableFromInline var identifierLength: UInt8
    @usableFromInline var lengthLength: UInt8

    init(index: Int, _ node: Node) {
        self.index = Int32(truncatingIfNeeded: index)
        tagNumber = node.tagNumber
        identifierLength = node.identifierLength
        lengthLength = node.lengthLength
    }

    /// The node at `index`, packed as `packed` (escaped), with its values from `escapes` (sorted
    /// by index; it holds an entry for every escaped node).
    @usableFromInline @inline(never)
    static func node(_ packed: PackedNode, at index: Int, in escapes: UnsafeBufferPointer<NodeEscape>) -> Node {
        guard let position = Self.position(of: index, in: escapes) else {
            preconditionFailure("escaped node \(index) has no entry in the escape table")
        }
        let escape = escapes[position]
        return Node(offset: packed.offset, contentLength: packed.contentLength, tagNumber: escape.tagNumber,
                    subtreeEnd: packed.subtreeEnd, identifierLength: escape.identifierLength,
                    lengthLength: escape.lengthLength, packed: packed.packed)
    }

    /// Where the entry for `index` is in `escapes`, by binary search.
    static func position(of index: Int, in escapes: UnsafeBufferPointer<NodeEscape>) -> Int? {
        var low = 0, high = escapes.count
        while low < high {
            let middle = (low + high) / 2
            let found = Int(escapes[middle].index)
            if found == index { return middle }
            if found < index { low = middle + 1 } else { high = middle }
        }
        return nil
    }
}
