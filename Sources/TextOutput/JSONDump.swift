import ByteText
import TextLoader
import ASN1Lenient

/// `dump --format json`: the tree and its diagnostics as one JSON document, streamed node by node
/// (a million-node input never becomes one in-memory JSON object).
///
/// ```
/// {"input": {"name": "a.receipt", "size": 7686, "encoding": "binary", "note": "raw DER/BER, 7,686 bytes"},
/// "nodes": [
/// {"index": 0, "parent": null, "offset": 0, "depth": 0, "header_length": 4, "length": 7682, "constructed": true, "tag": "SEQUENCE", "tag_class": "universal", "tag_number": 16, "encapsulated": false, "kind": "tlv"},
/// ...
/// ],
/// "diagnostics": [
/// {"severity": "error", "code": "truncated-content", "offset": 60, "length": 2, "message": "…", "node": 5}
/// ],
/// "summary": {"nodes": 1234, "errors": 1, "der": 0, "warnings": 0, "info": 0}}
/// ```
///
/// A node has: `index`, `parent` (null for top-level nodes), `offset`, `depth`, `header_length`,
/// `length` (content octets; null when indefinite), `constructed`, `tag` ("SEQUENCE", "[0]",
/// "[APPLICATION 3]", "UNPARSED"), `tag_class` (universal/application/context/private),
/// `tag_number`, `encapsulated`, `kind` ("tlv" or "unparsed"), `end_of_contents` (offset of the
/// 00 00 marker, only when there is one), and for decoded primitive values `value_type` plus
/// `value`: booleans as JSON booleans, INTEGER/ENUMERATED as decimal strings (and `hex` for long
/// ones), OCTET STRING / BIT STRING content as upper-case hex (`unused_bits` for BIT STRING; no
/// value when encapsulated, its children carry it), OIDs dotted with `oid_name`, strings as JSON
/// strings (`lossy` when bytes had to be replaced), times as written with `time` in ISO 8601;
/// and, for a node the document names (`NodeNames`: RFC 5280 / 5652 parts, receipt attributes),
/// `name` ("tbsCertificate", "attribute 12 · receipt creation date") and, where decoded, `detail`
/// ("CN=Apple Root CA - G3, OU=…", "keyCertSign, cRLSign").
/// Every string is escaped so that no control or invisible formatting character appears raw.
public enum JSONDump {
    public static func write(_ tree: Tree, input: LoadedInput? = nil, names: NodeNames = .none, to writer: OutputWriter) {
        writer.flush()
        var out = TextBuffer()
        out.write("{\"input\": {\"name\": ")
        if let input { string(input.name, &out) } else { out.write("null") }
        out.write(", \"size\": ")
        out.write(int: tree.bytes.count)
        out.write(", \"encoding\": ")
        if let input { string(input.encoding.rawValue, &out) } else { out.write("null") }
        out.write(", \"note\": ")
        if let input { string(input.note, &out) } else { out.write("null") }
        out.write("},\n\"nodes\": [\n")
        writer.drain(&out, force: true)
        var lines = NodeWriter(tree: tree, names: names, out: writer)
        // The last node seen at each depth: in pre-order a node's parent is the last one a level up.
        var open = [Int](repeating: -1, count: Node.maxDepth + 1)
        tree.bytes.withUnsafeBufferPointer { bytes in
            tree.nodes.withUnsafeBufferPointer { nodes in
                for index in 0..<nodes.count {
                    if index > 0 {
                        lines.buf.reserve(2)
                        lines.buf.put(",\n")
                    }
                    let node = nodes[index], depth = Int(node.depth)
                    open[depth] = index
                    lines.node(bytes, index, node, parent: depth > 0 ? open[depth - 1] : -1)
                    lines.buf.drain(to: writer)
                }
            }
        }
        lines.buf.drain(to: writer, force: true)
        lines.buf.deallocate()
        let nodes = tree.nodes
        out.write(nodes.isEmpty ? "],\n\"diagnostics\": [\n" : "\n],\n\"diagnostics\": [\n")
        let all = tree.diagnostics
        var counts = [Int](repeating: 0, count: Severity.allCases.count)
        for (i, d) in all.enumerated() {
            counts[d.severity.rawValue] += 1
            if i > 0 { out.write(",\n") }
            out.write("{\"severity\": ")
            string(d.severity.description, &out)
            out.write(", \"code\": ")
            string(d.code.rawValue, &out)
            out.write(", \"offset\": ")
            out.write(int: d.offset)
            out.write(", \"length\": ")
            out.write(int: d.length)
            out.write(", \"message\": ")
            string(d.message, &out)
            out.write(", \"node\": ")
            if let n = d.node { out.write(int: n.index) } else { out.write("null") }
            out.write("}")
            writer.drain(&out)
        }
        out.write(all.isEmpty ? "],\n" : "\n],\n")
        out.write("\"summary\": {\"nodes\": ")
        out.write(int: nodes.count)
        out.write(", \"errors\": ")
        out.write(int: counts[Severity.error.rawValue])
        out.write(", \"der\": ")
        out.write(int: counts[Severity.notDER.rawValue])
        out.write(", \"warnings\": ")
        out.write(int: counts[Severity.warning.rawValue])
        out.write(", \"info\": ")
        out.write(int: counts[Severity.info.rawValue])
        out.write("}}\n")
        writer.drain(&out, force: true)
    }

    public static func render(_ tree: Tree, input: LoadedInput? = nil, names: NodeNames = .none) -> String {
        let out = OutputWriter(.memory)
        write(tree, input: input, names: names, to: out)
        return out.text
    }

    static func value(_ tree: Tree, _ index: Int, _ node: Node, _ out: inout TextBuffer) {
        // Large byte strings are written straight from the input; no Value is materialised.
        if node.tagNumber == 4 || node.tagNumber == 3 {
            let content = tree.content(of: index)
            if node.tagNumber == 3 {
                guard let unused = content.first else {
                    out.write(", \"value_type\": \"invalid\", \"invalid\": \"BIT STRING without unused-bits octet\"")
                    return
                }
                out.write(", \"value_type\": \"bit_string\", \"unused_bits\": ")
                out.write(int: Int(unused))
            } else {
                out.write(", \"value_type\": \"octets\"")
            }
            if node.isEncapsulated { return }
            out.write(", \"value\": \"")
            out.writeHex(node.tagNumber == 3 ? content.dropFirst() : content)
            out.write(byte: 0x22)
            return
        }
        guard let value = tree.value(of: index) else { return }
        switch value {
        case .boolean(let b):
            out.write(b ? ", \"value_type\": \"boolean\", \"value\": true" : ", \"value_type\": \"boolean\", \"value\": false")
        case .integer(let decimal, let hex):
            out.write(", \"value_type\": \"integer\"")
            if node.contentLength <= 512 {
                out.write(", \"value\": ")
                string(decimal, &out)
            }
            if let hex {
                out.write(", \"hex\": ")
                string(hex, &out)
            }
        case .bitString, .octets:
            break  // handled above
        case .null:
            out.write(", \"value_type\": \"null\", \"value\": null")
        case .objectIdentifier(let dotted, let name):
            out.write(", \"value_type\": \"oid\", \"value\": ")
            string(dotted, &out)
            out.write(", \"oid_name\": ")
            if let name { string(name, &out) } else { out.write("null") }
        case .string(let text, let lossy):
            out.write(", \"value_type\": \"string\", \"value\": ")
            string(text, &out)
            if lossy { out.write(", \"lossy\": true") }
        case .time(let raw, let parsed):
            out.write(", \"value_type\": \"time\", \"value\": ")
            string(raw, &out)
            out.write(", \"time\": ")
            if let parsed { string(parsed.iso8601, &out) } else { out.write("null") }
        case .invalid(let why):
            out.write(", \"value_type\": \"invalid\", \"invalid\": ")
            string(why, &out)
        }
    }

    /// Appends `text` as a JSON string literal. Control characters (C0, DEL, C1) and invisible
    /// formatting characters (bidi overrides, zero-width characters, U+2028/9, BOM) become
    /// `\uXXXX` escapes, so the document is safe to print on a terminal.
    public static func string(_ text: String, _ writer: OutputWriter) {
        string(text, &writer.buffer)
        writer.lineDone()
    }

    public static func string(_ text: String, _ out: inout TextBuffer) {
        out.write(byte: 0x22)
        escape(text, &out)
        out.write(byte: 0x22)
    }

    /// `string`'s escaping without the quotes, one scalar at a time: text cut between scalars
    /// (`Tree.forEachTextPiece`) escapes piece by piece to what it escapes to whole.
    static func escape(_ text: String, _ out: inout TextBuffer) {
        for scalar in text.unicodeScalars {
            let v = scalar.value
            switch v {
            case 0x22: out.write(bytes: [0x5C, 0x22])
            case 0x5C: out.write(bytes: [0x5C, 0x5C])
            case 0x0A: out.write(bytes: [0x5C, 0x6E])
            case 0x0D: out.write(bytes: [0x5C, 0x72])
            case 0x09: out.write(bytes: [0x5C, 0x74])
            case 0x20..<0x7F: out.write(byte: UInt8(v))
            default:
                if TerminalSafe.mustEscape(scalar) {
                    if v > 0xFFFF {
                        let u = v - 0x10000
                        unicodeEscape(0xD800 + (u >> 10), &out)
                        unicodeEscape(0xDC00 + (u & 0x3FF), &out)
                    } else {
                        unicodeEscape(v, &out)
                    }
                } else {
                    // Straight into the buffer: a `String` a scalar made a 37 MB Latin-1 value take 12 s.
                    UTF8.encode(scalar) { out.write(byte: $0) }
                }
            }
        }
    }

    static func unicodeEscape(_ v: UInt32, _ out: inout TextBuffer) {
        out.write(byte: 0x5C)
        out.write(byte: 0x75)
        Hex.append(UInt8(v >> 8 & 0xFF), to: &out.bytes, .lower)
        Hex.append(UInt8(v & 0xFF), to: &out.bytes, .lower)
    }
}
