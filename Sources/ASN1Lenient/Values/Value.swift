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
    /// Bytes as Latin-1 text (U+0000–U+00FF are the UTF-16 units of the same values), transcoded
    /// straight into the string: a `[Character]` on the way cost 16 bytes per content byte (a 37 MB
    /// hostile VideotexString held 600 MB).
    static func latin1(_ content: ArraySlice<UInt8>) -> String {
        String(decoding: content.lazy.map { UInt16($0) }, as: UTF16.self)
    }

    /// Decodes a primitive universal value; nil for constructed, tagged-implicit or unparsed nodes.
    /// `textPrefix`: a string's or time's text is decoded from its first `textPrefix` content bytes
    /// only (a one-line summary shows 64 characters of a 37 MB string), while `lossy` still judges
    /// the whole content.
    public func value(of index: Int, textPrefix: Int = Int.max) -> Value? {
        let node = nodes[index]
        guard node.kind == .tlv, node.tagClass == .universal, !node.isConstructed else { return nil }
        let whole = bytes[node.contentRange]
        let content = [12, 18, 19, 20, 21, 22, 25, 26, 27, 30, 28, 23, 24].contains(node.tagNumber) ? whole.prefix(textPrefix) : whole
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
        case 12:
            let text = String(decoding: content, as: UTF8.self)
            let valid = whole.withContiguousStorageIfAvailable { UTF8Text.firstInvalid($0, 0..<$0.count) == nil } ?? false
            return .string(text, lossy: !valid)
        case 18, 19, 20, 21, 22, 25, 26, 27:
            // Single-octet alphabets: show bytes ≥ 0x80 as Latin-1 so nothing is hidden.
            let lossy = whole.contains { $0 >= 0x80 } && node.tagNumber != 20
            return .string(Self.latin1(content), lossy: lossy)
        case 30:
            var units: [UInt16] = []
            var i = content.startIndex
            while i + 1 < content.endIndex {
                units.append(UInt16(content[i]) << 8 | UInt16(content[i + 1]))
                i += 2
            }
            return .string(String(decoding: units, as: UTF16.self), lossy: whole.count % 2 != 0)
        case 28:
            var scalars = ""
            var lossy = whole.count % 4 != 0
            var i = whole.startIndex
            while i + 3 < whole.endIndex {
                let v = UInt32(whole[i]) << 24 | UInt32(whole[i + 1]) << 16 | UInt32(whole[i + 2]) << 8 | UInt32(whole[i + 3])
                let scalar = Unicode.Scalar(v)
                if scalar == nil { lossy = true }
                if i + 3 < content.endIndex { scalars.unicodeScalars.append(scalar ?? "\u{FFFD}") }
                i += 4
            }
            return .string(scalars, lossy: lossy)
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
