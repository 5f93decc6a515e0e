import ASN1Lenient
import DocumentCore
import Foundation
import Testing
import TestSupport
import ByteText
@testable import ExplorerUI
import TextLoader

/// Search on a layer outline goes through `OutlineSearchIndex` (every row's text made once, each
/// certificate's rows once per distinct certificate). It must find exactly the rows, in the same
/// order, that building every row and testing its fields finds (`reference`, the scan the explorer
/// ran per query before the index).
@Suite struct OutlineSearchIndexTests {
    /// The search before the index: every row built, its label, value, meaning and raw value, and a
    /// JSON leaf's own text in its layer, each tested for the query on its own.
    static func reference(_ outline: LayerOutline, _ query: String) -> [Int] { reference(outline, 0..<outline.count, query) }

    static func reference(_ outline: LayerOutline, _ rows: Range<Int>, _ query: String) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return [] }
        return rows.filter { index in
            let row = outline.rows[index]
            if [row.label, row.value, row.meaning, row.raw].contains(where: { Search.contains($0, needle) }) { return true }
            // A JSON leaf's own text (key and whole value).
            let layer = outline.context.document.layer(row.node.layer)
            guard row.subtreeEnd == index + 1, layer.json != nil, row.range.upperBound <= layer.bytes.count else { return false }
            return layer.bytes.withUnsafeBufferPointer { Search.containsFolded(UnsafeBufferPointer(rebasing: $0[row.range]), needle) }
        }
    }

    /// Queries that land in each field: certificate text (shared rows), labels, values, meanings,
    /// raw JSON, a leaf's JSON text (quotes, keys), upper case, non-ASCII, one that matches almost
    /// every row, and ones that exist only across two fields (`alg` + `"ES256"`, `r` + `64 bytes`)
    /// and must not match.
    static let queries = ["storekit signing", "SEQUENCE", "transactionid", "2000000510000004", "purchase", "e", "\"",
                          "\"transactionId\":\"", "es256", "r‖s", "Sandbox", "alg\"es", "r64 bytes", "utf8string (", "no such text", "0"]

    /// A history body whose tokens differ: transactions, a renewal info, an app transaction and the
    /// Xcode-signed transaction (another certificate chain), each twice.
    static func mixedHistory() throws -> Document {
        let files = ["transaction.jws", "xcode-transaction.jws", "renewal-info.jws", "app-transaction.jws"]
        let tokens = try files.map { Array(try Paths.sample("jws/" + $0)).filter { $0 > 0x20 } }
        var bytes = Array("{\"environment\":\"Sandbox\",\"signedTransactions\":[".utf8)
        for (i, token) in (tokens + tokens).enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += [UInt8(ascii: "\"")] + token + [UInt8(ascii: "\"")]
        }
        bytes += Array("]}".utf8)
        var options = JWSOutlineTests.options
        options.validate = false
        return Document.open(try InputLoader.decode(bytes, name: "mixed.json"), options: options)
    }

    @Test func aHistoryOfDifferentTokensFindsWhatEveryRowFinds() throws {
        let outline = LayerOutline(document: try Self.mixedHistory())
        #expect(outline.blocks.count == 8)
        for query in Self.queries {
            let fresh = LayerOutline(document: outline.context.document)
            #expect(fresh.search(query) == Self.reference(outline, query), "query \(query)")
        }
        try Self.expectOneTextPerDistinctHeader(outline, tokens: 8)
    }

    @Test func aNotificationFindsNestedTokensRowsInOrder() throws {
        let s = try JWSOutlineTests.state("jws/notification.jws")
        let outline = s.outline
        for query in Self.queries {
            let fresh = LayerOutline(document: outline.context.document)
            #expect(fresh.search(query) == Self.reference(outline, query), "query \(query)")
        }
        try Self.expectOneTextPerDistinctHeader(outline, tokens: 3)
    }

    /// Each token's header rows come from one text per distinct header (its bytes), placed at
    /// that token's header row.
    static func expectOneTextPerDistinctHeader(_ outline: LayerOutline, tokens: Int) throws {
        let document = outline.context.document
        let model = try #require(document.jws)
        #expect(model.tokens.count == tokens)
        let index = OutlineSearchIndex(outline)
        let runs = index.runs.compactMap { run -> Int? in
            if case .header(_, let firstRow) = run { return firstRow } else { return nil }
        }
        let headerRows = model.tokens.compactMap { $0.layers.header.flatMap { outline.row(of: NodeID($0, 0)) } }
        #expect(runs == headerRows.sorted() && runs.count == tokens)
        let distinct = Set(model.tokens.compactMap { $0.layers.header.map { document.layer($0).bytes } })
        #expect(index.headers.count == distinct.count)
    }

    /// `UIText.escape`'s fast path (printable ASCII without a backslash, returned as it is) gives
    /// what its two steps give, on text at each edge of it.
    @Test func escapeFastPathIsTheTwoSteps() {
        let samples = ["", "plain", "\"quoted\"", "{\"a\":1}", "~ !", "back\\slash", "tab\there", "del\u{7F}", "café",
                       "\u{202E}evil", "中文", "\u{1B}[31m", "\"\u{85}\"",
                       // purchase-table cells (ids, dates, the missing-value dash)
                       "com.example.large.item07", "2024-03-01T12:30:00Z", "–", "esc\u{1B}]0;x\u{07}", "nul\u{0}"]
        for text in samples {
            #expect(UIText.escape(text) == UIText.guardDisplay(TerminalSafe.escape(text)), "\(Array(text.unicodeScalars))")
        }
        #expect(UIText.escape("\"ES256\"") == "\"ES256\"")
        #expect(UIText.escape("a\\b") == "a\\\\b")
    }

    @Test func matchesAcrossTwoFieldsDoNotCount() throws {
        var text = SearchText()
        text.append(label: "alg", value: "\"ES256\"")
        text.append(label: "x5c", value: "[3]", meaning: "Certificates", raw: "[…]", leaf: ArraySlice(Array("\"x5c\":[]".utf8)))
        text.append(label: "", value: "")
        text.append(label: "ALG", value: "alg\"es")
        #expect(text.rowCount == 4)
        #expect(text.matchingRows(Array("alg\"es".utf8)) == [3])
        #expect(text.matchingRows(Array("alg".utf8)) == [0, 3])
        #expect(text.matchingRows(Array("certificates".utf8)) == [1])
        #expect(text.matchingRows(Array("\"x5c\":".utf8)) == [1])
        #expect(text.matchingRows(Array("cert".utf8)) == [1])
        #expect(text.matchingRows(Array("s256\"".utf8)) == [0])
        #expect(text.matchingRows(Array("\"es256\"alg".utf8)) == [])
        // A field's own bytes may hold the separator (raw JSON of a hostile input): it still ends nothing early.
        var raw = SearchText(fieldsPerRow: 2)
        raw.append(field: [0x61, SearchText.separator, 0x62])
        raw.append(field: Array("c".utf8))
        raw.append(field: Array("ab".utf8))
        raw.append(field: [])
        #expect(raw.rowCount == 2)
        #expect(raw.matchingRows(Array("b".utf8)) == [0, 1])
        #expect(raw.matchingRows(Array("ab".utf8)) == [1])
        #expect(raw.matchingRows(Array("c".utf8)) == [0])
        #expect(raw.matchingRows([0x62, SearchText.separator]) == [], "no query holds the separator")
    }

    /// The 1,000-token history: the index is made on the first search and kept; the hits are every
    /// token's hits (the tokens are the same), and in the body and the first and last token they
    /// are exactly what building those rows finds.
    @Test func aThousandTokenHistoryFindsEachTokensRows() throws {
        var (s, _) = try JWSHistoryOutlineTests.state()
        let outline = s.outline
        #expect(!outline.store.hasSearchIndex)
        JWSNavigationTests.search(&s, "es256")
        #expect(outline.store.hasSearchIndex)
        let hits = s.search.hits
        let first = outline.blocks[0], last = outline.blocks[outline.blocks.count - 1]
        let firstRows = first.start..<first.start + first.count, lastRows = last.start..<last.start + last.count
        let inFirst = hits.filter { firstRows.contains($0) }
        // Block 0 and the body's rows before it, rebuilt row by row.
        #expect(inFirst == Self.reference(outline, firstRows, "es256"))
        #expect(hits.filter { $0 < first.start } == Self.reference(outline, 0..<first.start, "es256"))
        #expect(!inFirst.isEmpty)
        // The tokens are the same: each token's hits are token 0's, at its own rows.
        #expect(hits.count == inFirst.count * JWSHistoryOutlineTests.count + hits.filter { $0 < first.start }.count)
        #expect(hits.filter { lastRows.contains($0) } == inFirst.map { $0 - first.start + last.start })
        // A second query reads the same index: only the tokens jumped to are built.
        JWSNavigationTests.search(&s, "2000000510000004")
        let perToken = Self.reference(outline, firstRows, "2000000510000004")
        #expect(!perToken.isEmpty)
        #expect(s.search.hits.filter { firstRows.contains($0) } == perToken)
        #expect(s.search.hits.count == perToken.count * JWSHistoryOutlineTests.count)
        #expect(outline.store.builtCount <= 2)
    }
}
