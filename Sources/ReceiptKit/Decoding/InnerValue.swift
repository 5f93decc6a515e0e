import ASN1Lenient

/// The inner value of an unlisted attribute, where its bytes parse as one ASN.1 element.
public enum InnerValue {
    /// `{"asn1_type": "INTEGER", "value": "3"}`, or nil when the bytes are not one element.
    public static func describe(_ f: ReceiptField, in tree: Tree) -> [String: String]? {
        guard let inner = f.innerNode else { return nil }
        var o = ["asn1_type": tree.tagName(of: inner)]
        if let text = text(of: inner, in: tree) { o["value"] = text }
        return o
    }

    /// A short text for a primitive value: the number, the string, the OID; nil for constructed ones.
    public static func text(of node: Int, in tree: Tree) -> String? {
        switch tree.value(of: node) {
        case .integer(let decimal, _)?: return decimal
        case .string(let s, _)?: return s
        case .boolean(let b)?: return b ? "TRUE" : "FALSE"
        case .objectIdentifier(let dotted, _)?: return dotted
        case .time(let raw, _)?: return raw
        case .null?: return "NULL"
        default: return nil
        }
    }
}
