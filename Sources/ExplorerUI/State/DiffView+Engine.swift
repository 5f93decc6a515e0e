import ASN1Lenient
import DocumentCore
import DocumentDiff
import ByteText

extension DiffListEntry {
    /// The diff engine's result as the overlay's list: each semantic entry, its changed fields
    /// indented under it, then the structural entries (re-encodings included, named as such).
    static func list(_ diff: DocumentDiff) -> DiffList { DiffList(diff) }

    /// The rows of `entry`: its own, then its fields' under it.
    static func rowCount(_ entry: DiffEntry) -> Int { 1 + entry.fields.reduce(0) { $0 + rowCount($1) } }

    /// Appends the rows of `entry` to `out`.
    static func add(_ entry: DiffEntry, indent: String, into out: inout [DiffListEntry]) {
        out.append(row(entry, indent: indent))
        for field in entry.fields { add(field, indent: indent + "  ", into: &out) }
    }

    /// The row of `entry` itself.
    static func row(_ entry: DiffEntry, indent: String) -> DiffListEntry {
        var title = indent + entry.kind.rawValue + " " + entry.subject
        if let key = entry.key { title += " [\(key)]" }
        if let note = entry.note { title += " — " + note }
        // Values as `diff` prints them: structural ones as ValueText wrote them (quoted where they
        // are strings), semantic ones quoted; both terminal safe.
        let show: (String) -> String = entry.a?.path != nil || entry.b?.path != nil ? { TerminalSafe.escape($0) } : { TerminalSafe.quoted($0) }
        let left = entry.a?.value.map(show), right = entry.b?.value.map(show)
        let change = entry.kind != .reencoded && entry.fields.isEmpty ? left.flatMap { l in right.map { l + " → " + $0 } } : nil
        return DiffListEntry(title: UIText.escape(title), left: entry.a?.node, leftRange: entry.a?.range,
                             right: entry.b?.node, rightRange: entry.b?.range,
                             leftLayer: entry.a.flatMap { $0.node == nil ? $0.layer : nil },
                             rightLayer: entry.b.flatMap { $0.node == nil ? $0.layer : nil },
                             leftValue: left, rightValue: right, change: change)
    }
}

/// The engine the explorer uses unless a test supplies another: `DocumentDiff.compare`, the same
/// comparison `receipt-explorer diff` prints.
public let documentDiffProvider: DiffProvider = { a, b in DiffListEntry.list(DocumentDiff.compare(a, b)) }
