import ASN1Lenient
import DocumentCore
import DocumentTimeline
import ByteText

/// One line of the timeline view: a group title, an event, a gap, a conflict or a mention of the
/// transaction `f` looks for. Rows with a date or a source take the cursor.
public struct TimelineRow: Sendable, Equatable {
    public var text: String
    public var style: StyleClass
    /// The event's moment: the entitlement shown under the list is the group's at this date.
    public var date: Int64?
    /// Index into `Timeline.groups`.
    public var group: Int?
    public var sources: [TimelineSource]

    var takesCursor: Bool { date != nil || !sources.isEmpty }
}

/// The timeline of every open document (`T`), or where one transaction is (`f` in it).
public struct TimelineViewState: Sendable {
    public var timeline: Timeline
    public var rows: [TimelineRow]
    public var row: Int
    /// Set while the view lists where a transaction is; Esc returns to the events.
    public var lookup: TransactionLookup?
    var documents: [Document]

    init(documents: [Document]) {
        self.documents = documents
        timeline = Timeline.build(documents)
        rows = Self.eventRows(timeline)
        row = rows.firstIndex { $0.takesCursor } ?? 0
    }

    static func eventRows(_ timeline: Timeline) -> [TimelineRow] {
        var rows: [TimelineRow] = []
        // Dates with milliseconds (StoreKit's) are wider than a receipt's: one column width for all
        // rows, as the timeline command prints them, so the columns after the date line up.
        let dateWidth = timeline.dateWidth
        for (g, group) in timeline.groups.enumerated() {
            rows.append(TimelineRow(text: UIText.escape(group.title), style: .title, group: g, sources: []))
            // Date, kind, the source documents' numbers, then what the event says (cut at the edge;
            // the footer shows the selected one whole).
            let width = group.events.map { numbers($0).count }.max() ?? 0
            for event in group.events {
                let kind = PlainText.padded(event.kind.rawValue, toLength: max(18, event.kind.rawValue.utf16.count))
                let text = "\(PlainText.padded(Timeline.iso(event.date), toLength: dateWidth))  \(kind)  \(PlainText.padded(numbers(event), toLength: width))  "
                    + TimelineText.summary(event)
                // The summary is escaped already (TimelineText): guarded, not escaped twice.
                rows.append(TimelineRow(text: UIText.guardDisplay(text), style: event.kind == .gap ? .dim : .plain,
                                        date: event.date, group: g, sources: event.sources))
            }
        }
        if !timeline.findings.isEmpty {
            rows.append(TimelineRow(text: "conflicts", style: .title, sources: []))
            for f in timeline.findings {
                rows.append(TimelineRow(text: UIText.escape("\(f.code): \(f.message)"), style: .error, sources: f.sources))
            }
        }
        if rows.isEmpty { rows.append(TimelineRow(text: "no events in these documents", style: .dim, sources: [])) }
        return rows
    }

    /// "[1,2,4]": the documents that report the event.
    static func numbers(_ event: TimelineEvent) -> String {
        event.sources.isEmpty ? "" : "[" + event.sources.map { String($0.document + 1) }.joined(separator: ",") + "]"
    }

    static func lookupRows(_ lookup: TransactionLookup, names: [String]) -> [TimelineRow] {
        var rows = [TimelineRow(text: UIText.guardDisplay(String(TimelineText.render(lookup, names: names).prefix { $0 != "\n" })),
                                style: .title, sources: [])]
        for m in lookup.mentions {
            rows.append(TimelineRow(text: UIText.escape("[\(m.source.document + 1)] \(names[m.source.document]): \(m.source.place)"),
                                    style: .plain, sources: [m.source]))
        }
        for a in lookup.absences {
            rows.append(TimelineRow(text: UIText.escape("[\(a.document + 1)] \(names[a.document]): not in this receipt: \(a.reason)"),
                                    style: a.explained ? .dim : .error, sources: []))
        }
        return rows
    }

    /// Where the transaction is, in place of the events.
    mutating func find(_ id: String) {
        let found = TransactionLookup.find(id, in: documents)
        lookup = found
        rows = Self.lookupRows(found, names: timeline.names)
        row = rows.firstIndex { $0.takesCursor } ?? 0
    }

    mutating func showEvents() {
        lookup = nil
        rows = Self.eventRows(timeline)
        row = rows.firstIndex { $0.takesCursor } ?? 0
    }

    /// The next row that takes the cursor, `step` rows away (clamped at both ends).
    mutating func move(_ step: Int) {
        let targets = rows.indices.filter { rows[$0].takesCursor }
        guard let current = targets.firstIndex(where: { $0 >= row }) ?? targets.indices.last else { return }
        row = targets[max(0, min(targets.count - 1, current + step))]
    }

    /// The cursor line: the entitlement of the selected event's group at its moment.
    var cursorState: String? {
        guard rows.indices.contains(row), let date = rows[row].date, let g = rows[row].group, timeline.groups.indices.contains(g) else { return nil }
        return "cursor \(Timeline.iso(date)): " + UIText.escape(timeline.groups[g].state(at: date).text)
    }
}

extension AppState {
    /// Every open document, in command-line order (the active one and the parked ones).
    var openDocuments: [Document] {
        (0..<documents.count).compactMap { i in i == documents.current ? document : documents.parkedState(i)?.document }
    }

    /// The state option behind `receipt-explorer timeline FILE… --explore`: the view `T` opens.
    public mutating func openTimelineOverlay() { openTimeline() }

    /// `T`: the timeline of every open document, back on the row Enter left from.
    mutating func openTimeline() {
        var view = TimelineViewState(documents: openDocuments)
        if view.rows.indices.contains(timelineRow), view.rows[timelineRow].takesCursor { view.row = timelineRow }
        timelineView = view
        let t = view.timeline
        status = StatusMessage("\(t.eventCount) event\(t.eventCount == 1 ? "" : "s") in \(t.names.count) document\(t.names.count == 1 ? "" : "s")"
                               + (t.findings.isEmpty ? "" : "; \(t.findings.count) conflict\(t.findings.count == 1 ? "" : "s")"))
    }

    mutating func reduceTimeline(_ event: InputEvent) {
        guard var view = timelineView, let binding = Keymap.binding(for: event, in: .timeline) else { return }
        let page = max(1, screen.height - 10)
        switch binding.action {
        case .moveUp: view.move(-1)
        case .moveDown: view.move(1)
        case .pageUp: view.move(-page)
        case .pageDown: view.move(page)
        case .first: view.move(-view.rows.count)
        case .last: view.move(view.rows.count)
        case .timelineFind:
            prompt = Prompt(kind: .findTransaction, text: view.lookup?.id ?? "")
        case .showTimeline:
            if view.lookup != nil {
                view.showEvents()
            } else {
                timelineView = nil
                return
            }
        case .timelineGo:
            var n = 0
            if case .character(let ch) = event, let digit = ch.wholeNumberValue, digit >= 1 { n = digit - 1 }
            timelineView = view
            goToTimelineSource(n)
            return
        default: return
        }
        timelineView = view
        if view.lookup == nil { timelineRow = view.row }
    }

    /// `f` answered: where the transaction is, in the view.
    mutating func findTimelineTransaction(_ text: String) {
        let id = text.trimmingSpaces
        guard !id.isEmpty, var view = timelineView else { return }
        view.find(id)
        timelineView = view
        let found = view.lookup?.mentions.count ?? 0
        status = StatusMessage(found == 0 ? "transaction \(UIText.escape(id)) is in no open document" : "\(found) mention\(found == 1 ? "" : "s") of \(UIText.escape(id))",
                               isError: found == 0)
    }

    /// Enter / 1…9: closes the view, shows the source's document and selects its node there; T comes back.
    mutating func goToTimelineSource(_ index: Int) {
        guard let view = timelineView, view.rows.indices.contains(view.row) else { return }
        let sources = view.rows[view.row].sources
        guard sources.indices.contains(index) else {
            status = StatusMessage(sources.isEmpty ? "this line has no source document" : "this line has \(sources.count) source\(sources.count == 1 ? "" : "s")",
                                   isError: true)
            return
        }
        let source = sources[index]
        if view.lookup == nil { timelineRow = view.row }
        timelineView = nil
        switchDocument(to: source.document)
        setMode(.tree)
        focus = .tree
        let outline = layered.outline
        let target = source.node.flatMap { outline.row(of: $0) } ?? source.fileOffset.flatMap { outline.deepestRow(in: .file, containing: $0) }
        if let target { selectOutlineRow(target) }
        ensureOutlineVisible()
        status = StatusMessage("[\(source.document + 1)] \(UIText.escape(file.name)): \(UIText.escape(source.place)); T returns to the timeline")
    }
}
