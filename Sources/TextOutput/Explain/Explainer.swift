import ByteText
import ASN1Lenient

/// One line of the teaching listing: what a group of bytes means.
public struct ExplanationLine: Sendable, Equatable {
    public enum Section: String, Sendable, CaseIterable {
        /// "SEQUENCE at offset 0 (depth 0, 5,159 bytes)".
        case heading
        /// What the element is in its module or in the receipt: "tbsCertificate", "issuer: CN=…".
        case name
        /// What that part is for, one sentence.
        case meaning
        /// The element's bytes in hex.
        case bytes
        /// One identifier octet, bit by bit.
        case identifier
        /// One or more length octets.
        case length
        /// What the content octets mean.
        case content
        /// The end-of-contents marker of an indefinite length.
        case endOfContents = "end-of-contents"
        /// A diagnostic about this element.
        case diagnostic
    }

    public var section: Section
    public var text: String
    /// The input bytes this line explains, when it is about specific bytes.
    public var range: Range<Int>?
    /// Set for `.diagnostic` lines.
    public var severity: Severity?

    public init(_ section: Section, _ text: String, range: Range<Int>? = nil, severity: Severity? = nil) {
        self.section = section
        self.text = text
        self.range = range
        self.severity = severity
    }
}

/// Produces the teaching listing for a node: its bytes, the identifier octets bit by bit, the
/// length octets, what the content means and the node's diagnostics. The `explain` command and the
/// terminal UI's explanation pane show these same lines. All text is terminal-safe.
public enum Explainer {
    /// Hex bytes shown in the `.bytes` line before "…".
    public static let maxShownBytes = 24

    /// The listing for node `index`, with the diagnostics (the tree's and `extra`) that concern it.
    public static func explain(_ tree: Tree, node index: Int, extra: [Diagnostic] = [], name: NodeName? = nil) -> [ExplanationLine] {
        let mine = tree.diagnostics.filter { $0.node == NodeIndex(index) } + extra.filter { $0.node == NodeIndex(index) }
        return explain(tree, node: index, diagnostics: mine, name: name)
    }

    /// The listing for node `index` with the given diagnostics (already selected for the node; see
    /// `DiagnosticIndex`), so explaining every node of a big file stays linear.
    public static func explain(_ tree: Tree, node index: Int, diagnostics: [Diagnostic], name: NodeName? = nil) -> [ExplanationLine] {
        let node = tree[index]
        var lines: [ExplanationLine] = []
        let total = NumberText.grouped(node.totalLength)
        let tag = tree.tagName(of: index)
        lines.append(ExplanationLine(.heading,
            "\(tag) at offset \(NumberText.grouped(Int(node.offset))) (depth \(node.depth), \(total) byte\(node.totalLength == 1 ? "" : "s"))",
            range: node.byteRange))
        if let name {
            // Terminal-safe as built (`NodeName`).
            lines.append(ExplanationLine(.name, name.text, range: node.byteRange))
            if let meaning = name.meaning { lines.append(ExplanationLine(.meaning, meaning)) }
        }
        lines.append(ExplanationLine(.bytes, bytesText(tree, node), range: node.byteRange))

        if node.kind == .unparsed {
            lines.append(ExplanationLine(.content,
                "\(ValueText.byteCount(Int(node.contentLength))) that cannot be read as identifier, length and content; the diagnostic below says why",
                range: node.contentRange))
        } else {
            lines += identifierLines(tree, node)
            lines += lengthLines(tree, index, node)
            lines += contentLines(tree, index, node)
            if node.eocLength > 0 {
                lines.append(ExplanationLine(.endOfContents,
                    "00 00 at offset \(NumberText.grouped(node.contentEnd)): the end-of-contents marker that closes this indefinite length",
                    range: node.eocRange))
            }
        }
        for d in diagnostics {
            lines.append(ExplanationLine(.diagnostic,
                "\(d.severity) \(TerminalSafe.escape(d.code.rawValue)) \(TreeDump.rangeText(d)): \(TerminalSafe.escape(d.message))",
                range: d.range, severity: d.severity))
        }
        return lines
    }

    /// The listing as text, one line per `ExplanationLine`, with the section name in a column:
    /// ```
    /// SEQUENCE at offset 0 (depth 0, 5,159 bytes)
    ///   bytes       30 82 14 23 06 09 …
    ///   identifier  0x30 = 0b00110000: class bits 00 → UNIVERSAL; …
    /// ```
    /// "SEQUENCE at 4 (tbsCertificate) > INTEGER at 13 (serialNumber)": the elements from a
    /// top-level one down to `node`, each with its name when `names` has one.
    public static func pathText(_ tree: Tree, to node: Int, names: NodeNames = .none, grouped: Bool = true) -> String {
        tree.path(to: node).map { n in
            let offset = Int(tree[n].offset)
            return "\(tree.tagName(of: n)) at \(grouped ? NumberText.grouped(offset) : String(offset))" + (names[n].map { " (\($0.name))" } ?? "")
        }.joined(separator: " > ")
    }

    public static func render(_ lines: [ExplanationLine]) -> String {
        var out = ""
        for line in lines {
            if line.section == .heading {
                out += line.text + "\n"
            } else {
                let label = line.section.rawValue
                out += "  " + label + String(repeating: " ", count: max(1, 17 - label.count)) + line.text + "\n"
            }
        }
        return out
    }

    // MARK: - Parts

    static func bytesText(_ tree: Tree, _ node: Node) -> String {
        let bytes = tree.bytes[node.byteRange]
        return ValueText.spacedHex(bytes, limit: maxShownBytes)
            + (bytes.count > maxShownBytes ? " (\(NumberText.grouped(bytes.count)) bytes)" : "")
    }

    static func binary(_ b: UInt8, bits: Int = 8) -> String {
        var s = String(b, radix: 2)
        if s.count < bits { s = String(repeating: "0", count: bits - s.count) + s }
        return s
    }

    static func hex(_ b: UInt8) -> String { "0x" + Hex.byte(b, .upper) }

    static func identifierLines(_ tree: Tree, _ node: Node) -> [ExplanationLine] {
        let start = Int(node.offset)
        let first = tree.bytes[start]
        let bits = binary(first)
        let classBits = String(bits.prefix(2))
        let constructed = first & 0x20 != 0
        let tagBits = String(bits.suffix(5))
        var text = "\(hex(first)) = 0b\(bits): class bits \(classBits) → \(node.tagClass.name); "
        text += "bit 6 = \(constructed ? 1 : 0) → \(constructed ? "constructed" : "primitive"); "
        var lines: [ExplanationLine] = []
        if first & 0x1F != 0x1F {
            let number = UInt32(first & 0x1F)
            text += "tag bits \(tagBits) = \(number) → \(tagMeaning(node.tagClass, number))"
            lines.append(ExplanationLine(.identifier, text, range: start..<(start + 1)))
            return lines
        }
        text += "tag bits 11111 → the tag number follows in long form (base 128, bit 8 = more octets follow)"
        lines.append(ExplanationLine(.identifier, text, range: start..<(start + 1)))
        var value: UInt64 = 0
        for i in (start + 1)..<(start + Int(node.identifierLength)) {
            let octet = tree.bytes[i]
            let more = octet & 0x80 != 0
            if value <= UInt64(UInt32.max) { value = (value << 7) | UInt64(octet & 0x7F) }
            var line = "\(hex(octet)) = 0b\(binary(octet)): bit 8 = \(more ? 1 : 0) → \(more ? "more octets follow" : "last octet"); "
            line += "7 bits \(binary(octet & 0x7F, bits: 7)) → tag number "
            if more {
                line += "so far \(value)"
            } else {
                line += value > UInt64(UInt32.max) ? "too large" : "\(value) → \(tagMeaning(node.tagClass, node.tagNumber))"
            }
            lines.append(ExplanationLine(.identifier, line, range: i..<(i + 1)))
        }
        return lines
    }

    static func tagMeaning(_ tagClass: TagClass, _ number: UInt32) -> String {
        switch tagClass {
        case .universal: return UniversalTag.name(number)
        case .contextSpecific: return "[\(number)] (context-specific: its meaning comes from the enclosing type)"
        case .application: return "[APPLICATION \(number)]"
        case .private: return "[PRIVATE \(number)]"
        }
    }

    static func lengthLines(_ tree: Tree, _ index: Int, _ node: Node) -> [ExplanationLine] {
        let range = node.lengthRange
        guard let firstIndex = range.first else { return [] }
        let first = tree.bytes[firstIndex]
        var lines: [ExplanationLine] = []
        let prefix = "\(hex(first)) = 0b\(binary(first)): "
        if first < 0x80 {
            lines.append(ExplanationLine(.length,
                prefix + "bit 8 = 0 → short form: \(first) content octet\(first == 1 ? "" : "s")",
                range: firstIndex..<(firstIndex + 1)))
            return lines
        }
        if first == 0x80 {
            let end = node.eocLength > 0
                ? "the end-of-contents marker 00 00 at offset \(NumberText.grouped(node.contentEnd))"
                : "an end-of-contents marker (00 00), which is missing"
            lines.append(ExplanationLine(.length,
                prefix + "indefinite form (BER only): the content runs to \(end)",
                range: firstIndex..<(firstIndex + 1)))
            return lines
        }
        let count = Int(first & 0x7F)
        lines.append(ExplanationLine(.length,
            prefix + "bit 8 = 1 → long form: the next \(count == 1 ? "octet holds" : "\(count) octets hold") the length",
            range: firstIndex..<(firstIndex + 1)))
        let octets = tree.bytes[(firstIndex + 1)..<range.upperBound]
        if !octets.isEmpty {
            var value: UInt64 = 0
            var overflow = false
            for o in octets {
                if value > UInt64.max >> 8 { overflow = true }
                value = (value << 8) | UInt64(o)
            }
            let shown = ValueText.spacedHex(octets, limit: 16)
            let claimed = overflow ? "a number too large to represent" : "\(NumberText.grouped(Int(clamping: value))) content octets"
            var text = "\(shown) → \(claimed)"
            if !overflow && value != UInt64(node.contentLength) && !node.isEncapsulated {
                text += " (only \(NumberText.grouped(Int(node.contentLength))) are present)"
            }
            lines.append(ExplanationLine(.length, text, range: (firstIndex + 1)..<range.upperBound))
        }
        return lines
    }

    static func contentLines(_ tree: Tree, _ index: Int, _ node: Node) -> [ExplanationLine] {
        let range = node.contentRange
        let size = NumberText.grouped(range.count)
        if node.isConstructed {
            let children = tree.childCount(of: index)
            let what = node.isUniversal(16) ? "the SEQUENCE's components, in order"
                : node.isUniversal(17) ? "the SET's members (DER sorts them by their encodings)"
                : node.tagClass == .universal ? "segments of a constructed (BER) string"
                : "the tagged value"
            return [ExplanationLine(.content,
                "\(size) octet\(range.count == 1 ? "" : "s") holding \(children) element\(children == 1 ? "" : "s"): \(what)",
                range: range)]
        }
        var lines: [ExplanationLine] = []
        let value = ValueText.summary(tree, index, limits: ValueText.Limits(characters: 64, hexBytes: 16))
        if node.tagClass != .universal {
            lines.append(ExplanationLine(.content,
                "\(size) octet\(range.count == 1 ? "" : "s") whose type is given by the enclosing definition (implicit tagging): \(value)",
                range: range))
            return lines
        }
        let children = tree.childCount(of: index)
        let encapsulates = "it encapsulates \(children) element\(children == 1 ? "" : "s") (shown as children)"
        var meaning: String
        switch tree.value(of: index) {
        case .boolean(let b)?: meaning = "BOOLEAN \(b ? "TRUE" : "FALSE") (DER: 0xFF is TRUE, 0x00 is FALSE)"
        case .integer?: meaning = "two's-complement big-endian integer: \(value)"
        case .bitString(let unused, let bits)?:
            meaning = "first octet = \(unused) unused bit\(unused == 1 ? "" : "s") in the last octet, then \(ValueText.byteCount(bits.count)) of bits"
            meaning += node.isEncapsulated ? " that are themselves DER/BER: \(encapsulates)" : ": " + ValueText.hex(bits[...], limit: 16)
        case .octets?:
            meaning = node.isEncapsulated ? "bytes that are themselves DER/BER: \(encapsulates)" : value
        case .null?: meaning = range.isEmpty ? "NULL has no content" : "NULL must have no content, yet has some: \(ValueText.bytesSummary(tree.content(of: index)))"
        case .objectIdentifier(let dotted, let name)?:
            meaning = "object identifier \(dotted)" + (name.map { " = \($0)" } ?? " (not in the name table)")
                + "; the first octet packs the first two arcs as 40 × X + Y, then each arc is base 128"
        case .string?: meaning = "text: \(value)"
        case .time?: meaning = "time: \(value)"
        case .invalid(let why)?: meaning = "cannot be decoded: \(TerminalSafe.escape(why))"
        case nil: meaning = value
        }
        lines.append(ExplanationLine(.content, "\(size) octet\(range.count == 1 ? "" : "s"): \(meaning)", range: range))
        return lines
    }
}
