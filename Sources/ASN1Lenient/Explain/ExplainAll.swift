extension Explainer {
    /// How many elements `explain` without `--offset` takes apart before it stops: each one is
    /// 5-10 lines, so a 7 MB receipt payload (1.8 M elements) would otherwise print ~1 GB of text.
    public static let defaultElementCap = 1_000

    /// Every element's explanation in file order, at most `cap` of them (nil: no cap), then — when
    /// some were left out — one line saying how many, from which offset, and how many diagnostics
    /// they carry; then the diagnostics that concern no element. Streams: one element at a time.
    public static func writeAll(_ tree: Tree, cap: Int?, to out: OutputWriter) {
        let index = DiagnosticIndex(tree)
        let shown = min(tree.count, max(0, cap ?? Int.max))
        for node in 0..<shown {
            if node > 0 { out.write("\n") }
            out.write(render(explain(tree, node: node, diagnostics: index.diagnostics(for: node))))
        }
        if shown < tree.count {
            let leftOut = tree.count - shown
            var diagnostics = 0
            for (node, list) in index.byNode where node >= shown { diagnostics += list.count }
            if shown > 0 { out.write("\n") }
            out.write(omittedLine(leftOut: leftOut, fromOffset: Int(tree[shown].offset), diagnostics: diagnostics, cap: shown))
        }
        if !index.unattached.isEmpty { out.write("\n") }
        for d in index.unattached {
            out.write("\(d.severity) \(TerminalSafe.escape(d.code.rawValue)) \(TreeDump.rangeText(d)): \(TerminalSafe.escape(d.message))\n")
        }
    }

    /// "# 1,799,079 more elements from offset 4,821 on are not explained (3 diagnostics among
    /// them; `dump` lists them): the first 1,000 are; use --offset N for one element, --max-elements 0 for all"
    static func omittedLine(leftOut: Int, fromOffset: Int, diagnostics: Int, cap: Int) -> String {
        let elements = leftOut == 1 ? "1 more element" : "\(NumberText.grouped(leftOut)) more elements"
        let notes = diagnostics == 0 ? "" : " (\(NumberText.grouped(diagnostics)) diagnostic\(diagnostics == 1 ? "" : "s") among them; `dump` lists them)"
        return "# \(elements) from offset \(NumberText.grouped(fromOffset)) on \(leftOut == 1 ? "is" : "are") not explained\(notes): "
            + "the first \(NumberText.grouped(cap)) \(cap == 1 ? "is" : "are"); use --offset N for one element, --max-elements 0 for all\n"
    }
}
