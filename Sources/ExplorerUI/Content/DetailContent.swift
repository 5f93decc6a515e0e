import ASN1Lenient
import TextOutput

/// One line of a text pane with its style.
public struct StyledLine: Equatable, Sendable {
    public var text: String
    public var style: StyleClass
    public init(_ text: String, _ style: StyleClass = .plain) {
        self.text = text
        self.style = style
    }
}

/// The detail pane's text: the very lines `explain` prints (from `Explainer`), then the receipt meaning
/// (field, purpose, decoded value, dates raw and parsed), then diagnostics the parser's explanation
/// does not already list (receipt findings, diagnostics without a node).
public enum DetailContent {
    public static func lines(_ state: AppState, width: Int) -> [StyledLine] {
        // A row of a DER file reads as the node it is (the same lines `explain` prints).
        if let row = state.outlineRow, row.node.layer == .file, state.layered.document.fileLayer.tree != nil {
            return nodeLines(state, index: row.node.index, width: width)
        }
        return TourOverlay.lines(state, width: width) + OutlineDetail.lines(state, width: width)
    }

    /// Node `index` of the file tree: the `explain` lines, the receipt meaning, the diagnostics.
    static func nodeLines(_ state: AppState, index: Int, width: Int) -> [StyledLine] {
        var out: [StyledLine] = []
        let glyphs = Glyphs.forState(state)
        // Diagnostics that belong to this node by offset (no node of their own): pass them in so
        // Explainer lists them with the others.
        let own = state.facts.diagnosticsByNode[index] ?? []
        var extra: [Diagnostic] = []
        for d in own where state.tree.diagnostics[d].node != NodeIndex(index) {
            var copy = state.tree.diagnostics[d]
            copy.node = NodeIndex(index)
            extra.append(copy)
        }
        // The module's name of the node (RFC 5280 / 5652), the very lines `explain` prints; a receipt
        // field's name comes with its meaning below.
        let structureName = state.names.structureName(index)
        let explanation = state.cache.explanation(for: index) { Explainer.explain(state.tree, node: index, extra: extra, name: structureName) }
        out += TourOverlay.lines(state, width: width)
        out.append(StyledLine("node \(index)" + glyphs.separator + "path " + state.pathText(index, ascii: state.preferences.ascii), .dim))
        // Most important first: the heading, the node's diagnostics, the receipt meaning; then the
        // byte-by-byte explanation. Every line is one of the lines `explain` prints.
        func add(_ line: ExplanationLine) {
            let style: StyleClass
            switch line.section {
            case .heading: style = .title
            case .diagnostic:
                style = line.severity == .error ? .fail : (line.severity == .notDER || line.severity == .warning) ? .markerNotDER : .plain
            default: style = .plain
            }
            let text: String
            if line.section == .heading {
                text = line.text
            } else {
                let label = line.section.rawValue
                text = label + String(repeating: " ", count: max(1, 17 - label.count)) + line.text
            }
            out.append(contentsOf: wrap(UIText.display(text, ascii: state.preferences.ascii), width: width, style: style, indent: line.section == .heading ? 0 : 17))
        }
        for line in explanation where line.section == .heading { add(line) }
        for line in explanation where line.section == .diagnostic { add(line) }
        if structureName == nil, let additions = state.additions, let meaning = additions.meaning(of: index) {
            var fields: [(String, String)] = []
            if let name = meaning.fieldName { fields.append((additions.fieldLabel, name)) }
            if let value = meaning.decodedValue { fields.append(("decoded value", value)) }
            if let raw = meaning.rawDate { fields.append(("date as written", raw)) }
            if let parsed = meaning.parsedDate { fields.append(("date (UTC)", parsed)) }
            if let purpose = meaning.purpose { fields.append(("what it is for", purpose)) }
            if fields.isEmpty { fields.append((additions.partLabel, meaning.label)) }
            for (label, value) in fields {
                let text = label + String(repeating: " ", count: max(1, 17 - label.count)) + value
                out.append(contentsOf: wrap(UIText.display(text, ascii: state.preferences.ascii), width: width, style: .meaning, indent: 17))
            }
            for note in meaning.notes {
                out.append(contentsOf: wrap(UIText.display(note, ascii: state.preferences.ascii), width: width, style: .plain, indent: 2))
            }
        }
        for line in explanation where line.section != .heading && line.section != .diagnostic { add(line) }
        return out
    }

    /// Word-wraps to `width` columns; continuation lines are indented by `indent`.
    static func wrap(_ text: String, width: Int, style: StyleClass, indent: Int) -> [StyledLine] {
        guard width > 0 else { return [] }
        let scalars = Array(text.unicodeScalars)
        if scalars.count <= width { return [StyledLine(text, style)] }
        // Continuation lines always keep at least one column of text (a 1-column pane must not
        // trap, a 2-column one must not loop).
        let pad = indent < width / 2 ? indent : min(2, width - 1)
        var lines: [StyledLine] = []
        var start = 0
        var first = true
        while start < scalars.count {
            let room = first ? width : width - pad
            var end = min(scalars.count, start + room)
            if end < scalars.count {
                // Break at the last space in the second half of the line, if any.
                var k = end
                while k > start + room / 2 && scalars[k - 1] != " " { k -= 1 }
                if k > start + room / 2 { end = k }
            }
            var line = String.UnicodeScalarView()
            if !first { line.append(contentsOf: String(repeating: " ", count: pad).unicodeScalars) }
            line.append(contentsOf: scalars[start..<end])
            lines.append(StyledLine(String(line), style))
            start = end
            while start < scalars.count && scalars[start] == " " && end < scalars.count { start += 1 }
            first = false
        }
        return lines
    }
}
