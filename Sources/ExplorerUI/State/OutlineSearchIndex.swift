import ASN1Lenient
import DocumentModel

/// Every row's search text, built on the first search and kept (`OutlineStore`): the rows outside
/// token headers in one `SearchText` in row order, each distinct header's rows (its x5c
/// certificates' ASN.1 included) once, and the runs that put them back in row order. A
/// 1,000-transaction history carries the same header in each token: about 240 of a token's 270
/// rows, made once instead of a thousand times.
struct OutlineSearchIndex: Sendable {
    enum Run: Sendable {
        /// Rows `range` of `text`.
        case own(Range<Int>)
        /// The rows of header text `headers[text]`, starting at outline row `firstRow`.
        case header(text: Int, firstRow: Int)
    }

    let text: SearchText
    /// The outline row of each row of `text`.
    let rowOfText: [Int]
    let headers: [SearchText]
    let runs: [Run]

    init(_ outline: LayerOutline) {
        let context = outline.context
        let document = context.document
        var text = SearchText(), rowOfText: [Int] = [], runs: [Run] = []
        var headers: [SearchText] = [], headerText: [[UInt8]: Int] = [:]
        var lastHeader: (bytes: [UInt8], text: Int)?
        func add(_ row: OutlineRow, at index: Int) {
            text.append(row, at: index, in: document)
            rowOfText.append(index)
            if case .own(let range)? = runs.last {
                runs[runs.count - 1] = .own(range.lowerBound..<rowOfText.count)
            } else {
                runs.append(.own(rowOfText.count - 1..<rowOfText.count))
            }
        }
        func addHeader(of token: Int, at firstRow: Int) {
            guard let layer = context.model.tokens[token].layers.header else { return }
            let bytes = document.layer(layer).bytes
            // The previous token's header first: equal arrays that share storage compare in O(1),
            // where hashing reads every byte of every token's header.
            if let last = lastHeader, last.bytes == bytes {
                runs.append(.header(text: last.text, firstRow: firstRow))
                return
            }
            let known = headerText[bytes] ?? {
                // Built on its own from row 0: row positions (and so which rows are leaves) are relative.
                var builder = OutlineBuilder(context: context, base: 0, lazyTopLevel: false)
                if let tree = document.layer(layer).json {
                    builder.json(tree, layer: layer, index: 0, depth: 0, label: "header", holder: token)
                }
                var rows = SearchText()
                for (row, index) in zip(builder.rows, builder.positions) { rows.append(row, at: index, in: document) }
                headers.append(rows)
                headerText[bytes] = headers.count - 1
                return headers.count - 1
            }()
            lastHeader = (bytes, known)
            runs.append(.header(text: known, firstRow: firstRow))
        }
        // In row order: the eager rows before each token block, then the block's rows (its head
        // row included) with its tokens' headers where they fall between them.
        var eagerRows = outline.eager.keys.sorted()[...]
        for (b, block) in outline.blocks.enumerated() {
            while let first = eagerRows.first, first < block.start {
                add(outline.eager[first]!, at: first)
                eagerRows = eagerRows.dropFirst()
            }
            var builder = outline.builder(for: b)
            builder.headerRuns = []
            builder.token(block.token, depth: block.depth, label: block.label)
            var headersLeft = (builder.headerRuns ?? [])[...]
            for (row, index) in zip(builder.rows, builder.positions) {
                while let run = headersLeft.first, run.row < index { addHeader(of: run.token, at: run.row); headersLeft = headersLeft.dropFirst() }
                add(row, at: index)
            }
            for run in headersLeft { addHeader(of: run.token, at: run.row) }
            while let first = eagerRows.first, first < block.start + block.count { eagerRows = eagerRows.dropFirst() }
        }
        for first in eagerRows { add(outline.eager[first]!, at: first) }
        self.text = text
        self.rowOfText = rowOfText
        self.headers = headers
        self.runs = runs
    }

    /// The outline rows matching `needle` (lower case), ascending.
    func rows(matching needle: [UInt8]) -> [Int] {
        let own = text.matchingRows(needle)
        let inHeaders = headers.map { $0.matchingRows(needle) }
        var hits: [Int] = []
        var next = 0
        for run in runs {
            switch run {
            case .own(let range):
                while next < own.count, own[next] < range.upperBound { hits.append(rowOfText[own[next]]); next += 1 }
            case .header(let index, let firstRow):
                for row in inHeaders[index] { hits.append(firstRow + row) }
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
        append(label: row.label, value: row.value, meaning: row.meaning, raw: row.raw, leaf: isLeaf ? layer.bytes[row.range] : [])
    }
}
