import ASN1Lenient
import ByteText
import DocumentCore

/// `timeline`'s text: the documents, each group's events (with their sources under them) and
/// gaps, the entitlement at `--at`, the `--transaction` report, then the findings. Every value
/// from the input is escaped.
public enum TimelineText {
    public static func render(_ timeline: Timeline, at: Int64? = nil, lookup: TransactionLookup? = nil) -> String {
        var out = ""
        render(timeline, at: at, lookup: lookup) { out += $0 }
        return out
    }

    /// The same text handed to `write` a line or so at a time, so that a long time line is never
    /// held whole (a 20,000-purchase receipt's is 3.9 MB; issue 32).
    public static func render(_ timeline: Timeline, at: Int64? = nil, lookup: TransactionLookup? = nil, write: (String) -> Void) {
        let e = TerminalSafe.escape
        write("timeline of \(count(timeline.names.count, "document")): \(count(timeline.groups.count, "group")), "
            + "\(count(timeline.eventCount, "event")), \(count(timeline.gapCount, "gap")), \(count(timeline.findings.count, "conflict"))\n")
        for (i, name) in timeline.names.enumerated() { write("  [\(i + 1)] \(e(name)): \(timeline.summaries[i])\n") }
        // Dates with milliseconds (StoreKit's) are wider than a receipt's: one column width for all.
        let dateWidth = timeline.dateWidth
        for group in timeline.groups {
            write("\n\(e(group.title))\n")
            for event in group.events { write(line(event, dateWidth: dateWidth) + "\n") }
        }
        if let at {
            write("\nat \(Timeline.iso(at)):\n")
            if timeline.groups.isEmpty { write("  no events in these documents\n") }
            for group in timeline.groups { write("  \(e(group.title)): \(e(group.state(at: at).text))\n") }
        }
        if let lookup { write("\n" + render(lookup, names: timeline.names)) }
        if !timeline.findings.isEmpty {
            write("\nconflicts\n")
            for f in timeline.findings { write("  warning \(f.code): \(e(f.message))\n") }
        }
    }

    /// "  2024-01-05T12:00:00Z  purchase        …monthly · transaction 2000000700000000" and the
    /// sources on the next line.
    public static func line(_ event: TimelineEvent, sources: Bool = true, dateWidth: Int = 20) -> String {
        let kind = event.kind.rawValue
        let iso = Timeline.iso(event.date)
        let what = PlainText.padded(kind, toLength: max(18, kind.utf16.count))
        let date = PlainText.padded(iso, toLength: max(dateWidth, iso.utf16.count))
        var text = "  \(date)  \(what)  \(summary(event))"
        if sources, !event.sources.isEmpty {
            text += "\n" + String(repeating: " ", count: dateWidth + 4) + "from " + event.sources.map(sourceText).joined(separator: " · ")
        }
        return text
    }

    /// What the event line says after its kind (escaped).
    public static func summary(_ event: TimelineEvent) -> String {
        let parts = [event.productID, event.transactionID.map { "transaction \($0)" }, event.detail,
                     event.undelivered.map { "⚠ not delivered: \($0)" }].compactMap { $0 }
        return TerminalSafe.escape(parts.joined(separator: " · "))
    }

    public static func sourceText(_ s: TimelineSource) -> String { "[\(s.document + 1)] \(TerminalSafe.escape(s.place))" }

    public static func render(_ lookup: TransactionLookup, names: [String]) -> String {
        let e = TerminalSafe.escape
        var out = "transaction \(e(lookup.id)): \(count(lookup.mentions.count, "mention")) in "
            + "\(count(Set(lookup.mentions.map(\.source.document)).count, "document"))\n"
        for m in lookup.mentions {
            out += "  [\(m.source.document + 1)] \(e(names[m.source.document])): \(e(m.source.place))"
                + (m.source.fileOffset.map { " @\($0)" } ?? "") + "\n"
        }
        for a in lookup.absences {
            out += "  [\(a.document + 1)] \(e(names[a.document])): not in this receipt: \(e(a.reason))\n"
        }
        return out
    }

    /// "1 gap", "3 gaps": the timeline's counts, in the text and the explorer's overlay.
    public static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
