import ASN1Lenient
import ByteText
import TextOutput
import DocumentCore

/// The `diff` command's text: a header, the semantic entries, certificates and signature, the
/// structural entries, and the verdict. Every value from the input goes through TerminalSafe.
public enum DiffText {
    public static func render(_ diff: DocumentDiff, nameA: String, nameB: String, kindA: String, kindB: String,
                              color: Bool) -> String {
        var text = ""
        write(diff, nameA: nameA, nameB: nameB, kindA: kindA, kindB: kindB, color: color) { text += $0 }
        return text
    }

    /// `render`'s text handed to `sink` a few lines at a time (an entry's), never whole: the text
    /// of two 50 MB receipts' differences is 29 MB, and their entries are made as they are written.
    public static func write(_ diff: DocumentDiff, nameA: String, nameB: String, kindA: String, kindB: String,
                             color: Bool, to sink: (String) -> Void) {
        let paint = { (text: String, style: ANSIStyle) -> String in
            color && !text.isEmpty ? style.rawValue + text + ANSIStyle.reset.rawValue : text
        }
        func put(_ lines: [String]) { if !lines.isEmpty { sink(lines.joined(separator: "\n") + "\n") } }
        put([paint("A", .bold) + " \(TerminalSafe.escape(nameA)): \(kindA)",
             paint("B", .bold) + " \(TerminalSafe.escape(nameB)): \(kindB)",
             "comparing \(comparisonText(diff.comparison))",
             "",
             paint("semantic: \(count(diff.semantic.count))", .bold)])
        for entry in diff.semantic { put(entryLines(entry, indent: "  ", paint: paint)) }
        var lines: [String] = []
        if let s = diff.signatures {
            let certs = s.sameCertificates ? "same (\(s.certificatesA.count))"
                : "different (A \(s.certificatesA.count), B \(s.certificatesB.count))"
            lines.append("certificates: \(certs); signature: \(s.sameSignature ? "same" : "different")")
        }
        if diff.comparison != .receiptAndTransactions {
            lines.append("")
            let total = diff.structural.count + diff.structuralOmitted
            lines.append(paint("structure: \(count(total))", .bold))
            for entry in diff.structural { lines += entryLines(entry, indent: "  ", paint: paint) }
            if diff.structuralOmitted > 0 { lines.append("  … \(diff.structuralOmitted) more structural differences") }
        }
        lines.append("")
        lines.append(diff.isEquivalent
                     ? paint(diff.structural.isEmpty ? "equivalent" : "equivalent (same content, different encoding)", .green)
                     : paint("different", .red))
        put(lines)
    }

    static func count(_ n: Int) -> String { n == 0 ? "no differences" : n == 1 ? "1 difference" : "\(n) differences" }

    static func comparisonText(_ c: DiffComparison) -> String {
        switch c {
        case .receipts: "two receipts (attributes, purchases by transaction id, signing, then structure)"
        case .jws: "two StoreKit 2 inputs (fields by JSON path, transactions by transaction id, signing, then structure)"
        case .receiptAndTransactions: "a receipt with StoreKit 2 transactions (by transaction id, through the field map)"
        case .asn1: "two ASN.1 inputs (structure)"
        }
    }

    static func symbol(_ kind: DiffKind) -> (String, ANSIStyle) {
        switch kind {
        case .attributeAdded, .purchaseAdded, .renewal, .certificateAdded, .fieldAdded, .transactionAdded, .nodeAdded:
            ("+", .green)
        case .attributeRemoved, .purchaseRemoved, .certificateRemoved, .fieldRemoved, .transactionRemoved, .nodeRemoved:
            ("-", .red)
        case .reencoded: ("=", .cyan)
        default: ("~", .yellow)
        }
    }

    static func entryLines(_ e: DiffEntry, indent: String, paint: (String, ANSIStyle) -> String) -> [String] {
        let (mark, style) = symbol(e.kind)
        var head = indent + paint("\(mark) \(e.kind.rawValue)", style) + " " + TerminalSafe.escape(e.subject)
        if let key = e.key, !key.isEmpty { head += " [\(TerminalSafe.escape(key))]" }
        if let note = e.note { head += " — " + TerminalSafe.escape(note) }
        var lines = [head]
        let isChange = e.a != nil && e.b != nil && e.a?.value != nil && e.b?.value != nil && e.kind != .reencoded
        // Structural values come from ValueText, already quoted where they are strings.
        let show: (String) -> String = e.a?.path != nil || e.b?.path != nil ? { TerminalSafe.escape($0) } : { TerminalSafe.quoted($0) }
        if isChange, e.fields.isEmpty {
            lines.append(indent + "    " + show(e.a!.value!) + " → " + show(e.b!.value!))
        }
        if let a = e.a { lines.append(indent + "    A " + sideText(a, subject: e.subject, withValue: !isChange || !e.fields.isEmpty, show: show)) }
        if let b = e.b { lines.append(indent + "    B " + sideText(b, subject: e.subject, withValue: !isChange || !e.fields.isEmpty, show: show)) }
        for f in e.fields { lines += entryLines(f, indent: indent + "    ", paint: paint) }
        return lines
    }

    /// "node 12 of layer 1, bytes 40-51 (file 44-55): "value"".
    static func sideText(_ s: DiffSide, subject: String, withValue: Bool, show: (String) -> String) -> String {
        var parts: [String] = []
        if let node = s.node {
            parts.append("node \(node.index) of layer \(node.layer.index)")
        } else if let layer = s.layer {
            parts.append("layer \(layer.index)")
        }
        if let path = s.path, !path.isEmpty, path != subject { parts.append(path) }
        if let r = s.range { parts.append(RangeText.text(r)) }
        var text = parts.joined(separator: ", ")
        if let f = s.fileRange, f != s.range { text += " (file \(RangeText.span(f)))" }
        if withValue, let v = s.value { text += ": " + show(v) }
        return text
    }
}
