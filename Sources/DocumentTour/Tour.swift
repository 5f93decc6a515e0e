import ASN1Lenient
import ReceiptKit
import ByteText
import TextOutput
import DocumentCore

/// The tour's hook: a format whose kinds have their own route conforms in its folder; the others
/// get the generic ASN.1 route.
public protocol TourRoute {
    /// The tour's stops through a document of this format's kinds; nil for the generic ASN.1 route.
    func tourSteps(_ document: Document) -> [TourStep]?
}

/// A guided walk through an opened document, computed from the document (never fixed offsets):
/// a receipt gets the PKCS#7 → payload → attribute → signature → device hash route, a StoreKit 2
/// JWS the token → JSON → data → nested token → x5c → signedDate → signature route, a certificate
/// the RFC 5280 route, anything else a walk of its ASN.1 structure. Every stop's text comes from
/// `page(_:fileRange:)`, which both `tour --print` and the explorer's tour pane show.
public struct Tour: Sendable, Equatable {
    public var steps: [TourStep]

    public init(steps: [TourStep]) { self.steps = steps }

    public init(document: Document) {
        // The kind's format knows its route (`TourRoute`); any other input gets the generic ASN.1 route.
        steps = (document.format as? any TourRoute)?.tourSteps(document) ?? GenericRoute(tree: document.fileTree).steps()
    }

    /// The sentence that replaces the in-app purchase step when a receipt has none.
    public static let noPurchases = "This receipt holds no in-app purchase (no attribute 17), so the tour skips that stop."

    /// The text of stop `index` as the learner sees it before answering: its title, where its
    /// bytes are, the lesson and the self-check's question. The one source of a stop's words.
    public func page(_ index: Int, fileRange r: Range<Int>) -> [String] {
        let step = steps[index]
        var lines = ["Step \(index + 1)/\(steps.count): \(step.title)",
                     "\(step.node): \(RangeText.text(r)) (\(step.focus.phrase)"
                        + (step.node.layer == .file ? ")" : ", in file offsets)")]
        lines += step.lesson
        if let check = step.check { lines.append(check.line) }
        return lines
    }

    /// The answer key printed after a stop's question: the right key, then why each choice is
    /// right or wrong (the explorer shows the one the learner picks).
    public static func answerKey(_ check: SelfCheck) -> [String] {
        ["answer: [\(check.answer)]"] + check.choices.compactMap { choice in check.reply(to: choice.key).map { "[\(choice.key)] \($0.text)" } }
    }

    /// The lessons as plain text: `tour --print`.
    public func text(fileRange: (TourStep) -> Range<Int>) -> String {
        var out = ""
        for (i, step) in steps.enumerated() {
            let page = page(i, fileRange: fileRange(step))
            out += page[0] + "\n"
            for line in page.dropFirst() { out += "  " + line + "\n" }
            if let check = step.check {
                for line in Self.answerKey(check) { out += "  " + line + "\n" }
            }
            out += "\n"
        }
        return out
    }
}

extension Document {
    /// The tour of this document.
    public var tour: Tour { Tour(document: self) }

    /// A tour step's bytes in the file's offsets.
    public func fileRange(of step: TourStep) -> Range<Int> { fileRange(step.range, in: step.node.layer) }
}

/// The long-form lesson, where the first long-form length occurs.
package let longFormLesson = "length: this is the first long-form length in the file: lengths up to 127 fit the short form (one octet, bit 8 clear); longer ones take 0x80 + the number of length octets, then the length big-endian"

/// The indefinite-length lesson (BER only; Xcode's receipts use it).
package let indefiniteLesson = "length: 0x80 alone is the indefinite form (BER only, as Xcode writes receipts): the content runs to an end-of-contents marker 00 00; DER always gives a definite length"

/// A plain ASN.1 walk: the outermost element, then the first constructed element, a primitive of
/// each universal kind present, and the first long-form and indefinite lengths.
struct GenericRoute {
    let tree: Tree

    func steps() -> [TourStep] {
        guard let root = tree.roots.first, tree.nodes[root].kind == .tlv else { return [] }
        let lessons = TourLessons(tree: tree, layer: .file)
        var picked: [(Int, TourFocus, String, [String])] = []
        var seen = Set<Int>()
        func add(_ node: Int, _ focus: TourFocus, _ title: String, _ meaning: [String]) {
            guard seen.insert(node).inserted else { return }
            picked.append((node, focus, title, meaning))
        }
        let longForm = lessons.firstLongForm
        let rootIndefinite = tree.nodes[root].isIndefinite
        add(root, longForm == root || rootIndefinite ? .length : .identifier, "The outermost element",
            ["meaning: every ASN.1 element is identifier, length, content (TLV); this one holds the whole input"]
            + (longForm == root ? [longFormLesson] : []) + (rootIndefinite ? [indefiniteLesson] : []))
        if let c = tree.nodes.indices.first(where: { $0 != root && tree.nodes[$0].isConstructed && tree.nodes[$0].kind == .tlv }) {
            add(c, .content, "A constructed element", ["meaning: bit 6 of the identifier is set, so the content is more TLVs, its children"])
        }
        if let longForm {
            add(longForm, .length, "A long-form length", [longFormLesson])
        }
        if let indefinite = tree.nodes.indices.first(where: { tree.nodes[$0].isIndefinite }) {
            add(indefinite, .length, "An indefinite length", [indefiniteLesson])
        }
        var kinds = Set<UInt32>()
        for i in tree.nodes.indices {
            let n = tree.nodes[i]
            guard n.kind == .tlv, !n.isConstructed, n.tagClass == .universal, kinds.insert(n.tagNumber).inserted else { continue }
            add(i, n.isUniversal(6) ? .content : .whole, "A primitive: \(UniversalTag.name(n.tagNumber))",
                n.isUniversal(6) ? lessons.oidArcs(i) : ["meaning: bit 6 is clear, so the content octets are the value itself"])
        }
        picked.sort { $0.0 < $1.0 }
        // A self-check at least every third stop, the kind varying with the stop's focus.
        var sinceCheck = 0
        return picked.enumerated().map { i, pick in
            let (node, focus, title, meaning) = pick
            var check: SelfCheck?
            if node == longForm && focus == .length {
                check = lessons.lengthCountCheck(node)
            } else if sinceCheck >= 2 || (i == picked.count - 1 && sinceCheck >= picked.count - 1) || i % 3 == 0 {
                switch focus {
                case .length: check = lessons.lengthCheck(node)
                case .identifier: check = lessons.identifierCheck(node)
                case .content: check = lessons.oidCheck(node)?.check ?? lessons.identifierCheck(node)
                case .whole: check = lessons.shortLengthCheck(node) ?? lessons.identifierCheck(node)
                }
            }
            sinceCheck = check == nil ? sinceCheck + 1 : 0
            let hiddenArc = focus == .content && check != nil ? lessons.oidCheck(node)?.hiddenArc : nil
            let shown = hiddenArc.map { _ in lessons.oidArcs(node, hiding: hiddenArc) } ?? meaning
            let withheld: Set<ExplanationLine.Section> = check == nil ? [] : (focus == .content && hiddenArc == nil ? [.identifier] : TourLessons.withheld(for: focus))
            return lessons.step(node, focus, title, shown, check: check, withheld: withheld)
        }
    }
}
