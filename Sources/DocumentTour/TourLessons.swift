import ASN1Lenient
import ByteText
import TextOutput
import DocumentCore

/// Builds tour steps from a tree node: the `explain` lines for the focused bytes plus what the
/// element means here, so that the tour and `explain` never say different things.
package struct TourLessons {
    package let tree: Tree
    let layer: LayerID

    /// `withheld`: the `explain` sections left out because the self-check asks what they say.
    package func step(_ node: Int, _ focus: TourFocus, _ title: String, _ meaning: [String], check: SelfCheck? = nil,
              withheld: Set<ExplanationLine.Section> = []) -> TourStep {
        let n = tree.nodes[node]
        let range: Range<Int>
        let sections: [ExplanationLine.Section]
        switch focus {
        case .identifier: range = n.identifierRange; sections = [.identifier]
        case .length: range = n.lengthRange; sections = [.length]
        case .content: range = n.contentRange; sections = [.content]
        case .whole: range = n.byteRange; sections = [.identifier, .length, .content]
        }
        let lines = Explainer.explain(tree, node: node)
        var lesson = lines.filter { $0.section == .heading || $0.section == .bytes }.map(\.text)
        lesson += lines.filter { (sections.contains($0.section) && !withheld.contains($0.section)) || $0.section == .diagnostic }
            .map { "\($0.section.rawValue): \($0.text)" }
        lesson += meaning
        return TourStep(node: NodeID(layer, node), focus: focus, range: range, title: title, lesson: lesson, check: check)
    }

    /// The content octets of an OBJECT IDENTIFIER, one subidentifier (VLQ: 7 bits per octet, bit 8
    /// set on all but the last octet) per line; the arc at `hiding` (a self-check asks how it is
    /// written) shows only its value.
    package func oidArcs(_ node: Int, hiding: Int? = nil) -> [String] {
        var lines: [String] = []
        var group: [UInt8] = []
        var first = true
        for octet in tree.content(of: node) {
            group.append(octet)
            guard octet & 0x80 == 0 else { continue }
            var value: UInt64 = 0
            for g in group where value <= UInt64.max >> 7 { value = (value << 7) | UInt64(g & 0x7F) }
            let hex = Hex.string(group, .upper, separator: " ")
            let sevens = group.map { g -> String in
                let bits = String(g & 0x7F, radix: 2)
                return String(repeating: "0", count: 7 - bits.count) + bits
            }.joined(separator: " ")
            if lines.count == hiding {
                lines.append("arc: \(value) (how is it written? the self-check below asks)")
                first = false
                group = []
                continue
            }
            let how = group.count == 1 ? "one octet, bit 8 clear" : "\(group.count) octets, bit 8 set on all but the last; 7-bit groups \(sevens)"
            if first {
                let x: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
                lines.append("arc: \(hex) (\(how)) = \(value) = 40 × \(x) + \(value - 40 * x) → arcs \(x).\(value - 40 * x)")
                first = false
            } else {
                lines.append("arc: \(hex) (\(how)) = \(value)")
            }
            group = []
        }
        return lines
    }

    /// Whether a SET's members are in DER order (each encoding sorts at or before the next).
    package func setOrder(_ node: Int) -> String {
        // Walked in place: a SET of millions of members made an array of them (issue 32).
        let count = tree.childCount(of: node)
        guard count > 1 else { return "order: a SET of \(count) member\(count == 1 ? "" : "s") is trivially in DER order" }
        let members = tree.children(of: node)
        for (a, b) in zip(members, members.dropFirst())
        where tree.bytes[tree.nodes[b].byteRange].lexicographicallyPrecedes(tree.bytes[tree.nodes[a].byteRange]) {
            return "order: member at offset \(NumberText.grouped(Int(tree.nodes[b].offset))) sorts before the one at \(NumberText.grouped(Int(tree.nodes[a].offset))): not in DER order (BER allows any order; DER sorts a SET OF by the members' encodings)"
        }
        return "order: its members are sorted by their encodings, as DER requires for a SET OF (a DER writer sorts; a BER writer need not)"
    }

    /// The first node, in file order, whose length is in long form (not indefinite).
    package var firstLongForm: Int? {
        tree.nodes.indices.first { i in
            let n = tree.nodes[i]
            return n.kind == .tlv && n.lengthLength > 1
        }
    }
    package init(tree: Tree, layer: LayerID) {
        self.tree = tree
        self.layer = layer
    }
}

