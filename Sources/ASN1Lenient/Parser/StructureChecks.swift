import Platform

enum StructureRules {
    /// Universal tags that must be primitive (1, 2, 5, 6, 9, 10, 13, 14) or are strings whose
    /// constructed form is BER only (3, 4, 12, 18-30).
    static let primitiveOnlyMask: UInt32 = 0x7FFC_767E
    /// SEQUENCE and SET must be constructed.
    static let constructedOnlyMask: UInt32 = (1 << 16) | (1 << 17)

    /// By a universal element's first identifier octet (below 0x40): whether its header alone is
    /// reported, i.e. a primitive end-of-contents tag (0x00) or a form `hasFormRule` forbids
    /// (primitive SEQUENCE / SET in the low 32 bits, constructed primitive-only types in the high 32).
    static let reportedUniversalForms: UInt64 = UInt64(primitiveOnlyMask) << 32 | UInt64(constructedOnlyMask) | 1

    /// `reportedUniversalForms` and the two universal octets that start a multi-octet identifier
    /// (0x1F, 0x3F): the universal first octets the common loop leaves to the general turn.
    static let universalFirstsNotTaken: UInt64 = reportedUniversalForms | 1 << 0x1F | 1 << 0x3F

    @inline(__always)
    static func headerIsReported(universalFirst first: UInt8) -> Bool {
        reportedUniversalForms &>> UInt64(first) & 1 != 0
    }

    @inline(__always)
    static func hasFormRule(_ tagNumber: UInt32, constructed: Bool) -> Bool {
        guard tagNumber < 32 else { return false }
        return (constructed ? primitiveOnlyMask : constructedOnlyMask) & (1 << tagNumber) != 0
    }
}

extension ParserMachine {
    /// Universal types whose encoding X.690 fixes as primitive or as constructed.
    mutating func checkConstructedForm(index: Int, tagNumber: UInt32, constructed: Bool) {
        let node = nodes[index]
        let header = (Int(node.offset), Int(node.identifierLength))
        if constructed {
            switch tagNumber {
            case 1, 2, 5, 6, 9, 10, 13, 14:
                report(.mustBePrimitive, at: header.0, length: header.1, node: index,
                       "\(UniversalTag.name(tagNumber)) must be primitive, but the constructed bit (0x20) is set")
            case 3, 4, 12, 18...30:
                report(.constructedString, at: header.0, length: header.1, node: index,
                       "constructed (segmented) \(UniversalTag.name(tagNumber)) is BER only")
            default:
                break
            }
        } else if tagNumber == 16 || tagNumber == 17 {
            report(.mustBeConstructed, at: header.0, length: header.1, node: index,
                   "\(UniversalTag.name(tagNumber)) must be constructed, but the constructed bit (0x20) is clear")
        }
    }

    /// DER orders SET elements by their encodings, shorter ones padded with zero octets (X.690 11.6).
    mutating func checkSetOrder(_ bytes: UnsafeBufferPointer<UInt8>, index: Int) {
        var previous = 0..<0
        var child = index + 1
        let end = Int(nodes[index].subtreeEnd)
        while child < end {
            let node = nodes[child]
            let range = Int(node.offset)..<node.end
            if child > index + 1, Self.compareZeroPadded(bytes, previous, range) > 0 {
                report(.setNotSorted, at: range.lowerBound, length: range.count, node: child,
                       "this SET element sorts before the previous one (offset \(previous.lowerBound)); DER requires ascending order")
                return
            }
            previous = range
            child = Int(node.subtreeEnd)
        }
    }

    /// `checkSetOrder`'s judgement without a report, for the common loop's SET close: whether the
    /// SET's children `first..<end` (its whole subtree, the nodes written last) are in DER order.
    /// A child's range is read as running to the next child's offset, and the last one's to the
    /// content end: siblings tile their parent's content (each element starts where the one before
    /// it ended, end-of-contents octets and unparsed regions included, and a SET closes only when
    /// its content is used up), so only one field per child is read. Out of line: the loop's
    /// registers stay its own.
    @inline(never)
    static func setChildrenAreInOrder(_ bytes: UnsafeBufferPointer<UInt8>, nodes: UnsafeMutablePointer<PackedNode>,
                                      first: Int, end: Int, contentEnd: Int) -> Bool {
        guard first < end, let input = bytes.baseAddress else { return true }
        // The current child is `b..<c`; `word` holds its first eight octets as one big-endian word
        // when it has eight (`long`), which decide almost every pair (`compareZeroPadded` the rest).
        var b = Int(nodes[first].offset)
        var next = Int(nodes[first].subtreeEnd)
        var c = next < end ? Int(nodes[next].offset) : contentEnd
        var long = c &- b >= 8
        var word = long ? UInt64(bigEndian: UnsafeRawPointer(input + b).loadUnaligned(as: UInt64.self)) : 0
        while next < end {
            let a = b, previousWord = word, previousLong = long
            b = c
            next = Int(nodes[next].subtreeEnd)
            c = next < end ? Int(nodes[next].offset) : contentEnd
            long = c &- b >= 8
            if long { word = UInt64(bigEndian: UnsafeRawPointer(input + b).loadUnaligned(as: UInt64.self)) }
            if previousLong && long && previousWord != word {
                if previousWord > word { return false }
            } else if compareZeroPadded(bytes, Range(uncheckedBounds: (a, b)), Range(uncheckedBounds: (b, c))) > 0 {
                return false
            }
        }
        return true
    }

    /// Ranges lie inside `bytes` (they are parsed nodes).
    static func compareZeroPadded(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Int {
        let common = min(a.count, b.count)
        // Most neighbours differ in their first eight octets (an attribute's type number): compare
        // them as one big-endian word, the same order as byte by byte, without calling memcmp.
        if common >= 8, let base = bytes.baseAddress {
            let x = UInt64(bigEndian: UnsafeRawPointer(base + a.lowerBound).loadUnaligned(as: UInt64.self))
            let y = UInt64(bigEndian: UnsafeRawPointer(base + b.lowerBound).loadUnaligned(as: UInt64.self))
            if x != y { return x < y ? -1 : 1 }
        }
        // Adjacent purchases share long prefixes: memcmp compares them a vector at a time.
        if common > 0, let base = bytes.baseAddress {
            let order = memcmp(base + a.lowerBound, base + b.lowerBound, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        // The shorter one is padded with zeros: it sorts first unless the longer continues with zeros.
        let (longer, sign) = a.count > b.count ? (a, 1) : (b, -1)
        var i = common
        while i < longer.count {
            if bytes[longer.lowerBound + i] != 0 { return sign }
            i += 1
        }
        return 0
    }
}
