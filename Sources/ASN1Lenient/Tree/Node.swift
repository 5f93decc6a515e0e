/// The class bits (8 and 7) of an identifier octet.
public enum TagClass: UInt8, Sendable, CaseIterable {
    case universal = 0, application = 1, contextSpecific = 2, `private` = 3

    public var name: String {
        switch self {
        case .universal: "UNIVERSAL"
        case .application: "APPLICATION"
        case .contextSpecific: "CONTEXT-SPECIFIC"
        case .private: "PRIVATE"
        }
    }
}

/// What kind of bytes a node stands for. Unparsed regions and end-of-contents markers are nodes too,
/// so that every input byte belongs to exactly one node (the coverage invariant).
public enum NodeKind: UInt8, Sendable {
    /// An identifier-length-content triple.
    case tlv = 0
    /// Bytes that could not be read as a TLV (after a header error); their content is the whole region.
    case unparsed = 1
}

/// One parsed element, addressed by its index in the tree's arena.
///
/// Nodes are laid out in pre-order, so a node's descendants are the indices
/// `index + 1 ..< subtreeEnd`; its first child is `index + 1` and a child's next sibling is the
/// child's `subtreeEnd`. The arena keeps each node in 12 bytes (`PackedNode`: the tag number and the
/// two header lengths share 16 bits, the content length is read from the length octets) and hands out this whole value; the flags and the depth share
/// one 16-bit word, and the parent is not stored (it is the nearest node before with one less
/// depth: `NodeStore.parentIndex(_:)`).
public struct Node: Sendable, Hashable {
    /// Offset of the first identifier octet in the input.
    public var offset: UInt32
    /// Number of content octets actually present (clamped to what the input holds). For an
    /// indefinite length this is the span up to, not including, the end-of-contents marker.
    public var contentLength: UInt32
    /// Tag number (meaningless for unparsed regions).
    public var tagNumber: UInt32
    /// One past the index of the last descendant.
    public var subtreeEnd: Int32
    /// Number of identifier octets; 0 only for an unparsed region (a TLV has at least one).
    public var identifierLength: UInt8
    /// Number of length octets (1 for short form and for indefinite length).
    public var lengthLength: UInt8
    /// `Flag` bits in the low 6 bits, the depth in the high 10.
    @usableFromInline var packed: UInt16

    /// Deepest depth a node can record (10 bits); the parser's nesting limit stays below it.
    public static let maxDepth = 1023

    /// Nesting depth; top-level nodes have depth 0.
    public var depth: UInt16 {
        @inline(__always) get { packed >> Flag.depthShift }
        set { packed = (packed & Flag.mask) | (newValue << Flag.depthShift) }
    }
    var flags: UInt16 { packed & Flag.mask }
    /// Number of end-of-contents octets present after the content (0 or 2).
    public var eocLength: UInt8 { packed & Flag.hasEOC != 0 ? 2 : 0 }

    /// The constructed bit and the class sit where the identifier octet's top three bits land when
    /// shifted right by five (`constructedAndClass`), so the parser builds them with one shift.
    enum Flag {
        static let constructed: UInt16 = 1 << 0
        static let classShift: UInt16 = 1  // bits 1-2
        static let indefinite: UInt16 = 1 << 3
        static let hasEOC: UInt16 = 1 << 4
        static let encapsulated: UInt16 = 1 << 5
        static let mask: UInt16 = 0x3F
        static let depthShift: UInt16 = 6
    }

    public var tagClass: TagClass { TagClass(rawValue: UInt8(truncatingIfNeeded: packed >> Flag.classShift) & 0b11)! }
    public var isConstructed: Bool { packed & Flag.constructed != 0 }
    public var isIndefinite: Bool { packed & Flag.indefinite != 0 }
    /// A primitive OCTET STRING or BIT STRING whose content was parsed as nested ASN.1 (its children).
    public var isEncapsulated: Bool { packed & Flag.encapsulated != 0 }
    public var kind: NodeKind { identifierLength == 0 ? .unparsed : .tlv }

    public var headerLength: Int { Int(identifierLength) + Int(lengthLength) }
    public var contentStart: Int { Int(offset) + headerLength }
    public var contentEnd: Int { contentStart + Int(contentLength) }
    /// One past the last byte of the node, end-of-contents octets included.
    public var end: Int { contentEnd + Int(eocLength) }
    public var totalLength: Int { end - Int(offset) }
    public var byteRange: Range<Int> { Int(offset)..<end }
    public var identifierRange: Range<Int> { Int(offset)..<(Int(offset) + Int(identifierLength)) }
    public var lengthRange: Range<Int> { (Int(offset) + Int(identifierLength))..<contentStart }
    public var contentRange: Range<Int> { contentStart..<contentEnd }
    public var eocRange: Range<Int> { contentEnd..<end }

    /// True for the universal tag with the given number.
    @inline(__always)
    public func isUniversal(_ number: UInt32) -> Bool {
        tagNumber == number && packed & (0b11 << Flag.classShift) == 0 && identifierLength != 0
    }

    /// `depth` must be at most `maxDepth`; `identifierLength` is 0 only for an unparsed region.
    @inline(__always)
    init(offset: Int, classBits: UInt8, constructed: Bool, tagNumber: UInt32, depth: Int,
         identifierLength: Int, lengthLength: Int) {
        self.offset = UInt32(truncatingIfNeeded: offset)
        self.contentLength = 0
        self.tagNumber = tagNumber
        self.subtreeEnd = 0
        self.identifierLength = UInt8(truncatingIfNeeded: identifierLength)
        self.lengthLength = UInt8(truncatingIfNeeded: lengthLength)
        self.packed = UInt16(truncatingIfNeeded: depth) << Flag.depthShift
            | UInt16(classBits & 0b11) << Flag.classShift | (constructed ? Flag.constructed : 0)
    }

    /// Every field as stored (`PackedNode.unpacked`, the escape table).
    @usableFromInline @inline(__always)
    init(offset: UInt32, contentLength: UInt32, tagNumber: UInt32, subtreeEnd: Int32,
         identifierLength: UInt8, lengthLength: UInt8, packed: UInt16) {
        self.offset = offset
        self.contentLength = contentLength
        self.tagNumber = tagNumber
        self.subtreeEnd = subtreeEnd
        self.identifierLength = identifierLength
        self.lengthLength = lengthLength
        self.packed = packed
    }

    @inline(__always)
    mutating func set(_ flag: UInt16, _ on: Bool = true) {
        if on { packed |= flag } else { packed &= ~flag }
    }
}
