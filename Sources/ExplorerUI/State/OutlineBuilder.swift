import ASN1Lenient
import DocumentModel
import Threads
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONLenient
import JWSKit

/// What building any part of an outline reads, computed once per document: the tokens each layer
/// carries by position (a JSON string finds its token by binary search, not by a scan of all).
struct OutlineBuildContext: Sendable {
    let document: Document
    let model: JWSModel
    /// Layer holding token characters → (start of the token's characters there, token index), by start.
    let tokensIn: [LayerID: [(start: Int, token: Int)]]
    /// Token index → its nested tokens.
    let nested: [[Int]]
    /// Schema meanings escaped once each (every transaction's field rows show the same few dozen).
    let meanings = EscapedTexts()

    init(document: Document, model: JWSModel) {
        self.document = document
        self.model = model
        var tokensIn: [LayerID: [(start: Int, token: Int)]] = [:]
        var nested = [[Int]](repeating: [], count: model.tokens.count)
        for (i, token) in model.tokens.enumerated() {
            let holder: LayerID?
            if let parent = token.parent {
                nested[parent].append(i)
                holder = model.tokens[parent].layers.payload
            } else {
                holder = model.body == nil ? nil : .file
            }
            if let holder { tokensIn[holder, default: []].append((token.rangeInParent.lowerBound, i)) }
        }
        self.tokensIn = tokensIn.mapValues { $0.sorted { $0.start < $1.start } }
        self.nested = nested
    }

    /// `token` and every token nested in it, at any depth.
    func descendants(of token: Int) -> [Int] {
        var out = [token], i = 0
        while i < out.count { out += nested[out[i]]; i += 1 }
        return out
    }

    /// Tokens whose characters start inside `range` of `layer`.
    func tokens(in layer: LayerID, _ range: Range<Int>) -> [Int] {
        guard let list = tokensIn[layer] else { return [] }
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].start < range.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        var out: [Int] = []
        while lo < list.count, list[lo].start < range.upperBound { out.append(list[lo].token); lo += 1 }
        return out
    }
}

/// Builds outline rows in pre-order from row `base`. With `lazyTopLevel`, a top-level token gets
/// its head row and a counted, unbuilt block; `counting` only advances `cursor` (no text made).
struct OutlineBuilder {
    let context: OutlineBuildContext
    var document: Document { context.document }
    var model: JWSModel { context.model }
    let base: Int
    let lazyTopLevel: Bool
    var counting = false
    /// The next row's index.
    var cursor: Int
    var rows: [OutlineRow] = []
    /// Row index of each entry of `rows` (they skip unbuilt blocks).
    var positions: [Int] = []
    var blocks: [TokenBlock] = []
    /// Open rows, innermost last (their index), for each new row's parent.
    var parents: [Int] = []
    /// Set by the search index: a token's header rows (its certificates' included) are counted,
    /// not built, and recorded here (first row, token), since their text depends only on the
    /// header's bytes and a history carries the same header in every token.
    var headerRuns: [(row: Int, token: Int)]?

    init(context: OutlineBuildContext, base: Int, lazyTopLevel: Bool, counting: Bool = false) {
        self.context = context
        self.base = base
        self.cursor = base
        self.lazyTopLevel = lazyTopLevel
        self.counting = counting
    }

    /// Appends a row (its text only when not counting) and opens it; returns its index in `rows`.
    @discardableResult
    /// `valueIsSafe`: the value is already terminal-safe (a token's head: `JWSToken.headerSummary`
    /// escapes the alg itself); escaping it again would double an escape's backslash.
    mutating func open(_ node: NodeID, _ range: Range<Int>, depth: Int, label: @autoclosure () -> String,
                       value: @autoclosure () -> String = "", valueIsSafe: Bool = false) -> Int {
        defer { parents.append(cursor); cursor += 1 }
        guard !counting else { return -1 }
        rows.append(OutlineRow(node: node, range: range, depth: depth, subtreeEnd: cursor + 1, parent: parents.last ?? -1,
                               label: UIText.escape(label()), value: valueIsSafe ? value() : UIText.escape(value())))
        positions.append(cursor)
        return rows.count - 1
    }

    mutating func close(_ row: Int) {
        parents.removeLast()
        if row >= 0 { rows[row].subtreeEnd = cursor }
    }

    /// A token at the top of the document: built now, or (with `lazyTopLevel`) its head row and a
    /// counted block built on first use.
    mutating func topLevelToken(_ index: Int, depth: Int, label: String) {
        guard lazyTopLevel, !counting else { return token(index, depth: depth, label: label) }
        var counter = OutlineBuilder(context: context, base: 0, lazyTopLevel: false, counting: true)
        counter.token(index, depth: depth, label: label)
        let start = cursor
        blocks.append(TokenBlock(start: start, count: counter.cursor, token: index, depth: depth, parent: parents.last ?? -1, label: label))
        let head = Self.headValue(model, index)
        let row = open(NodeID(model.tokens[index].layers.token, 0), 0..<model.tokens[index].document.text.count, depth: depth,
                       label: label, value: head, valueIsSafe: true)
        cursor = start + counter.cursor
        close(row)
    }

    /// Terminal-safe: the kind's label is ours and `headerSummary` escapes the alg.
    static func headValue(_ model: JWSModel, _ index: Int) -> String { "\(model.tokens[index].kind.label) · \(model.tokens[index].headerSummary)" }

    /// A token and its parts. The token row is node 0 of its text layer (the whole token).
    mutating func token(_ index: Int, depth: Int, label: String) {
        let token = model.tokens[index]
        let ids = token.layers
        let model = self.model
        let row = open(NodeID(ids.token, 0), 0..<token.document.text.count, depth: depth, label: label, value: Self.headValue(model, index),
                       valueIsSafe: true)
        if let header = ids.header, let tree = document.layer(header).json, !tree.nodes.isEmpty {
            let wasCounting = counting
            if headerRuns != nil, !counting {
                headerRuns?.append((cursor, index))
                counting = true
            }
            json(tree, layer: header, index: 0, depth: depth + 1, label: "header", holder: index)
            counting = wasCounting
        }
        if let payload = ids.payload, let tree = document.layer(payload).json, !tree.nodes.isEmpty {
            let fields = counting ? [:] : Dictionary(token.document.payload.fields.map { ($0.member.index, $0) }, uniquingKeysWith: { first, _ in first })
            json(tree, layer: payload, index: 0, depth: depth + 1, label: "payload", holder: index, fields: fields)
        }
        if let signature = ids.signature {
            let bytes = document.layer(signature).bytes
            let sig = open(NodeID(signature, 0), 0..<bytes.count, depth: depth + 1, label: "signature",
                           value: "\(bytes.count) bytes" + (bytes.count == 64 ? " r‖s" : ""))
            if bytes.count == 64 {
                close(open(NodeID(signature, 1), 0..<32, depth: depth + 2, label: "r", value: Self.hex(bytes[0..<32])))
                close(open(NodeID(signature, 2), 32..<64, depth: depth + 2, label: "s", value: Self.hex(bytes[32..<64])))
            }
            close(sig)
        }
        close(row)
    }

    /// A JSON node; a member is one row (key and value), its container value's children below
    /// it. `holder` is the token whose header / payload this is (for x5c and nested tokens);
    /// nil for a JSON body's own tokens (`parent == nil`).
    mutating func json(_ tree: JSONTree, layer: LayerID, index: Int, depth: Int, label: @autoclosure () -> String, holder: Int?,
                       fields: [Int: StoreKitField] = [:]) {
        let node = tree[index]
        let valueIndex = node.kind == .member ? tree.value(ofMember: index) : index
        let row = open(NodeID(layer, index), node.range, depth: depth, label: label(),
                       value: valueIndex.map { Self.summary(tree, $0) } ?? "(missing)")
        if let field = fields[index], row >= 0 {
            switch field.value {
            case .nestedToken, .object, .array: break
            default: rows[row].value = UIText.escape(field.value.display)
            }
            rows[row].meaning = context.meanings.escaped(field.spec?.meaningWithVersion ?? "not in Apple's schema: kept as it is")
            rows[row].raw = UIText.escape(valueIndex.map { String(tree.text(of: $0).prefix(120)) } ?? "")
        }
        if let v = valueIndex {
            let value = tree[v]
            if value.kind == .object || value.kind == .array {
                for (i, child) in tree.children(of: v).enumerated() {
                    let isArray = value.kind == .array
                    json(tree, layer: layer, index: child, depth: depth + 1, label: isArray ? "[\(i)]" : (tree.key(ofMember: child) ?? "?"),
                         holder: holder, fields: fields)
                }
            } else if value.kind == .string {
                attachments(tree, layer: layer, string: v, depth: depth + 1, holder: holder)
            }
        }
        close(row)
    }

    /// Under a JSON string: the certificate its x5c entry decodes to, or the token it carries.
    mutating func attachments(_ tree: JSONTree, layer: LayerID, string: Int, depth: Int, holder: Int?) {
        for i in context.tokens(in: layer, tree[string].range) where model.tokens[i].parent == holder {
            let token = model.tokens[i]
            let label = token.path.map { "token " + $0 } ?? "token"
            if holder == nil { topLevelToken(i, depth: depth, label: label) } else { self.token(i, depth: depth, label: label) }
        }
        // An Advanced Commerce request's `request` claim: its decoded JSON under the string.
        if let holder, let request = model.tokens[holder].layers.request, model.tokens[holder].layers.payload == layer,
           let requestTree = document.layer(request).json, let root = requestTree.root,
           tree.key(ofMember: tree[string].parent) == "request" {
            json(requestTree, layer: request, index: root, depth: depth, label: "request (base64 → JSON)", holder: holder)
            return
        }
        guard let holder, let header = model.tokens[holder].layers.header, header == layer,
              let array = tree.lookup(["x5c"]), tree[array].range.contains(tree[string].range.lowerBound) else { return }
        let entries = tree.children(of: array)
        guard let position = entries.firstIndex(of: string) else { return }
        let certificates = model.tokens[holder].layers.certificates
        guard position < certificates.count, let der = document.layer(certificates[position]).tree else { return }
        guard !counting else { cursor += der.nodes.count; return }
        let first = cursor
        let holderRow = parents.last ?? -1
        // The certificate's parts by their RFC 5280 names, as the tree pane and `dump` show them.
        let names = document.names(for: certificates[position])
        for i in der.nodes.indices {
            let n = der.nodes[i]
            let preview = UIText.escape(n.isConstructed ? "" : TreePane.preview(der, i, maxLength: 48))
            var row = OutlineRow(node: NodeID(certificates[position], i), range: n.byteRange, depth: depth + Int(n.depth),
                                 subtreeEnd: first + Int(n.subtreeEnd), parent: n.depth > 0 ? first + der.nodes.parentIndex(i) : holderRow,
                                 label: UIText.escape(der.tagName(of: i) + " " + TreePane.lengthText(n)), value: preview)
            row.name = names[i]
            rows.append(row)
            positions.append(cursor)
            cursor += 1
        }
    }

    static func summary(_ tree: JSONTree, _ index: Int) -> String {
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

    static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        for b in bytes.prefix(12) { out += [digits[Int(b >> 4)], digits[Int(b & 0xF)]] }
        return String(decoding: out, as: UTF8.self) + (bytes.count > 12 ? "…" : "")
    }
}

/// `UIText.escape` of texts that repeat (Apple's field meanings), made once per text and shared by
/// every copy of the outline's build context.
// @unchecked: `done` is read and written only with `lock` held, and holds Strings.
final class EscapedTexts: @unchecked Sendable {
    private let lock = Lock()
    private var done: [String: String] = [:]

    func escaped(_ text: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = done[text] { return known }
        let escaped = UIText.escape(text)
        done[text] = escaped
        return escaped
    }
}
