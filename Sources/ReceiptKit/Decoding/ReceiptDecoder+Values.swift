import ASN1Lenient

/// The two parts of a `FieldRecord` that depend on the value. The decoder builds the record once
/// from them: filling a record on the stack field by field and copying it into the list stalled
/// on the copy's wide loads (git log -p docs/performance.md, 2026-11-23: one-pass attribute reads).
struct StoredValue {
    var kind = FieldRecord.Kind.bytes
    /// `.side`: where the value is in `sideValues`.
    var sideIndex: Int32 = 0
}

extension ReceiptDecoder {
    // MARK: - Values

    /// A listed attribute's value as its record holds it (see `FieldRecord.Kind`). The spec's strings
    /// are looked up only to build a finding.
    mutating func decodeValue(_ expected: ExpectedValue, type: Int, level: AttributeLevel, range: Range<Int>,
                              valueNode: Int, innerNode: Int?, into record: inout StoredValue) {
        record.kind = .bytes
        guard let value = decodeValue(expected, type: type, level: level, range: range, valueNode: valueNode,
                                      innerNode: innerNode, record: &record) else { return }
        record.kind = .side
        record.sideIndex = Int32(sideValues.count)
        sideValues.append(value)
    }

    /// Fills `record` for the usual values (string, 64-bit integer, canonical UTC date, absent date,
    /// bytes) and returns nil, or returns a value the record cannot hold.
    private mutating func decodeValue(_ expected: ExpectedValue, type: Int, level: AttributeLevel, range: Range<Int>,
                                      valueNode: Int, innerNode: Int?, record: inout StoredValue) -> FieldValue? {
        var spec: AttributeSpec { ReceiptSchema.spec(type: type, level: level)! }
        switch expected {
        case .bytes:
            return nil
        case .fixedBytes(let count):
            if range.count != count {
                found.receipt(.wrongType,
                    "\(spec.label): value is \(range.count) raw byte(s), \(count) raw bytes (\(spec.name)) were expected",
                    node: valueNode, in: tree)
            }
            return nil
        default:
            break
        }
        let expectedTag = expected.tagByte!
        // The inner TLV: the parser's node when it expanded the value, else a header read here.
        let inner = nodes.withUnsafeBufferPointer { nb in
            bytes.withUnsafeBufferPointer { bb in InnerContent.find(valueRange: range, innerNode: innerNode, nodes: nb, bytes: bb) }
        }
        let tag = inner?.tag
        let tagStart = inner?.tagStart ?? range.lowerBound
        let content = inner?.content
        let cut = inner.map { isCut($0.fromNode ? innerNode! : valueNode) } ?? false
        if let innerNode, nodes[innerNode].subtreeEnd < nodes[valueNode].subtreeEnd {
            found.receipt(.wrongType,
                "\(spec.label): the value holds more than one element, \(expected.description) was expected",
                node: valueNode, in: tree)
        }
        if let inner, !inner.fromNode, inner.tag == expectedTag, inner.content.upperBound == range.upperBound || inner.indefinite {
            needsPurposefulParse = true
        }
        let pinned = innerNode ?? valueNode
        guard let tag, let content else {
            if !isCut(valueNode) {
                let what = range.isEmpty ? "empty" : "not an ASN.1 element (\(range.count) raw byte(s))"
                found.receipt(.wrongType,
                    "\(spec.label): value is \(what), \(expected.description) was expected",
                    node: pinned, in: tree)
            }
            return .invalid("not \(expected.description)")
        }
        if tag != expectedTag {
            found.receipt(.wrongType,
                "\(spec.label): value is \(InnerTLV.describe(bytes, at: tagStart)), \(expected.description) was expected",
                node: pinned, in: tree)
            // Still show what is there when it is text of another string type.
            guard isStringTag(tag), expected != .integer, expected != .flag, expected != .inAppSet else {
                return .invalid("\(InnerTLV.describe(bytes, at: tagStart)) instead of \(expected.description)")
            }
        }
        switch expected {
        case .utf8String, .ia5String:
            record.kind = .string
            return nil
        case .integer, .flag:
            if content.isEmpty { return .invalid("an empty INTEGER") }
            if InnerContent.int64(content, bytes) != nil {
                record.kind = .integer
                return nil
            }
            return .bigInteger(IntegerValue.decimal(bytes[content]))
        case .date:
            switch bytes.withUnsafeBufferPointer({ ReceiptDate.parse(UnsafeBufferPointer(rebasing: $0[content])) }) {
            case .date(let d):
                guard d.isCanonicalUTC else { return .date(d) }
                record.kind = .date
                return nil
            case .absent:
                record.kind = .absentDate
                return nil
            case .invalid(let why):
                let text = String(decoding: bytes[content], as: UTF8.self)
                if !cut {
                    found.receipt(.dateInvalid,
                        "\(spec.label) (\(spec.name)): '\(text)' is not an RFC 3339 date: \(why)",
                        node: pinned, in: tree)
                }
                return .invalid("not an RFC 3339 date: \(why)")
            }
        case .inAppSet, .bytes, .fixedBytes:
            return nil  // an attribute 17 becomes `.inAppPurchase` in the caller
        }
    }

    private func isStringTag(_ tag: UInt8) -> Bool {
        [0x0C, 0x12, 0x13, 0x14, 0x16, 0x1A, 0x1B, 0x1E].contains(tag)
    }

}

/// The inner TLV of an attribute's value as the decoder reads it: the parser's node when it
/// expanded the value, else a header read in place. The field table reads a record's string,
/// integer or instant again through it (`ReceiptFieldTable.content`).
enum InnerContent {
    struct Found {
        var tag: UInt8
        var tagStart: Int
        var content: Range<Int>
        /// True when the parser's node gave it; false for a header read from the value's bytes.
        var fromNode: Bool
        var indefinite: Bool
    }

    @inline(__always)
    static func find(valueRange range: Range<Int>, innerNode: Int?, nodes nb: UnsafeNodeBuffer,
                     bytes bb: UnsafeBufferPointer<UInt8>) -> Found? {
        if let inner = innerNode {
            let n = nb[inner]
            guard n.identifierLength != 0 else { return nil }
            return Found(tag: bb[Int(n.offset)], tagStart: Int(n.offset), content: ReceiptDecoder.contentRange(n),
                         fromNode: true, indefinite: false)
        }
        guard let header = InnerTLV.read(bb, at: range.lowerBound, limit: range.upperBound),
              header.fits, !header.indefinite || header.isConstructed else { return nil }
        return Found(tag: header.tag, tagStart: range.lowerBound, content: header.contentStart..<header.contentEnd,
                     fromNode: false, indefinite: header.indefinite)
    }

    /// `IntegerValue.int64` of `bytes[range]` (1 to 8 octets, two's complement), read in place.
    @inline(__always)
    static func int64(_ range: Range<Int>, _ bytes: [UInt8]) -> Int64? {
        let count = range.count
        guard count >= 1, count <= 8, range.upperBound <= bytes.count else { return nil }
        var value: Int64 = bytes[range.lowerBound] & 0x80 != 0 ? -1 : 0
        for i in range { value = (value << 8) | Int64(bytes[i]) }
        return value
    }
}
