/// Names of the universal tags (X.680 §8.6).
public enum UniversalTag {
    public static let names: [String] = [
        "END-OF-CONTENTS", "BOOLEAN", "INTEGER", "BIT STRING", "OCTET STRING", "NULL", "OBJECT IDENTIFIER",
        "ObjectDescriptor", "EXTERNAL", "REAL", "ENUMERATED", "EMBEDDED PDV", "UTF8String", "RELATIVE-OID",
        "TIME", "[UNIVERSAL 15]", "SEQUENCE", "SET", "NumericString", "PrintableString", "T61String",
        "VideotexString", "IA5String", "UTCTime", "GeneralizedTime", "GraphicString", "VisibleString",
        "GeneralString", "UniversalString", "CHARACTER STRING", "BMPString",
    ]

    public static func name(_ number: UInt32) -> String {
        number < names.count ? names[Int(number)] : "[UNIVERSAL \(number)]"
    }
}

extension UniversalTag {
    /// A tag as people write it: "SEQUENCE", "[0]", "[APPLICATION 3]", "[PRIVATE 1]". The one
    /// naming of tags: the tree, the dumps and every "is X, Y was expected" sentence use it, with
    /// the whole tag number of the high-tag-number form (`7F 45` is [APPLICATION 69], not 31).
    public static func name(_ tagClass: TagClass, _ number: UInt32) -> String {
        switch tagClass {
        case .universal: name(number)
        case .contextSpecific: "[\(number)]"
        case .application: "[APPLICATION \(number)]"
        case .private: "[PRIVATE \(number)]"
        }
    }

    /// The tag of the element starting at `start`, read whole by `BERHeader` (the one header
    /// reader); nil when its identifier cannot be read (it runs past the end, or is too long).
    public static func tag(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> (tagClass: TagClass, number: UInt32)? {
        guard start >= 0, start < bytes.count else { return nil }
        let first = bytes[start]
        let tagClass = TagClass(rawValue: first >> 6)!
        guard first & 0x1F == 0x1F else { return (tagClass, UInt32(first & 0x1F)) }
        switch BERHeader.read(bytes, at: start, limit: bytes.count) {
        case .success(let header): return (tagClass, header.tagNumber)
        case .failure: return nil
        }
    }
}

extension Tree {
    /// The tag as people write it: "SEQUENCE", "[0]", "[APPLICATION 3]", "[PRIVATE 1]".
    public func tagName(of index: Int) -> String {
        let node = nodes[index]
        if node.kind == .unparsed { return "UNPARSED" }
        return UniversalTag.name(node.tagClass, node.tagNumber)
    }
}
