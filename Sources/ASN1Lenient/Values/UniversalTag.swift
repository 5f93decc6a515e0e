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

extension Tree {
    /// The tag as people write it: "SEQUENCE", "[0]", "[APPLICATION 3]", "[PRIVATE 1]".
    public func tagName(of index: Int) -> String {
        let node = nodes[index]
        if node.kind == .unparsed { return "UNPARSED" }
        switch node.tagClass {
        case .universal: return UniversalTag.name(node.tagNumber)
        case .contextSpecific: return "[\(node.tagNumber)]"
        case .application: return "[APPLICATION \(node.tagNumber)]"
        case .private: return "[PRIVATE \(node.tagNumber)]"
        }
    }
}
