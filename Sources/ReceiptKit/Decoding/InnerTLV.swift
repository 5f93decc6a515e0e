import ASN1Lenient
import ByteText

/// A TLV view for values the parser did not expand (raw bytes inside an OCTET STRING) and for the
/// pre-scan that finds which values to parse on purpose. The header itself is read by
/// ASN1Lenient's `BERHeader` (the one header reader); lengths are clamped to the enclosing limit.
struct InnerTLV {
    /// The first identifier octet.
    var tag: UInt8
    var start: Int
    var contentStart: Int
    /// Clamped to the limit; for an indefinite length, the limit (the caller looks for 00 00).
    var contentEnd: Int
    var indefinite: Bool
    /// The declared definite length fits within the limit.
    var fits: Bool

    var isConstructed: Bool { tag & 0x20 != 0 }
    /// Single-octet identifiers only (high tag numbers are never receipt value types).
    var universalNumber: UInt32? { tag & 0xC0 == 0 && tag & 0x1F != 0x1F ? UInt32(tag & 0x1F) : nil }

    /// nil when the header cannot be read (ASN1Lenient's `BERHeader` decides) or has more than 8
    /// length octets; a length beyond `Int.max` reads as not fitting.
    @inline(__always)
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int) -> InnerTLV? {
        guard start >= 0, limit - start >= 2, limit <= bytes.count,
              case .success(let header) = BERHeader.read(bytes, at: start, limit: limit) else { return nil }
        let p = header.contentStart
        let available = limit - p
        switch header.length {
        case .indefinite:
            return InnerTLV(tag: header.first, start: start, contentStart: p, contentEnd: limit, indefinite: true, fits: true)
        case .definite(let length, _):
            return InnerTLV(tag: header.first, start: start, contentStart: p, contentEnd: p + min(length, available),
                            indefinite: false, fits: length <= available)
        case .unrepresentable(_, let octets):
            guard octets <= 8 else { return nil }
            return InnerTLV(tag: header.first, start: start, contentStart: p, contentEnd: limit, indefinite: false, fits: false)
        }
    }

    static func read(_ bytes: [UInt8], at start: Int, limit: Int) -> InnerTLV? {
        bytes.withUnsafeBufferPointer { read($0, at: start, limit: limit) }
    }

    /// "a UTF8String", "an IA5String", "a [0]", "an [APPLICATION 69]" … for the element at `start`,
    /// its tag read whole (`UniversalTag.tag`, as the parser reads it).
    static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> String {
        guard start >= 0, start < bytes.count else { return "nothing" }
        let first = bytes[start]
        guard let tag = UniversalTag.tag(bytes, at: start) else {
            return "an identifier that cannot be read (first octet 0x\(Hex.byte(first, .upper)))"
        }
        return describe(UniversalTag.name(tag.tagClass, tag.number), universal: tag.tagClass == .universal, number: tag.number,
                        constructed: first & 0x20 != 0)
    }

    static func describe(_ bytes: [UInt8], at start: Int) -> String {
        bytes.withUnsafeBufferPointer { describe($0, at: start) }
    }

    /// A node of a parsed tree, named as `Tree.tagName` names it.
    static func describe(_ tree: Tree, _ node: Int) -> String {
        let n = tree.nodes[node]
        guard n.kind == .tlv else { return "unreadable bytes" }
        return describe(tree.tagName(of: node), universal: n.tagClass == .universal, number: n.tagNumber, constructed: n.isConstructed)
    }

    private static func describe(_ name: String, universal: Bool, number: UInt32, constructed: Bool) -> String {
        let constructedUniversal = universal && constructed && ![16, 17].contains(number)
        let text = constructedUniversal ? "constructed " + name : name
        // "an INTEGER", "an IA5String", "an OCTET STRING", but "a UTF8String", "a UniversalString".
        let an = text.first.map { "AEIO".contains($0) } ?? false
        return (an ? "an " : "a ") + text
    }
}

/// Finds, in raw payload bytes, every attribute value that is known to hold ASN.1 of a given type
/// (so the parser should parse it on purpose and report every defect inside): the typed values
/// whose first octet is the expected tag, and in-app purchase SETs (recursively). Works on bytes
/// alone, so it also sees inside elements the first parse could not expand.
enum PurposeScanner {
    /// Offsets of the value OCTET STRINGs inside the SET that starts at `setStart`.
    /// 32 bits each, as a node's offset (`OffsetSet`).
    static func valueOffsets(_ bytes: [UInt8], setStart: Int, limit: Int) -> [UInt32] {
        // Room for every offset there can be (an attribute's own header octets, at least 8, are
        // its alone), so the list never grows by copying: old and new both held 4 MB for 20,000
        // purchases. Room not written is address space, not memory.
        var out: [UInt32] = []
        out.reserveCapacity(max(0, limit - setStart) / 8 + 1)
        bytes.withUnsafeBufferPointer { scanSet($0, at: setStart, limit: limit, level: .app, into: &out) }
        return out
    }

    private static func scanSet(_ b: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int, level: AttributeLevel,
                                into out: inout [UInt32]) {
        guard let set = InnerTLV.read(b, at: start, limit: limit), set.tag == 0x31 else { return }
        var p = set.contentStart
        let end = set.contentEnd
        while p < end {
            if set.indefinite && p + 2 <= end && b[p] == 0 && b[p + 1] == 0 { return }
            guard let attr = InnerTLV.read(b, at: p, limit: end) else { return }
            let next = elementEnd(b, attr, depth: 0)
            if attr.tag == 0x30 { scanAttribute(b, attr, level: level, into: &out) }
            guard next > p else { return }
            p = next
        }
    }

    private static func scanAttribute(_ b: UnsafeBufferPointer<UInt8>, _ attr: InnerTLV, level: AttributeLevel,
                                      into out: inout [UInt32]) {
        var p = attr.contentStart
        let end = attr.contentEnd
        var type: Int?
        for position in 0..<3 {
            guard p < end, let child = InnerTLV.read(b, at: p, limit: end) else { return }
            if position == 0 {
                guard child.tag == 0x02, child.fits, child.contentEnd - child.contentStart <= 8 else { return }
                var v = 0
                for i in child.contentStart..<child.contentEnd { v = (v << 8) | Int(b[i]) }
                type = v
            }
            if position == 2 {
                guard child.tag == 0x04, !child.indefinite, let type, child.contentEnd > child.contentStart else { return }
                let first = b[child.contentStart]
                if level == .app && type == 17 {
                    guard first == 0x31 else { return }
                    out.append(UInt32(truncatingIfNeeded: child.start))
                    scanSet(b, at: child.contentStart, limit: child.contentEnd, level: .inApp, into: &out)
                } else if let expected = ReceiptSchema.spec(type: type, level: level)?.expected.tagByte,
                          expected == first {
                    out.append(UInt32(truncatingIfNeeded: child.start))
                }
                return
            }
            p = elementEnd(b, child, depth: 0)
        }
    }

    /// One past an element's end, following end-of-contents markers for indefinite lengths.
    static func elementEnd(_ b: UnsafeBufferPointer<UInt8>, _ e: InnerTLV, depth: Int) -> Int {
        guard e.indefinite else { return e.contentEnd }
        var p = e.contentStart
        while p < e.contentEnd {
            if p + 2 <= e.contentEnd && b[p] == 0 && b[p + 1] == 0 { return p + 2 }
            guard depth < 64, let child = InnerTLV.read(b, at: p, limit: e.contentEnd) else { return e.contentEnd }
            let next = elementEnd(b, child, depth: depth + 1)
            guard next > p else { return e.contentEnd }
            p = next
        }
        return e.contentEnd
    }
}
