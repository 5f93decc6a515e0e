/// A node as the arena keeps it: 12 bytes, so that the 1.8 million nodes of a 20,000-purchase
/// receipt take 22 MB instead of 29 (docs/performance.md, "`dump` memory").
///
/// `offset` and `subtreeEnd` are `Node`'s own; `bits` holds `Node.packed` (the flags and the depth)
/// in its low 16 bits and the header in its high 16: the tag number's low 5 bits in bits 27-31 and
/// its high 5 in bits 22-26, the identifier length in bits 19-21, the length-octet count in bits
/// 16-18. One word, so that the parser writes it with one store; the tag number split so that, for a
/// one-octet identifier, rotating the octet right by 5 puts class, constructed bit and tag number in
/// place at once (the parser's common loop builds a node with about as many instructions as when
/// the fields were apart). The content length is not stored: almost every node's is the definite
/// length its own length octets declare, read back from the input (`definiteLength`), which the
/// store keeps with its nodes. A node whose values do not fit (an indefinite, clamped or unparsed
/// extent, a tag number of 1023 or more, an identifier of 7 octets or more, a length of 8 octets or
/// more: rare, and mostly in hostile input) has identifier-length field 7 (`isEscaped`) and its
/// values in the store's `NodeEscape` table, keyed by node index; its tag-number field still holds
/// the tag number when it fits, so `isUniversal` needs no table. `NodeStore` and `NodeBuilder` hand
/// out whole `Node`s, so nothing outside them sees the packing.
@usableFromInline
struct PackedNode: Equatable {
    @usableFromInline var offset: UInt32
    @usableFromInline var subtreeEnd: Int32
    @usableFromInline var bits: UInt32

    @usableFromInline static let lengthShift: UInt32 = 16
    @usableFromInline static let identifierShift: UInt32 = 19
    /// The tag number's low 5 bits and high 5 bits.
    @usableFromInline static let tagLowShift: UInt32 = 27
    @usableFromInline static let tagHighShift: UInt32 = 22
    @usableFromInline static let tagMask: UInt32 = 0xFFC0_0000
    /// The header bits of a one-octet identifier with no tag number yet (identifier length 1).
    static let oneOctetIdentifier: UInt32 = 1 << 19
    /// The identifier-length field of an escaped node.
    @usableFromInline static let escapedField: UInt32 = 7
    /// The largest values kept in place.
    static let maxTagNumber: UInt32 = 1022
    static let maxIdentifierLength: UInt8 = 6
    static let maxLengthLength: UInt8 = 7

    @usableFromInline var isEscaped: Bool {
        @inline(__always) get { bits &>> Self.identifierShift & 7 == Self.escapedField }
    }

    /// Packs `node` of a tree of `input`; `isEscaped` then says whether its values must go to the
    /// escape table.
    @inline(__always)
    init(_ node: Node, input: UnsafeBufferPointer<UInt8>) {
        offset = node.offset
        subtreeEnd = node.subtreeEnd
        let tagField = Self.tagField(min(node.tagNumber, Self.maxTagNumber + 1))
        if node.tagNumber <= Self.maxTagNumber && node.identifierLength <= Self.maxIdentifierLength
            && node.lengthLength <= Self.maxLengthLength && Self.lengthIsDeclared(node, input: input) {
            bits = UInt32(node.packed) | tagField | UInt32(node.identifierLength) &<< Self.identifierShift
                | UInt32(node.lengthLength) &<< Self.lengthShift
        } else {
            bits = UInt32(node.packed) | tagField | Self.escapedField &<< Self.identifierShift
        }
    }

    /// Whether `node`'s content length is the definite length its length octets in `input`
    /// declare, so that `definiteLength` reads it back: a TLV's length octets, in the input, in the
    /// short form or a long form of `lengthLength - 1` octets, declaring exactly that length
    /// (not an indefinite length, an extent clamped at its parent's end or an unparsed region).
    static func lengthIsDeclared(_ node: Node, input: UnsafeBufferPointer<UInt8>) -> Bool {
        let octets = Int(node.lengthLength), start = Int(node.offset) + Int(node.identifierLength)
        guard node.identifierLength > 0, octets > 0, start + octets <= input.count, let base = input.baseAddress,
              !node.isIndefinite else { return false }
        let first = input[start]
        guard octets == 1 ? first < 0x80 : first == 0x80 | UInt8(octets - 1) else { return false }
        return definiteLength(base + start, octets: UInt32(octets)) == node.contentLength
    }

    /// The length the `octets` length octets at `lengthOctets` declare (short form, or the long
    /// form's big-endian value past its first octet), cut to 32 bits as `Node.contentLength` is.
    @inlinable @inline(__always)
    static func definiteLength(_ lengthOctets: UnsafePointer<UInt8>, octets: UInt32) -> UInt32 {
        if octets == 1 { return UInt32(lengthOctets[0]) }
        var value: UInt32 = 0, i = 1
        while i < Int(octets) {
            value = value &<< 8 | UInt32(lengthOctets[i])
            i &+= 1
        }
        return value
    }

    /// `number` (at most 1023) in the tag-number bits.
    @inline(__always)
    static func tagField(_ number: UInt32) -> UInt32 {
        (number & 0x1F) &<< tagLowShift | (number &>> 5 & 0x1F) &<< tagHighShift
    }

    /// The depth as the common loop keeps it for `init(offset:first:depthBits:lengthLength:)`.
    static func depthBits(_ depth: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: depth) &<< UInt32(Node.Flag.depthShift) | oneOctetIdentifier
    }

    /// A node with a one-octet identifier: class and constructed bit from `first` as `Node`'s
    /// general `init` sets them, the depth given as `depthBits(depth)`, at most 7 length octets
    /// (the parser's common loop; `NodeStoreTests` checks it against `Node.init` for every octet).
    @inline(__always)
    init(offset: Int, first: UInt8, depthBits: UInt32, lengthLength: Int) {
        self.offset = UInt32(truncatingIfNeeded: offset)
        subtreeEnd = 0
        // abcddddd rotated right by 5: abc (class, constructed) in bits 0-2, ddddd (tag) in 27-31.
        bits = (UInt32(first) &>> 5 | UInt32(first) &<< 27) | depthBits
            | UInt32(truncatingIfNeeded: lengthLength) &<< Self.lengthShift
    }

    /// The node, for a packed one (`!isEscaped`) of a tree whose input starts at `input` (its
    /// content length read back from its length octets there).
    @inlinable @inline(__always)
    func unpacked(_ input: UnsafePointer<UInt8>) -> Node {
        let identifierLength = bits &>> Self.identifierShift & 7, lengthLength = bits &>> Self.lengthShift & 7
        return Node(offset: offset,
                    contentLength: Self.definiteLength(input + Int(offset &+ identifierLength), octets: lengthLength),
                    tagNumber: bits &>> Self.tagLowShift | (bits &>> Self.tagHighShift & 0x1F) &<< 5, subtreeEnd: subtreeEnd,
                    identifierLength: UInt8(truncatingIfNeeded: identifierLength),
                    lengthLength: UInt8(truncatingIfNeeded: lengthLength), packed: packed)
    }

    /// `Node.packed`: the flags and the depth.
    @usableFromInline var packed: UInt16 { @inline(__always) get { UInt16(truncatingIfNeeded: bits) } }
    var depth: UInt16 { packed >> Node.Flag.depthShift }
    var isEncapsulated: Bool { bits & UInt32(Node.Flag.encapsulated) != 0 }

    /// `Node.isUniversal` for a `number` of at most 1022, escaped or not (the tag-number field holds
    /// any such number exactly).
    @inline(__always)
    func isUniversal(_ number: UInt32) -> Bool {
        bits & (Self.tagMask | UInt32(0b11 << Node.Flag.classShift)) == Self.tagField(number)
            && bits & (7 &<< Self.identifierShift) != 0
    }

    @inline(__always)
    mutating func set(_ flag: UInt16, _ on: Bool = true) {
        if on { bits |= UInt32(flag) } else { bits &= ~UInt32(flag) }
    }
}

/// The values of an escaped node (`PackedNode.isEscaped`), kept in index order: 16 bytes, which
/// with its 12-byte node is why an escaped node counts twice against the parser's node budget.
@usableFromInline
struct NodeEscape: Equatable {
    @usableFromInline var index: Int32
    @usableFromInline var contentLength: UInt32
    @usableFromInline var tagNumber: UInt32
    @usableFromInline var identifierLength: UInt8
    @usableFromInline var lengthLength: UInt8

    init(index: Int, _ node: Node) {
        self.index = Int32(truncatingIfNeeded: index)
        contentLength = node.contentLength
        tagNumber = node.tagNumber
        identifierLength = node.identifierLength
        lengthLength = node.lengthLength
    }

    /// The node at `index`, packed as `packed` (escaped), with its values from `escapes` (sorted
    /// by index; it holds an entry for every escaped node). Inlined into the readers' loops: a call
    /// there, however rare, kept the optimiser from merging their variables' exclusivity checks
    /// (the tree dump paid one more dynamic check a node, +15 % CPU).
    @inlinable @inline(__always)
    static func node(_ packed: PackedNode, at index: Int, in escapes: UnsafeBufferPointer<NodeEscape>) -> Node {
        guard let position = Self.position(of: index, in: escapes) else {
            preconditionFailure("an escaped node has no entry in the escape table")
        }
        let escape = escapes[position]
        return Node(offset: packed.offset, contentLength: escape.contentLength, tagNumber: escape.tagNumber,
                    subtreeEnd: packed.subtreeEnd, identifierLength: escape.identifierLength,
                    lengthLength: escape.lengthLength, packed: packed.packed)
    }

    /// Where the entry for `index` is in `escapes`, by binary search.
    @inlinable @inline(__always)
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
