import ASN1Lenient
import DocumentCore

/// Every row's search text, built on the first search and kept (`OutlineStore`): the rows outside
/// shared layers in one `SearchText` in row order, each distinct shared layer's rows (a token's
/// header, its x5c certificates' ASN.1 included) once, and the runs that put them back in row
/// order. A 1,000-transaction history carries the same header in each token: about 240 of a
/// token's 270 rows, made once instead of a thousand times.
struct OutlineSearchIndex: Sendable {
    enum Run: Sendable {
        /// Rows `range` of `text`: outline rows from `firstRow` on, one for one.
        case own(Range<Int>, firstRow: Int)
        /// The rows of shared text `headers[text]`, starting at outline row `firstRow`.
        case header(text: Int, firstRow: Int)
        /// A top ASN.1 layer's rows (a certificate's, other DER's: up to millions), searched as the
        /// tree is (`TreeSearchIndex`: tag names, values, OIDs, decimals) without a text per row.
        case tree(index: Int, firstRow: Int)
    }

    let text: SearchText
    let headers: [SearchText]
    let trees: [(tree: Tree, index: TreeSearchIndex)]
    let runs: [Run]

    init(_ outline: LayerOutline, fileEntries: SearchEntries = SearchEntries()) {
        let context = outline.context
        let document = context.document
        var text = SearchText(), runs: [Run] = []
        var headers: [SearchText] = [], headerText: [[UInt8]: Int] = [:]
        var trees: [(tree: Tree, index: TreeSearchIndex)] = []
        var lastHeader: (bytes: [UInt8], text: Int)?
        // A run of the text's rows maps onto consecutive outline rows, so no row number is kept per row.
        func add(_ row: OutlineRow, at index: Int) {
            text.append(row, at: index, in: document)
            let textRow = text.rowCount - 1
            if case .own(let range, let first)? = runs.last, first + range.count == index {
                runs[runs.count - 1] = .own(range.lowerBound..<textRow + 1, firstRow: first)
            } else {
                runs.append(.own(textRow..<textRow + 1, firstRow: index))
            }
        }
        func addShared(_ layer: LayerID, at firstRow: Int) {
            let bytes = document.layer(layer).bytes.array  // a header layer owns its array: no copy
            // The previous token's header first: equal arrays that share storage compare in O(1),
            // where hashing reads every byte of every token's header.
            if let last = lastHeader, last.bytes == bytes {
                runs.append(.header(text: last.text, firstRow: firstRow))
                return
            }
            let known = headerText[bytes] ?? {
                // Built on its own from row 0: row positions (and so which rows are leaves) are relative.
                var builder = OutlineBuilder(context: context, base: 0, lazy: false)
                builder.layer(layer, depth: 0)
                var rows = SearchText()
                Self.forEachRow(of: builder.rowSet, in: outline) { index, row in rows.append(row, at: index, in: document) }
                headers.append(rows)
                headerText[bytes] = headers.count - 1
                return headers.count - 1
            }()
            lastHeader = (bytes, known)
            runs.append(.header(text: known, firstRow: firstRow))
        }
        // In row order: the eager rows before each block, then the block's rows (its head row
        // included) with its shared layers where they fall between them.
        var row = 0
        var blockIndex = 0
        while row < outline.count {
            if blockIndex < outline.blocks.count, outline.blocks[blockIndex].start == row {
                var builder = outline.builder(for: blockIndex)
                builder.sharedRuns = []
                builder.layer(outline.blocks[blockIndex].layer, depth: outline.blocks[blockIndex].depth)
                var sharedLeft = (builder.sharedRuns ?? [])[...]
                Self.forEachRow(of: builder.rowSet, in: outline) { index, row in
                    while let run = sharedLeft.first, run.row < index { addShared(run.layer, at: run.row); sharedLeft = sharedLeft.dropFirst() }
                    add(row, at: index)
                }
                for run in sharedLeft { addShared(run.layer, at: run.row) }
                row += outline.blocks[blockIndex].count
                blockIndex += 1
            } else if let run = outline.eager.run(holding: row), run.first == row, run.count > 1,
                      let tree = document.layer(run.layer).tree {
                trees.append((tree, TreeSearchIndex(tree: tree, entries: run.layer == .file ? fileEntries : SearchEntries())))
                runs.append(.tree(index: trees.count - 1, firstRow: run.first))
                row += run.count
            } else {
                add(outline.row(row), at: row)
                row += 1
            }
        }
        self.text = text
        self.headers = headers
        self.trees = trees
        self.runs = runs
    }

    /// Every row of `set` in row order (built rows, ASN.1 runs' and JSON runs' rows merged).
    static func forEachRow(of set: RowSet, in outline: LayerOutline, _ body: (Int, OutlineRow) -> Void) {
        enum Source { case built(Int), tree(TreeRun), json(run: Int, firstRow: Int) }
        // Spans of consecutive rows from one source: a JSON run's rows are cut by its gaps.
        var spans: [(first: Int, count: Int, source: Source)] = []
        for (i, position) in set.positions.enumerated() { spans.append((position, 1, .built(i))) }
        for run in set.runs { spans.append((run.first, run.count, .tree(run))) }
        for (j, run) in set.jsonRuns.enumerated() {
            var k = 0
            for gap in run.gaps + [JSONRun.Gap(after: run.nodes.count - 1, before: 0, count: 0)] where gap.after >= k {
                spans.append((run.rowIndex(k), gap.after + 1 - k, .json(run: j, firstRow: k)))
                k = gap.after + 1
            }
        }
        spans.sort { $0.first < $1.first }
        for span in spans {
            for index in span.first..<span.first + span.count {
                switch span.source {
                case .built(let i): body(index, set.rows[i])
                case .tree(let run): body(index, outline.treeRow(run, index))
                case .json(let j, let k): body(index, set.jsonRuns[j].row(k + index - span.first, in: outline.context))
                }
            }
        }
    }

    /// The outline rows matching `needle` (lower case), ascending.
    func rows(matching needle: [UInt8]) -> [Int] {
        let own = text.matchingRows(needle)
        let inHeaders = headers.map { $0.matchingRows(needle) }
        var hits: [Int] = []
        var next = 0
        for run in runs {
            switch run {
            case .own(let range, let firstRow):
                while next < own.count, own[next] < range.upperBound { hits.append(firstRow + own[next] - range.lowerBound); next += 1 }
            case .header(let index, let firstRow):
                for row in inHeaders[index] { hits.append(firstRow + row) }
            case .tree(let index, let firstRow):
                for node in Search.nodes(matching: needle, in: trees[index].tree, index: trees[index].index) { hits.append(firstRow + node) }
            }
        }
        return hits
    }
}

extension SearchText {
    /// Row `index` of the outline: its four texts, and a JSON leaf's own text in its layer (key
    /// and whole value; a container's children match on their own).
    mutating func append(_ row: OutlineRow, at index: Int, in document: Document) {
        let layer = document.layer(row.node.layer)
        let isLeaf = row.subtreeEnd == index + 1 && layer.json != nil && row.range.upperBound <= layer.bytes.count
        append(label: row.label, value: row.value, meaning: row.meaning, raw: row.raw, leaf: isLeaf ? layer.bytes.baseSlice(row.range) : [])
    }
}
