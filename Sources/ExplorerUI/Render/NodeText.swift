import ASN1Lenient
import ByteText

/// The texts the outline's rows and byte pane show for ASN.1 nodes: labels cut at boundaries,
/// lengths, escaped value previews, offsets.
public enum NodeText {
    /// A named node's row text cut to `width` at a boundary; when not even the name fits beside its
    /// detail or value, the detail or value alone (`CN=Apple Root CA - G3` for a RelativeDistinguishedName).
    public static func fit(_ name: NodeName, preview: String, width: Int, glyphs: Glyphs) -> String {
        let full = label(name, preview: preview)
        if full.unicodeScalars.count <= width { return full }
        let cut = glyphs.fitAtBoundary(full, width)
        // The cut keeps the whole name, or the row shows the detail or value instead of "…".
        if cut.unicodeScalars.count - glyphs.ellipsis.unicodeScalars.count >= name.name.unicodeScalars.count { return cut }
        guard let alone = name.detail ?? (preview.isEmpty ? nil : preview) else { return cut }
        return glyphs.fitAtBoundary(alone, width)
    }

    /// A named node's row text: `issuer: CN=…` (the decoded detail), `serialNumber = 1234` (a
    /// value the tag alone shows), or the name. Names are terminal-safe as built; the preview is escaped.
    public static func label(_ name: NodeName, preview: String) -> String {
        if name.detail != nil { return name.text }
        return preview.isEmpty ? name.name : "\(name.name) = \(preview)"
    }

    /// `(24)` for a definite length, `(indef 24)` for an indefinite one.
    static func lengthText(_ node: Node) -> String {
        node.isIndefinite ? "(indef \(node.contentLength))" : "(\(node.contentLength))"
    }

    /// A short, escaped preview of a primitive value. Large values are never decoded in full.
    public static func preview(_ tree: Tree, _ index: Int, maxLength: Int = 80) -> String {
        let node = tree.nodes[index]
        guard node.kind == .tlv else { return "\(node.contentLength) unparsed bytes" }
        if node.isConstructed { return "" }
        if node.isEncapsulated { return "encapsulates ASN.1 (\(node.contentLength) bytes)" }
        let content = tree.bytes[node.contentRange]
        if node.tagClass != .universal { return hexPreview(content, maxBytes: 16) }
        switch node.tagNumber {
        case 3:
            guard let unused = content.first else { return "" }
            return (unused != 0 ? "unused \(unused): " : "") + hexPreview(content.dropFirst(), maxBytes: 16)
        case 4:
            return hexPreview(content, maxBytes: 16)
        case 12:
            // Show invalid UTF-8 byte by byte (`\xc3`), never as a replacement character.
            return "\"" + UIText.escape(utf8: content.prefix(max(16, maxLength * 2))) + "\""
        default:
            guard content.count <= 4096 else { return "(\(content.count) bytes)" }
            guard let value = tree.value(of: index) else { return hexPreview(content, maxBytes: 16) }
            return text(of: value, maxLength: maxLength)
        }
    }

    /// Escaped text of a decoded value (strings quoted).
    public static func text(of value: Value, maxLength: Int = 200) -> String {
        switch value {
        case .boolean(let b): return b ? "TRUE" : "FALSE"
        case .integer(let decimal, _): return decimal
        case .bitString(let unused, let bytes): return (unused != 0 ? "unused \(unused): " : "") + hexPreview(bytes[...], maxBytes: 16)
        case .octets(let bytes): return hexPreview(bytes[...], maxBytes: 16)
        case .null: return "NULL"
        case .objectIdentifier(let dotted, let name): return name.map { "\(dotted) \($0)" } ?? dotted
        case .string(let s, _):
            let clipped = s.unicodeScalars.count > maxLength * 2 ? String(String.UnicodeScalarView(s.unicodeScalars.prefix(maxLength * 2))) : s
            return "\"" + UIText.escape(clipped) + "\""
        case .time(let raw, let parsed):
            let r = "\"" + UIText.escape(raw) + "\""
            if let parsed { return r + " = " + parsed.iso8601 }
            return r
        case .invalid(let why): return "invalid: " + UIText.escape(why)
        }
    }

    static func hexPreview(_ bytes: ArraySlice<UInt8>, maxBytes: Int) -> String { Hex.preview(bytes, maxBytes: maxBytes) }

    /// An offset in the byte pane's column, zero-padded to `digits`.
    static func offsetText(_ offset: Int, digits: Int, base: OffsetBase) -> String {
        let raw = base == .hex ? String(offset, radix: 16, uppercase: true) : String(offset)
        return String(repeating: "0", count: max(0, digits - raw.count)) + raw
    }
}
