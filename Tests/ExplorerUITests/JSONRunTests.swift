import DocumentCore
import Foundation
import JSONLenient
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// A JSON layer's rows are made from its tree when read (`JSONRun`), issue 32's memory bound: they
/// must be the rows the explorer built one by one before, field by field. `expectRows` restates that
/// build (a member and its value one row, a container's children below it labelled by key or
/// `[i]`, the child layers decoded from a string under its row) and walks the outline beside it.
@Suite struct JSONRunTests {
    static func open(_ bytes: [UInt8], name: String) throws -> Document {
        var options = JWSOutlineTests.options
        options.validate = false
        return Document.open(try InputLoader.decode(bytes, name: name), options: options)
    }

    /// A value's preview as the eager build wrote it: children counted, strings cut at 57 characters.
    static func preview(_ tree: JSONTree, _ index: Int) -> String {
        let kind = tree[index].kind
        if kind == .object || kind == .array {
            let n = tree.children(of: index).count
            return kind == .object ? "{\(n)}" : "[\(n)]"
        }
        guard kind == .string else { return tree.text(of: index) }
        let text = tree.string(at: index) ?? ""
        return text.count <= 60 ? "\"\(text)\"" : "\"\(text.prefix(57))…\" (\(text.count) chars)"
    }

    /// Every JSON layer of `document` that has rows: each row equal to the eager one; found back
    /// by node, by offset and by extent. Returns the JSON rows checked.
    @discardableResult
    static func expectEveryJSONLayer(_ document: Document, _ name: String) -> Int {
        let outline = LayerOutline(document: document)
        var checked = 0
        for layer in document.layers where layer.json.map({ !$0.nodes.isEmpty }) == true {
            checked += expectRows(of: layer.id, in: outline, name)
        }
        return checked
    }

    @discardableResult
    static func expectRows(of id: LayerID, in outline: LayerOutline, _ name: String) -> Int {
        let document = outline.context.document
        let layer = document.layer(id)
        guard let tree = layer.json, let rootRow = outline.row(of: NodeID(id, 0)) else {
            Issue.record("\(name): JSON layer \(layer.name) has no row")
            return 0
        }
        let fields = document.outlineWording.fields(of: id, in: document)
        let root = outline.row(rootRow)
        #expect(root.parent < 0 ? root.depth == 0 : root.depth == outline.row(root.parent).depth + 1, "\(name)")
        var next = rootRow, checked = 0

        func visit(_ index: Int, depth: Int, parent: Int, label: String) {
            let at = next
            next += 1
            let value = tree[index].kind == .member ? tree.value(ofMember: index) : index
            if let v = value, [.object, .array].contains(tree[v].kind) {
                for (i, child) in tree.children(of: v).enumerated() {
                    visit(child, depth: depth + 1, parent: at, label: tree[v].kind == .array ? "[\(i)]" : tree.key(ofMember: child) ?? "?")
                }
            } else if let v = value, tree[v].kind == .string {
                // The layers decoded from the string: whole subtrees of other layers under this row.
                while next < outline.count, outline.row(next).parent == at {
                    #expect(outline.row(next).node.layer != id, "\(name)")
                    next = outline.row(next).subtreeEnd
                }
            }
            var expected = OutlineRow(node: NodeID(id, index), range: tree[index].range, depth: depth, subtreeEnd: next, parent: parent,
                                      label: UIText.escape(label), value: UIText.escape(value.map { preview(tree, $0) } ?? "(missing)"))
            if let field = fields[index] {
                expected.value = UIText.escape(field.display ?? expected.value)
                expected.meaning = UIText.escape(field.meaning)
                expected.raw = UIText.escape(value.map { String(tree.text(of: $0).prefix(120)) } ?? "")
            }
            #expect(outline.row(at) == expected, "\(name) row \(at)")
            #expect(outline.row(of: NodeID(id, index)) == at, "\(name) node \(index)")
            #expect(outline.extent(at) == (depth, next), "\(name) row \(at)")
            #expect(outline.parent(at) == parent, "\(name) row \(at)")
            if !expected.range.isEmpty {
                #expect(outline.deepestRow(in: id, containing: expected.range.lowerBound) == at, "\(name) row \(at)")
            }
            checked += 1
        }
        visit(0, depth: root.depth, parent: root.parent, label: document.outlineWording.heading(of: id, in: document)?.label ?? layer.name)
        return checked
    }

    /// The JSON documents of samples/: tokens, developer-signed JWS, external purchase tokens,
    /// Server API bodies (not the keys, which the explorer refuses to show).
    static let sampleFiles: [String] = ["jws", "developer", "external", "apple"].flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent(folder).path)) ?? [])
            .filter { !$0.hasSuffix(".p8") && !$0.hasSuffix(".pem") }.sorted().map { "\(folder)/\($0)" }
    } + ["typical.json"]

    @Test func everySampleRowIsTheEagerRow() throws {
        var checked = 0, documents = 0
        for file in Self.sampleFiles {
            // A file the explorer refuses to open (a request body of another shape) has no rows.
            guard let document = try? Self.open(try Paths.sample(file), name: (file as NSString).lastPathComponent) else { continue }
            let rows = Self.expectEveryJSONLayer(document, file)
            if rows > 0 { documents += 1 }
            checked += rows
        }
        // Every folder has JSON documents (a sample generator change that dropped them would show).
        #expect(documents >= 70 && checked >= 1_500, "\(documents) documents, \(checked) rows")
    }

    /// Child layers as lazy blocks under a body's strings, and nested tokens built inside a block.
    @Test func aHistoryAndANotificationWithNestedTokens() throws {
        #expect(Self.expectEveryJSONLayer(try OutlineSearchIndexTests.mixedHistory(), "mixed history") > 8 * 20)
        let notification = try Self.open(try Paths.sample("jws/notification.jws"), name: "notification.jws")
        #expect(notification.layers.filter { $0.json != nil }.count >= 6)
        #expect(Self.expectEveryJSONLayer(notification, "notification") > 50)
    }

    @Test(.enabled(if: Paths.jwsCorpusAvailable)) func everyCorpusTokenRowIsTheEagerRow() throws {
        let names = CorpusTokens.appleSigned + CorpusTokens.xcode + CorpusTokens.testCA
        for name in names {
            let bytes = try Paths.bytes(Paths.jws.appendingPathComponent(name))
            #expect(Self.expectEveryJSONLayer(try Self.open(bytes, name: (name as NSString).lastPathComponent), name) > 10, "\(name)")
        }
    }

    /// `[0,0,…]` in a StoreKit body: one run, no row built, 4 + 4 bytes a row kept; reading the
    /// last element and the array's count walks no sibling list.
    @Test func aDenseArrayKeepsNoRowPerElement() throws {
        let count = 100_000
        let body = "{\"signedTransactions\":[],\"x\":[" + Array(repeating: "0", count: count).joined(separator: ",") + "]}"
        let document = try Self.open(Array(body.utf8), name: "dense.json")
        let outline = LayerOutline(document: document)
        #expect(outline.count == 3 + count)
        #expect(outline.eager.rows.isEmpty && outline.eager.runs.isEmpty && outline.blocks.isEmpty)
        #expect(outline.eager.jsonRuns.count == 1 && outline.eager.jsonRuns[0].nodes.count == outline.count)
        #expect(outline.eager.jsonRuns[0].gaps.isEmpty)
        var s = AppState(document: document, screen: GridSize(width: 120, height: 40))
        _ = render(s, size: GridSize(width: 120, height: 40))
        press(&s, .character("G"))
        #expect(s.outlineRow?.label == "[\(count - 1)]" && s.outlineRow?.parent == 2 && s.outlineRow?.value == "0")
        #expect(outline.row(2).value == "[\(count)]" && outline.row(2).subtreeEnd == outline.count)
        #expect(outline.store.builtCount == 0)
    }

    /// The same array as a token's payload: the payload's block, once built, is one run.
    @Test func aDensePayloadsBlockIsOneRun() throws {
        func b64url(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let count = 50_000
        let payload = "[" + Array(repeating: "0", count: count).joined(separator: ",") + "]"
        let token = b64url("{\"alg\":\"ES256\"}") + "." + b64url(payload) + "." + b64url(String(repeating: "s", count: 64))
        let document = try Self.open(Array(token.utf8), name: "dense.jws")
        let outline = LayerOutline(document: document)
        let layer = try #require(document.layers.first { $0.json?.nodes.count == count + 1 })
        let root = try #require(outline.row(of: NodeID(layer.id, 0)))
        #expect(outline.row(root + count).label == "[\(count - 1)]")
        let set = outline.built(outline.layerBlock[layer.id.index])
        #expect(set.rows.isEmpty && set.jsonRuns.count == 1 && set.jsonRuns[0].nodes.count == count + 1)
        Self.expectRows(of: layer.id, in: outline, "dense.jws")
    }
}
