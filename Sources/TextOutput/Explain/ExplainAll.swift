import ByteText
import ASN1Lenient
extension Explainer {
    /// How many elements `explain` without `--offset` takes apart before it stops: each one is
    /// 5-10 lines (≈ 380 bytes), so a 5 MB receipt payload (1.3 M elements) would otherwise print
    /// ≈ 490 MB of text; 10,000 elements are ≈ 4 MB.
    public static let defaultElementCap = 10_000

    /// Every element's explanation in file order, at most `cap` of them (nil: no cap), then — when
    /// some were left out — one line saying how many and from which offset; then, one line each,
    /// the findings of the elements left out (never dropped with their explanations) and those
    /// that concern no element. Streams: one element at a time.
    public static func writeAll(_ tree: Tree, cap: Int?, names: NodeNames = .none, to out: OutputWriter) {
        let index = DiagnosticIndex(tree)
        let shown = min(tree.count, max(0, cap ?? Int.max))
        for node in 0..<shown {
            if node > 0 { out.write("\n") }
            out.write(render(explain(tree, node: node, diagnostics: index.diagnostics(for: node), name: names[node])))
        }
        var listed: [Diagnostic] = []
        if shown < tree.count {
            listed = index.all.filter { d in d.node.map { $0.index >= shown && $0.index < tree.count } ?? false }
            if shown > 0 { out.write("\n") }
            out.write(omittedLine(leftOut: tree.count - shown, fromOffset: Int(tree[shown].offset),
                                  diagnostics: listed.count, cap: shown))
        }
        listed += index.unattached
        if !listed.isEmpty { out.write("\n") }
        for d in listed {
            out.write("\(d.severity) \(TerminalSafe.escape(d.code.rawValue)) \(TreeDump.rangeText(d)): \(TerminalSafe.escape(d.message))\n")
        }
    }

    /// "# 1,268,079 more elements from offset 4,821 on are not explained (3 diagnostics among
    /// them, listed below): the first 10,000 are; use --offset N for one element, --max-elements 0 for all"
    static func omittedLine(leftOut: Int, fromOffset: Int, diagnostics: Int, cap: Int) -> String {
        let elements = leftOut == 1 ? "1 more element" : "\(NumberText.grouped(leftOut)) more elements"
        let notes = diagnostics == 0 ? "" : " (\(NumberText.grouped(diagnostics)) diagnostic\(diagnostics == 1 ? "" : "s") among them, listed below)"
        return "# \(elements) from offset \(NumberText.grouped(fromOffset)) on \(leftOut == 1 ? "is" : "are") not explained\(notes): "
            + "the first \(NumberText.grouped(cap)) \(cap == 1 ? "is" : "are"); use --offset N for one element, --max-elements 0 for all\n"
    }
}
