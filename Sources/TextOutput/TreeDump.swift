import ByteText
import TextLoader
import ASN1Lenient

/// `dump` (default format): an indented tree, one line per element, each diagnostic under the
/// element it concerns.
///
/// ```
/// # b.der: raw DER/BER, 15 bytes
/// offset  hl  length  element
///      0   2     inf  SEQUENCE
///                       der indefinite-length byte 1: indefinite length (0x80): the content ends at an end-of-contents marker
///      2   2       3    OCTET STRING (3 bytes), encapsulates:
///      4   2       1      INTEGER 7
///      7   2       1    BOOLEAN TRUE
///                         der boolean-value byte 9: BOOLEAN TRUE encoded as 0x01; DER requires 0xFF
///     10   2       0    EOC
///     12   2       1  NULL
///                       error null-content byte 14: NULL has 1 content octet(s); it must have none
/// warning trailing-data bytes 12-14: 3 byte(s) follow the top-level element, which ends at offset 12
/// # 5 elements; 1 error, 2 der, 1 warning, 0 info
/// ```
///
/// Columns: offset of the identifier octet, header length (identifier + length octets), content
/// length (`inf` for an indefinite length), then the tag indented two spaces per depth and the
/// decoded value (`ValueText`), then ` · ` and the node's name when `Options.names` has one
/// (`SEQUENCE · tbsCertificate`, `SEQUENCE · attribute 12 · receipt creation date`). Strings are
/// quoted and escaped; long values are cut with "…".
public enum TreeDump {
    public struct Options: Sendable {
        public var color: Bool
        public var limits: ValueText.Limits
        /// Print the "# name: note" line, the column header and the summary line.
        public var decorations: Bool
        /// What each node is in its module (RFC 5280 / 5652) or in the receipt, printed after the
        /// value as ` · name: detail`.
        public var names: NodeNames

        public init(color: Bool = false, limits: ValueText.Limits = .standard, decorations: Bool = true,
                    names: NodeNames = .none) {
            self.color = color
            self.limits = limits
            self.decorations = decorations
            self.names = names
        }
    }

    /// Writes the tree with each of its diagnostics (the parser's, and any a later layer merged in
    /// with `Tree.append`) under the node it concerns.
    public static func write(_ tree: Tree, input: LoadedInput? = nil,
                             options: Options = Options(), to out: OutputWriter) {
        let paint = Painter(enabled: options.color)
        let grouped = DiagnosticIndex(tree)
        let offsetWidth = max(6, String(max(tree.bytes.count, 1)).count)
        let lengthWidth = max(6, String(max(tree.bytes.count, 1)).count)
        let gutter = offsetWidth + 2 + 2 + 2 + lengthWidth + 2
        out.flush()
        var writer = LineWriter(tree: tree, out: out, options: options,
                                offsetWidth: offsetWidth, lengthWidth: lengthWidth)
        defer { writer.buf.deallocate() }

        if options.decorations {
            if let input {
                writer.buf.append(paint.paint("# \(TerminalSafe.escape(input.name)): \(input.note)", .dim) + "\n")
            }
            let header = pad("offset", offsetWidth) + "  hl  " + pad("length", lengthWidth) + "  element"
            writer.buf.append(paint.paint(header, .dim) + "\n")
        }

        func diagnosticLines(_ list: [Diagnostic], indent: Int) {
            for d in list {
                var text = String(repeating: " ", count: indent)
                text += paint.paint(d.severity.description, ANSIStyle.of(d.severity)) + " "
                text += paint.paint(TerminalSafe.escape(d.code.rawValue), .bold)
                text += " \(rangeText(d)): \(TerminalSafe.escape(d.message))\n"
                writer.buf.append(text)
                writer.buf.drain(to: out)
            }
        }

        // Nodes with diagnostics in ascending order, walked with a cursor (no lookup per node).
        let noted = grouped.byNode.keys.sorted()
        var nextNoted = 0
        tree.bytes.withUnsafeBufferPointer { bytes in
            tree.nodes.withUnsafeBufferPointer { nodes in
                // Indefinite-length nodes whose EOC line is still to come.
                var pending: [(end: Int, offset: Int, depth: Int)] = []
                for index in 0..<nodes.count {
                    while let top = pending.last, top.end <= index {
                        writer.eocLine(offset: top.offset, depth: top.depth)
                        pending.removeLast()
                    }
                    let node = nodes[index]
                    writer.line(bytes, node, index)
                    writer.buf.drain(to: out)
                    if nextNoted < noted.count && noted[nextNoted] == index {
                        nextNoted += 1
                        diagnosticLines(grouped.byNode[index]!, indent: gutter + 2 * (Int(node.depth) + 1))
                    }
                    if node.eocLength > 0 {
                        pending.append((Int(node.subtreeEnd), node.contentEnd, Int(node.depth) + 1))
                    }
                }
                while let top = pending.popLast() { writer.eocLine(offset: top.offset, depth: top.depth) }
            }
        }
        diagnosticLines(grouped.unattached, indent: 0)

        if options.decorations {
            var counts = [Int](repeating: 0, count: Severity.allCases.count)
            for d in grouped.all { counts[d.severity.rawValue] += 1 }
            func count(_ n: Int, _ word: String, plural: String? = nil) -> String {
                "\(NumberText.grouped(n)) \(n == 1 ? word : (plural ?? word + "s"))"
            }
            let summary = "# " + count(tree.count, "element") + "; " + count(counts[0], "error") + ", "
                + count(counts[1], "der", plural: "der") + ", " + count(counts[2], "warning") + ", "
                + count(counts[3], "info", plural: "info")
            writer.buf.append(paint.paint(summary, .dim) + "\n")
        }
        writer.buf.drain(to: out, force: true)
    }

    public static func render(_ tree: Tree, input: LoadedInput? = nil,
                              options: Options = Options()) -> String {
        let out = OutputWriter(.memory)
        write(tree, input: input, options: options, to: out)
        return out.text
    }

    /// "bytes 60-61", "byte 60", "at 60" (empty range).
    public static func rangeText(_ d: Diagnostic) -> String {
        RangeText.text(d.offset..<(d.offset + max(0, d.length)))
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

/// Diagnostics grouped by the node they concern, in the order they were reported: one pass, so
/// every output stays linear however many diagnostics a file has.
public struct DiagnosticIndex: Sendable {
    public var all: [Diagnostic]
    public var byNode: [Int: [Diagnostic]] = [:]
    /// Diagnostics with no node (or a node index outside the tree), printed after the tree.
    public var unattached: [Diagnostic] = []

    public init(_ tree: Tree) {
        self.init(tree.diagnostics, nodeCount: tree.count)
    }

    /// A diagnostic whose node index is not below `nodeCount` is treated as unattached.
    public init(_ diagnostics: [Diagnostic], nodeCount: Int) {
        all = diagnostics
        for d in diagnostics {
            if let node = d.node?.index, node >= 0, node < nodeCount { byNode[node, default: []].append(d) } else { unattached.append(d) }
        }
    }

    public func diagnostics(for node: Int) -> [Diagnostic] { byNode[node] ?? [] }
}
