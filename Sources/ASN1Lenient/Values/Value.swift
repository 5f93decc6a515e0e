import ByteText

/// A decoded primitive value, for display. Decoding is done on demand, never during the parse.
public enum Value: Sendable, Equatable {
    case boolean(Bool)
    /// Decimal (any size); `hex` is set when the number is long (more than 16 octets).
    case integer(decimal: String, hex: String?)
    /// The bits and octets are the tree's own bytes, not a copy (a payload can be megabytes).
    case bitString(unusedBits: Int, bytes: ArraySlice<UInt8>)
    case octets(ArraySlice<UInt8>)
    case null
    case objectIdentifier(dotted: String, name: String?)
    /// Text decoded from its string type; `lossy` when bytes had to be replaced (invalid UTF-8 …).
    case string(String, lossy: Bool)
    case time(raw: String, value: TimeValue?)
    case invalid(String)
}

extension Tree {
    /// Bytes as Latin-1 text (U+0000–U+00FF), transcoded straight into the string's UTF-8: a
    /// `[Character]` on the way cost 16 bytes per content byte (a 37 MB hostile VideotexString held
    /// 600 MB), and a lazily mapped UTF-16 view took 1 s for it in generic code.
    static func latin1(_ content: ArraySlice<UInt8>) -> String {
        content.withUnsafeBufferPointer { source in
            var high = 0
            for b in source where b >= 0x80 { high &+= 1 }
            return String(unsafeUninitializedCapacity: source.count + high) { utf8 in
                var j = 0
                for b in source {
                    if b < 0x80 {
                        utf8[j] = b
                        j &+= 1
                    } else {
                        utf8[j] = 0xC0 | b >> 6
                        utf8[j &+ 1] = 0x80 | b & 0x3F
                        j &+= 2
                    }
                }
                return j
            }
        }
    }

    /// Decodes a primitive universal value; nil for constructed, tagged-implicit or unparsed nodes.
    /// `textPrefix`: a string's or time's text is decoded from its first `textPrefix` content bytes
    /// only (a one-line summary shows 64 characters of a 37 MB string), while `lossy` still judges
    /// the whole content.
    public func value(of index: Int, textPrefix: Int = Int.max) -> Value? {
        let node = nodes[index]
        guard node.kind == .tlv, node.tagClass == .universal, !node.isConstructed else { return nil }
        let whole = bytes[node.contentRange]
        let content = Self.isTextTag(node.tagNumber) || node.tagNumber == 23 || node.tagNumber == 24 ? whole.prefix(textPrefix) : whole
        switch node.tagNumber {
        case 1:
            guard content.count == 1 else { return .invalid("BOOLEAN of \(content.count) octets") }
            return .boolean(content.first! != 0)
        case 2, 10:
            guard !content.isEmpty else { return .invalid("empty INTEGER") }
            let hex = content.count > 16 ? Hex.string(content, .upper) : nil
            return .integer(decimal: content.count > 512 ? "(\(content.count) octets)" : IntegerValue.decimal(content), hex: hex)
        case 3:
            guard let unused = content.first else { return .invalid("BIT STRING without unused-bits octet") }
            return .bitString(unusedBits: Int(unused), bytes: content.dropFirst())
        case 4: return .octets(content)
        case 5: return .null
        case 6:
            guard let dotted = ObjectIdentifierValue.dotted(content) else { return .invalid("malformed OBJECT IDENTIFIER") }
            return .objectIdentifier(dotted: dotted, name: OIDNames.name(for: dotted))
        case let tag where Self.isTextTag(tag):
            return .string(Self.text(tag: tag, content), lossy: Self.isLossyText(tag: tag, whole))
        case 23, 24:
            let raw = Self.latin1(content)
            if case .ok(let t, _) = TimeValue.parse(content, generalized: node.tagNumber == 24) {
                return .time(raw: raw, value: t)
            }
            return .time(raw: raw, value: nil)
        default:
            return .octets(content)
        }
    }
}

extension Tree {
    /// The string types `text(tag:_:)` decodes: UTF8String, the single-octet alphabets,
    /// UniversalString and BMPString.
    public static func isTextTag(_ tag: UInt32) -> Bool {
        switch tag {
        case 12, 18, 19, 20, 21, 22, 25, 26, 27, 28, 30: return true
        default: return false
        }
    }

    /// The text of string content of universal type `tag`: UTF-8 with bad bytes replaced, the
    /// single-octet alphabets with bytes ≥ 0x80 as Latin-1 (so nothing is hidden), BMPString as
    /// UTF-16BE and UniversalString as UTF-32BE (a trailing partial unit dropped, a bad one replaced).
    static func text(tag: UInt32, _ content: ArraySlice<UInt8>) -> String {
        switch tag {
        case 12:
            return String(decoding: content, as: UTF8.self)
        case 30:
            var units: [UInt16] = []
            units.reserveCapacity(content.count / 2)
            var i = content.startIndex
            while i + 1 < content.endIndex {
                units.append(UInt16(content[i]) << 8 | UInt16(content[i + 1]))
                i += 2
            }
            return String(decoding: units, as: UTF16.self)
        case 28:
            var scalars = ""
            var i = content.startIndex
            while i + 3 < content.endIndex {
                let v = UInt32(content[i]) << 24 | UInt32(content[i + 1]) << 16 | UInt32(content[i + 2]) << 8 | UInt32(content[i + 3])
                scalars.unicodeScalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                i += 4
            }
            return scalars
        default:
            return latin1(content)
        }
    }

    /// Whether showing `whole` as text had to replace or drop bytes (`Value.string`'s `lossy`).
    static func isLossyText(tag: UInt32, _ whole: ArraySlice<UInt8>) -> Bool {
        switch tag {
        case 12:
            return whole.withContiguousStorageIfAvailable { UTF8Text.firstInvalid($0, 0..<$0.count) != nil } ?? false
        case 30:
            return whole.count % 2 != 0
        case 28:
            guard whole.count % 4 == 0 else { return true }
            var i = whole.startIndex
            while i + 3 < whole.endIndex {
                let v = UInt32(whole[i]) << 24 | UInt32(whole[i + 1]) << 16 | UInt32(whole[i + 2]) << 8 | UInt32(whole[i + 3])
                if Unicode.Scalar(v) == nil { return true }
                i += 4
            }
            return false
        case 20:
            return false  // TeletexString: Latin-1 is as good a reading as any of its alphabets
        default:
            return whole.contains { $0 >= 0x80 }
        }
    }

    /// A string node's text handed to `body` in pieces of about `pieceBytes` content bytes, each cut
    /// between characters, so that the pieces put together are exactly the text `value(of:)` gives;
    /// a 37 MB string written out in full (`dump --format json`) is never one `String`. Returns
    /// whether the text is lossy, or nil when the node is not a string (`isTextTag`).
    public func forEachTextPiece(of index: Int, pieceBytes: Int = 1 << 16, _ body: (String) -> Void) -> Bool? {
        let node = nodes[index]
        guard node.kind == .tlv, node.tagClass == .universal, !node.isConstructed, Self.isTextTag(node.tagNumber) else { return nil }
        let tag = node.tagNumber
        let whole = bytes[node.contentRange]
        let step = max(pieceBytes, 16)
        var start = whole.startIndex
        while start < whole.endIndex {
            let end = Self.pieceEnd(tag: tag, whole, from: start, limit: min(start + step, whole.endIndex))
            body(Self.text(tag: tag, whole[start..<end]))
            start = end
        }
        return Self.isLossyText(tag: tag, whole)
    }

    /// Where a piece starting at `start` may end at or before `limit` so that decoding it alone
    /// gives the characters decoding the whole gives there.
    static func pieceEnd(tag: UInt32, _ whole: ArraySlice<UInt8>, from start: Int, limit: Int) -> Int {
        guard limit < whole.endIndex else { return whole.endIndex }
        switch tag {
        case 12:
            // Before a byte that is not a continuation byte (no sequence spans it); a continuation
            // byte with three more before it starts no sequence either, so `limit` is safe then.
            var cut = limit
            while cut > max(start + 1, limit - 3) && whole[cut] & 0xC0 == 0x80 { cut -= 1 }
            return whole[cut] & 0xC0 == 0x80 ? limit : cut
        case 30:
            // Whole UTF-16 units, and never between the two halves of a surrogate pair.
            var cut = start + (limit - start) / 2 * 2
            if cut - 2 > start && (0xD8...0xDB).contains(whole[cut - 2]) { cut -= 2 }
            return cut
        case 28:
            return start + (limit - start) / 4 * 4
        default:
            return limit
        }
    }
}
