import ASN1Lenient
import JSONLenient
import JWSKit
import ReceiptKit
import X509Trust
import DocumentCore

/// The `json` command's document for StoreKit 2 input: each token's decoded payload with, in
/// every object, a `_source` giving each member's token characters and decoded-JSON bytes;
/// `_decoded` beside it gives the meaning of dates, enumerations and prices; nested tokens are
/// decoded in place; a history response's transactions are a list. Serialized like `ReceiptJSON`
/// (sorted keys, terminal-safe escapes).
///
///     {"input": {...}, "kind": "transaction", "token": {"header": {...}, "payload": {...,
///      "_source": {"transactionId": {"json_bytes": {"offset": 2, "length": 33},
///                                    "token_characters": {"offset": 3386, "length": 44}}}},
///     ("input_bytes" too when the token sits inside a JSON body or another token)
///      "signature": {...}, "verification": [...], "findings": [...]}}
public enum JWSJSON {
    public static func text(_ document: Document) -> String { ReceiptJSON.serialize(object(document)) }

    public static func object(_ document: Document) -> [String: Any] {
        var doc: [String: Any] = [:]
        var input: [String: Any] = ["name": document.source.name, "encoding": document.source.encoding.rawValue,
                                    "size": document.fileLayer.bytes.count, "summary": document.summary]
        if let origin = document.source.origin { input["found"] = origin.jsonObject }
        doc["input"] = input
        doc["kind"] = document.kind.id
        doc["findings"] = document.fileLayer.content.diagnostics.map(ReceiptJSON.findingObject)
        if let model = document.externalPurchase { doc["token"] = externalPurchaseObject(document, model) }
        guard let jws = document.jws else { return doc }
        let top = jws.tokens.indices.filter { jws.tokens[$0].parent == nil }
        // The token objects are made as they are written: a history's 10,000 at once were 25 KB each.
        if case .transactionHistory = jws.shape {
            let transactions = top.filter { jws.tokens[$0].path?.hasPrefix("signedTransactions[") == true }
            doc["transactions"] = JSONLazyArray(count: transactions.count) { tokenObject(document, transactions[$0]) }
        } else if jws.body == nil, let only = top.first {
            doc["token"] = tokenObject(document, only)
        } else {
            doc["tokens"] = JSONLazyArray(count: top.count) { tokenObject(document, top[$0]) }
        }
        if let body = jws.body, let root = body.root {
            // The body's other members (revision, hasMore, bundleId…) as written.
            var rest: [String: Any] = [:]
            if body[root].kind == .object {
                for member in body.members(of: root) {
                    guard let key = body.key(ofMember: member), let value = body.value(ofMember: member),
                          !key.hasPrefix("signed"), key != "data" else { continue }
                    rest[key] = plain(body, value)
                }
            }
            doc["body"] = rest
        }
        return doc
    }

    static func tokenObject(_ document: Document, _ index: Int) -> [String: Any] {
        guard let jws = document.jws else { return [:] }
        let token = jws.tokens[index]
        var o: [String: Any] = ["type": token.document.payload.kind.rawValue, "characters": token.document.text.count]
        if let path = token.path { o["path"] = path }
        // A token its document's kind names beyond its payload's type (a Retention Messaging request).
        if token.label != token.kind.label { o["label"] = token.label }
        if let header = token.layers.header, let tree = document.layer(header).json, let root = tree.root {
            var h = objectWithSource(document, token, header, tree, root, nested: [:])
            h["x5c"] = token.layers.certificates.enumerated().map { position, layer -> [String: Any] in
                var c: [String: Any] = ["position": position, "der_length": document.layer(layer).bytes.count, "layer": layer.index]
                if let names = RFC2253Name.certificateNames(der: document.layer(layer).bytes.array) { c["subject"] = names.subject }
                return c
            }
            o["header"] = h
        }
        if let payload = token.layers.payload, let tree = document.layer(payload).json, let root = tree.root {
            var nestedByNode: [Int: Int] = [:]
            let children = jws.nestedIndices(of: index)
            for (n, nested) in token.document.nested.enumerated() {
                if let child = children.dropFirst(n).first {
                    nestedByNode[nested.node.index] = child
                }
            }
            o["payload"] = objectWithSource(document, token, payload, tree, root, nested: nestedByNode)
        }
        if let signature = token.document.signature {
            o["signature"] = ["r": ReceiptJSON.hex(signature.r), "s": ReceiptJSON.hex(signature.s), "der": ReceiptJSON.hex(signature.der)]
        }
        if let report = token.report {
            o["verification"] = report.steps.map { step -> [String: Any] in
                var s: [String: Any] = ["id": step.step.rawValue, "title": step.step.title]
                switch step.status {
                case .passed: s["status"] = "passed"
                case .failed(let why): s["status"] = "failed"; s["reason"] = why.sentence
                case .notChecked(let why): s["status"] = "not-checked"; s["reason"] = why.sentence
                }
                return s
            }
            o["valid"] = report.isValid
        }
        var findings: [[String: Any]] = []
        for layer in [token.layers.token] + [token.layers.header, token.layers.payload, token.layers.signature].compactMap({ $0 }) + token.layers.certificates
        where layer != .file || jws.body == nil {
            for d in document.layer(layer).content.diagnostics {
                var f = ReceiptJSON.findingObject(d)
                f["layer"] = document.layer(layer).name
                findings.append(f)
            }
        }
        o["findings"] = findings
        return o
    }

    /// An object's members as plain JSON values, `_source` (and `_decoded` for payload fields with a
    /// meaning) beside them; nested objects the same way; nested tokens replaced by their object.
    static func objectWithSource(_ document: Document, _ token: JWSToken, _ layer: LayerID, _ tree: JSONTree, _ node: Int,
                                 nested: [Int: Int]) -> [String: Any] {
        guard tree[node].kind == .object else { return [:] }
        var o: [String: Any] = [:]
        var source: [String: Any] = [:]
        var decoded: [String: Any] = [:]
        let fields = Dictionary(token.document.payload.fields.compactMap { f in f.valueNode.map { ($0.index, f) } },
                                uniquingKeysWith: { a, _ in a })
        for member in tree.members(of: node) {
            guard let key = tree.key(ofMember: member), let value = tree.value(ofMember: member) else { continue }
            let span = document.jwsSpan(tree[member].range, in: layer, token: token)
            var where_: [String: Any] = ["json_bytes": ["offset": span.bytes.lowerBound, "length": span.bytes.count],
                                         "token_characters": ["offset": span.characters.lowerBound, "length": span.characters.count]]
            if token.layers.token != .file {  // a token inside a body or a payload: where its characters sit in the input too
                let file = document.fileRange(tree[member].range, in: layer)
                where_["input_bytes"] = ["offset": file.lowerBound, "length": file.count]
            }
            source[key] = where_
            if let child = nested[value] {
                o[key] = tokenObject(document, child)
            } else if tree[value].kind == .object {
                o[key] = objectWithSource(document, token, layer, tree, value, nested: nested)
            } else {
                o[key] = plain(tree, value)
            }
            if layer == token.layers.payload, let field = fields[value] {
                switch field.value {
                case .date(_, let iso): decoded[key] = iso
                case .enumerated(_, let meaning?): decoded[key] = meaning
                case .price(let milliunits, let currency): decoded[key] = StoreKitValue.price(milliunits: milliunits, currency: currency).display
                default: break
                }
            }
        }
        o["_source"] = source
        if !decoded.isEmpty { o["_decoded"] = decoded }
        return o
    }

    static func plain(_ tree: JSONTree, _ node: Int) -> Any {
        switch tree[node].kind {
        case .string: return tree.string(at: node) ?? ""
        case .number:
            guard let n = tree.number(at: node) else { return tree.text(of: node) }
            return n.integer.map { $0 as Any } ?? n.double
        case .object:
            var o: [String: Any] = [:]
            for member in tree.members(of: node) {
                if let key = tree.key(ofMember: member), let value = tree.value(ofMember: member) { o[key] = plain(tree, value) }
            }
            return o
        case .array: return tree.children(of: node).map { plain(tree, $0) }
        default:
            if let b = tree.bool(at: node) { return b }
            return JSONNull()
        }
    }
}

/// A JSON null: `ReceiptJSON.serialize` writes `null` for any value it has no case for.
struct JSONNull {}
