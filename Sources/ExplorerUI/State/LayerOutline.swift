import ASN1Lenient
import DocumentModel
import JSONLenient
import JWSKit

/// One row of a layer-aware outline: a node of any layer (token text, header or payload JSON,
/// signature, an x5c certificate's DER), with its range in that layer and what to show.
public struct OutlineRow: Sendable, Equatable {
    public var node: NodeID
    /// The node's bytes in its layer.
    public var range: Range<Int>
    public var depth: Int
    /// Rows `index + 1 ..< subtreeEnd` are this row's descendants (pre-order, like `Tree`).
    public var subtreeEnd: Int
    /// "header", "x5c[0]", "signedDate", "SEQUENCE (443)".
    public var label: String
    /// A short, escaped preview of the value ("1709294400000", "ES256", "{4}").
    public var value: String
    /// For a payload field: what it means (Apple's schema), and its value as written in the JSON.
    public var meaning: String = ""
    public var raw: String = ""
}

/// The tree of a StoreKit 2 document across its layers: token → header (fields; each x5c entry
/// holds its certificate's ASN.1 tree) → payload (fields; a nested token under the field that
/// carries it) → signature (r, s). A pre-order arena with `subtreeEnd`, like the ASN.1 `Tree`, so
/// the pane walks only the rows it shows. Built once per document: O(nodes of all layers), which
/// for tokens is a few hundred rows (ASN.1 documents keep the file tree and never build this).
public struct LayerOutline: Sendable {
    public private(set) var rows: [OutlineRow] = []
    public var count: Int { rows.count }

    /// Nil for documents without tokens (receipts and other ASN.1 keep the file tree).
    public init?(document: Document) {
        guard let model = document.jws, !model.tokens.isEmpty || model.body != nil else { return nil }
        var builder = Builder(document: document, model: model)
        if let body = model.body {
            builder.json(body, layer: .file, index: 0, depth: 0, label: "body", holder: nil)
        } else {
            for index in model.tokens.indices where model.tokens[index].parent == nil {
                builder.token(index, depth: 0, label: "token")
            }
        }
        rows = builder.rows
    }

    /// The row showing `node`, if any (first match in pre-order).
    public func row(of node: NodeID) -> Int? { rows.firstIndex { $0.node == node } }

    /// The deepest row of `layer` whose range holds `offset` (the byte pane's cursor selects it).
    public func deepestRow(in layer: LayerID, containing offset: Int) -> Int? {
        var best: Int?
        for (i, row) in rows.enumerated() where row.node.layer == layer && row.range.contains(offset) {
            if best == nil || row.depth >= rows[best!].depth { best = i }
        }
        return best
    }

    struct Builder {
        let document: Document
        let model: JWSModel
        var rows: [OutlineRow] = []

        mutating func open(_ node: NodeID, _ range: Range<Int>, depth: Int, label: String, value: String = "") -> Int {
            rows.append(OutlineRow(node: node, range: range, depth: depth, subtreeEnd: rows.count + 1,
                                   label: UIText.escape(label), value: UIText.escape(value)))
            return rows.count - 1
        }

        mutating func close(_ row: Int) { rows[row].subtreeEnd = rows.count }

        /// A token and its parts. The token row is node 0 of its text layer (the whole token).
        mutating func token(_ index: Int, depth: Int, label: String) {
            let token = model.tokens[index]
            let ids = token.layers
            let text = document.layer(ids.token).bytes
            let row = open(NodeID(ids.token, 0), 0..<text.count, depth: depth, label: label,
                           value: "\(token.kind.label) · \(token.headerSummary)")
            if let header = ids.header, let tree = document.layer(header).json, !tree.nodes.isEmpty {
                json(tree, layer: header, index: 0, depth: depth + 1, label: "header", holder: index)
            }
            if let payload = ids.payload, let tree = document.layer(payload).json, !tree.nodes.isEmpty {
                let fields = Dictionary(token.document.payload.fields.map { ($0.member.index, $0) }, uniquingKeysWith: { first, _ in first })
                json(tree, layer: payload, index: 0, depth: depth + 1, label: "payload", holder: index, fields: fields)
            }
            if let signature = ids.signature {
                let bytes = document.layer(signature).bytes
                let sig = open(NodeID(signature, 0), 0..<bytes.count, depth: depth + 1, label: "signature",
                               value: "\(bytes.count) bytes" + (bytes.count == 64 ? " r‖s" : ""))
                if bytes.count == 64 {
                    _ = open(NodeID(signature, 1), 0..<32, depth: depth + 2, label: "r", value: hex(bytes[0..<32]))
                    _ = open(NodeID(signature, 2), 32..<64, depth: depth + 2, label: "s", value: hex(bytes[32..<64]))
                }
                close(sig)
            }
            close(row)
        }

        /// A JSON node; a member is one row (key and value), its container value's children below
        /// it. `holder` is the token whose header / payload this is (for x5c and nested tokens);
        /// nil for a JSON body's own tokens (`parent == nil`).
        mutating func json(_ tree: JSONTree, layer: LayerID, index: Int, depth: Int, label: String, holder: Int?,
                           fields: [Int: StoreKitField] = [:]) {
            let node = tree[index]
            let valueIndex = node.kind == .member ? tree.value(ofMember: index) : index
            let row = open(NodeID(layer, index), node.range, depth: depth, label: label,
                           value: valueIndex.map { summary(tree, $0) } ?? "(missing)")
            if let field = fields[index] {
                switch field.value {
                case .nestedToken, .object, .array: break
                default: rows[row].value = UIText.escape(field.value.display)
                }
                rows[row].meaning = UIText.escape(field.spec?.meaning ?? "not in Apple's schema: kept as it is")
                rows[row].raw = UIText.escape(valueIndex.map { String(tree.text(of: $0).prefix(120)) } ?? "")
            }
            if let v = valueIndex {
                let value = tree[v]
                if value.kind == .object || value.kind == .array {
                    for (i, child) in tree.children(of: v).enumerated() {
                        let childLabel = value.kind == .array ? "[\(i)]" : (tree.key(ofMember: child) ?? "?")
                        json(tree, layer: layer, index: child, depth: depth + 1, label: childLabel, holder: holder, fields: fields)
                    }
                } else if value.kind == .string {
                    attachments(tree, layer: layer, string: v, depth: depth + 1, holder: holder)
                }
            }
            close(row)
        }

        /// Under a JSON string: the certificate its x5c entry decodes to, or the token it carries.
        mutating func attachments(_ tree: JSONTree, layer: LayerID, string: Int, depth: Int, holder: Int?) {
            let range = tree[string].range
            for (i, token) in model.tokens.enumerated() where token.parent == holder {
                let source = holder == nil ? LayerID.file : model.tokens[holder!].layers.payload
                if source == layer, range.contains(token.rangeInParent.lowerBound) {
                    self.token(i, depth: depth, label: token.path.map { "token " + $0 } ?? "token")
                }
            }
            guard let holder, let header = model.tokens[holder].layers.header, header == layer,
                  let array = tree.lookup(["x5c"]) else { return }
            let entries = tree.children(of: array)
            guard let position = entries.firstIndex(of: string) else { return }
            let certificates = model.tokens[holder].layers.certificates
            guard position < certificates.count, let der = document.layer(certificates[position]).tree else { return }
            for i in der.nodes.indices {
                let n = der.nodes[i]
                let preview = n.isConstructed ? "" : TreePane.preview(der, i, maxLength: 48)
                let row = open(NodeID(certificates[position], i), n.byteRange, depth: depth + Int(n.depth),
                               label: der.tagName(of: i) + " " + TreePane.lengthText(n), value: preview)
                rows[row].subtreeEnd = rows.count - 1 + (Int(n.subtreeEnd) - i)
            }
        }

        func summary(_ tree: JSONTree, _ index: Int) -> String {
            let node = tree[index]
            switch node.kind {
            case .object: return "{\(tree.children(of: index).count)}"
            case .array: return "[\(tree.children(of: index).count)]"
            case .string:
                let text = tree.string(at: index) ?? ""
                return text.count > 60 ? "\"" + String(text.prefix(57)) + "…\" (\(text.count) chars)" : "\"" + text + "\""
            default: return tree.text(of: index)
            }
        }

        func hex(_ bytes: ArraySlice<UInt8>) -> String {
            let digits = Array("0123456789abcdef")
            return String(bytes.prefix(12).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }) + (bytes.count > 12 ? "…" : "")
        }
    }
}
