#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteText

/// Everything a key can do. The reducer performs actions; the keymap says which key triggers which.
public enum Action: String, Sendable, CaseIterable {
    case moveUp, moveDown, collapseOrParent, expandOrChild, toggle, expandSubtree, expandAll, collapseAll
    case pageUp, pageDown, halfPageUp, halfPageDown, first, last
    case hexLeft, hexRight, hexUp, hexDown, hexPageUp, hexPageDown, hexStart, hexEnd
    case scrollUp, scrollDown, scrollPageUp, scrollPageDown
    case tableUp, tableDown, tablePageUp, tablePageDown, tableFirst, tableLast, tableOpen, sortNext, sortReverse, tableFilter
    case focusNext, focusPrevious
    case startSearch, nextHit, previousHit, goToOffset, nextDiagnostic, previousDiagnostic, writeNode, copyNode
    case toggleOffsetBase, toggleHexPane, cycleView, showTree, showSummary, showPurchases, jumpToPurchase
    case help, quit, escape
    case nextDocument, previousDocument, toggleTokenText, showDiff, diffGoLeft, diffGoRight
    case showTimeline, timelineGo, timelineFind
    case promptAccept, promptCancel, promptErase
    case click, wheelUp, wheelDown, resize
    case tourStart, tourNext, tourPrevious, tourLeave, tourAnswer, labEdit, labInsert, labDelete, labUndo, labWrite
}

/// Where a binding applies. The reducer looks up the active context first, then `global`.
public enum KeyContext: String, Sendable, CaseIterable {
    case global, tree, hex, detail, summary, purchases, diff, timeline, prompt, help, mouse, tour

    public var title: String {
        switch self {
        case .global: "Everywhere"
        case .tree: "Tree pane"
        case .hex: "Hex pane (Tab to focus)"
        case .detail: "Detail pane (Tab to focus)"
        case .summary: "Summary view"
        case .purchases: "Purchase table"
        case .diff: "Diff of two documents (d)"
        case .timeline: "Timeline of every open document (T)"
        case .prompt: "Prompts (search, go to offset, write)"
        case .help: "Help overlay"
        case .mouse: "Mouse"
        case .tour: "Guided tour (t starts or resumes it)"
        }
    }
}

/// What triggers a binding: a key, or any event of a mouse / resize kind.
public enum KeyTrigger: Equatable, Sendable {
    case key(InputEvent)
    case anyClick, anyWheelUp, anyWheelDown, anyResize

    public func matches(_ event: InputEvent) -> Bool {
        switch (self, event) {
        case (.key(let k), _): return k == event
        case (.anyClick, .mouseClick): return true
        case (.anyWheelUp, .wheelUp): return true
        case (.anyWheelDown, .wheelDown): return true
        case (.anyResize, .resize): return true
        default: return false
        }
    }
}

/// One line of the keymap: the keys as people read them, what they do, where, and the triggers.
public struct KeyBinding: Sendable {
    public var keys: String
    public var description: String
    public var context: KeyContext
    public var action: Action
    public var triggers: [KeyTrigger]
}

/// THE keymap: one table from which the reducer dispatches, the `?` overlay is drawn and
/// `docs/manual/keys.md` is generated (a test checks the committed file equals `Keymap.markdown()`).
public enum Keymap {
    static func b(_ keys: String, _ description: String, _ context: KeyContext, _ action: Action, _ events: InputEvent...) -> KeyBinding {
        KeyBinding(keys: keys, description: description, context: context, action: action, triggers: events.map { .key($0) })
    }

    static func c(_ ch: Character) -> InputEvent { .character(ch) }
    static func ctrl(_ ch: Character) -> InputEvent { .control(ch) }

    /// `less`-style half pages, the same keys in every scrolling context.
    static func halfPages(_ context: KeyContext, _ what: String) -> [KeyBinding] {
        [b("Ctrl-U", "half a page up (\(what))", context, .halfPageUp, ctrl("u")),
         b("Ctrl-D", "half a page down (\(what))", context, .halfPageDown, ctrl("d"))]
    }

    public static let bindings: [KeyBinding] = [
        // Everywhere
        b("?", "show / hide this help", .global, .help, c("?")),
        b("q", "quit", .global, .quit, c("q"), .control("c")),
        b("Esc", "close the help, a prompt or a receipt view; otherwise quit", .global, .escape, .escape),
        b("Tab", "move focus: tree → hex → detail", .global, .focusNext, .tab),
        b("Shift-Tab", "move focus backwards", .global, .focusPrevious, .backTab),
        b("r", "cycle views: tree → summary → purchase table", .global, .cycleView, c("r")),
        b("1", "tree view", .global, .showTree, c("1")),
        b("2", "summary: a receipt's fields and validation, or a StoreKit 2 document's tokens and their verification", .global, .showSummary, c("2")),
        b("3", "purchase table: a receipt's in-app purchases, or a StoreKit 2 document's transactions", .global, .showPurchases, c("3")),
        b("}", "next open document (receipt-explorer FILE FILE… opens several; each keeps its selection)", .global, .nextDocument, c("}")),
        b("{", "previous open document", .global, .previousDocument, c("{")),
        b("d", "with two documents open: the differences between them, each with both sides' decoded values", .global, .showDiff, c("d")),
        b("T", "timeline: every event of every open document on one time line (purchases, renewals, offers, billing retry, expiry, refunds), gaps and conflicts", .global, .showTimeline, c("T")),
        b("/", "search tags, values, OID names, field names, product ids; in StoreKit 2 documents every layer's labels, values, meanings and JSON text", .global, .startSearch, c("/")),
        b("n", "next search hit", .global, .nextHit, c("n")),
        b("N", "previous search hit", .global, .previousHit, c("N")),
        b(":", "go to a file offset (decimal or 0x hex, as diagnostics print them): selects the deepest node there, in any layer", .global, .goToOffset, c(":")),
        b("]", "next node with a diagnostic (every layer's, in tree order)", .global, .nextDiagnostic, c("]")),
        b("[", "previous node with a diagnostic", .global, .previousDiagnostic, c("[")),
        b("w", "write the selected node's bytes to a file", .global, .writeNode, c("w")),
        b("y", "copy the selected node's bytes as hex to the clipboard (OSC 52; works over SSH and in tmux; at most \(AppState.clipboardByteLimit / 1024) KiB)",
          .global, .copyNode, c("y")),
        b("x", "offsets: hexadecimal / decimal (the hex pane, the status bar)", .global, .toggleOffsetBase, c("x")),
        b("H", "show / hide the hex pane", .global, .toggleHexPane, c("H")),
        b("b", "JWS: the byte pane shows the node's decoded bytes / the token characters that encode them", .global, .toggleTokenText, c("b")),
        // Tree
        b("↑ / k", "previous row", .tree, .moveUp, .up, c("k")),
        b("↓ / j", "next row", .tree, .moveDown, .down, c("j")),
        b("← / h", "collapse; if collapsed, go to the parent", .tree, .collapseOrParent, .left, c("h")),
        b("→ / l", "expand; if expanded, go to the first child", .tree, .expandOrChild, .right, c("l")),
        b("Enter / Space", "expand / collapse", .tree, .toggle, .enter, c(" ")),
        b("*", "expand the whole subtree", .tree, .expandSubtree, c("*")),
        b("E", "expand all (a bit fill: fast even on a million nodes)", .tree, .expandAll, c("E")),
        b("C", "collapse all", .tree, .collapseAll, c("C")),
        b("PgUp / Ctrl-B", "page up", .tree, .pageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "page down", .tree, .pageDown, .pageDown, ctrl("f")),
    ] + halfPages(.tree, "rows") + [
        b("g / Home", "first row", .tree, .first, c("g"), .home),
        b("G / End", "last row", .tree, .last, c("G"), .end),
        b("p", "from a node inside an in-app purchase (or a StoreKit 2 transaction) to its row in the purchase table", .tree, .jumpToPurchase, c("p")),
        // Hex
        b("← / h", "previous byte (selects the deepest node containing it)", .hex, .hexLeft, .left, c("h")),
        b("→ / l", "next byte", .hex, .hexRight, .right, c("l")),
        b("↑ / k", "byte one row up", .hex, .hexUp, .up, c("k")),
        b("↓ / j", "byte one row down", .hex, .hexDown, .down, c("j")),
        b("PgUp / Ctrl-B", "one page up", .hex, .hexPageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "one page down", .hex, .hexPageDown, .pageDown, ctrl("f")),
    ] + halfPages(.hex, "byte rows") + [
        b("g / Home", "first byte", .hex, .hexStart, c("g"), .home),
        b("G / End", "last byte", .hex, .hexEnd, c("G"), .end),
        // Detail
        b("↑ / k", "scroll up", .detail, .scrollUp, .up, c("k")),
        b("↓ / j", "scroll down", .detail, .scrollDown, .down, c("j")),
        b("PgUp / Ctrl-B", "page up", .detail, .scrollPageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "page down", .detail, .scrollPageDown, .pageDown, ctrl("f")),
    ] + halfPages(.detail, "lines") + [
        // Summary
        b("↑ / k", "scroll up", .summary, .scrollUp, .up, c("k")),
        b("↓ / j", "scroll down", .summary, .scrollDown, .down, c("j")),
        b("PgUp / Ctrl-B", "page up", .summary, .scrollPageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "page down", .summary, .scrollPageDown, .pageDown, ctrl("f")),
    ] + halfPages(.summary, "lines") + [
        // Purchases
        b("↑ / k", "previous purchase", .purchases, .tableUp, .up, c("k")),
        b("↓ / j", "next purchase", .purchases, .tableDown, .down, c("j")),
        b("PgUp / Ctrl-B", "page up", .purchases, .tablePageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "page down", .purchases, .tablePageDown, .pageDown, ctrl("f")),
    ] + halfPages(.purchases, "purchases") + [
        b("g / Home", "first purchase", .purchases, .tableFirst, c("g"), .home),
        b("G / End", "last purchase", .purchases, .tableLast, c("G"), .end),
        b("Enter", "show this purchase in the tree", .purchases, .tableOpen, .enter),
        b("s", "sort by the next column", .purchases, .sortNext, c("s")),
        b("S", "reverse the sort order", .purchases, .sortReverse, c("S")),
        b("f", "filter the rows by product id or transaction id text (Esc clears the filter)", .purchases, .tableFilter, c("f")),
        // Diff
        b("↑ / k", "previous difference", .diff, .moveUp, .up, c("k")),
        b("↓ / j", "next difference", .diff, .moveDown, .down, c("j")),
        b("g / Home", "first difference", .diff, .first, c("g"), .home),
        b("G / End", "last difference", .diff, .last, c("G"), .end),
        b("Enter / 1", "go to this difference in document 1 (A): its node selected in the tree (d comes back here)", .diff, .diffGoLeft, .enter, c("1")),
        b("2", "go to this difference in document 2 (B)", .diff, .diffGoRight, c("2")),
        b("d / Esc / q", "close the diff", .diff, .showDiff, c("d"), .escape, c("q")),
        // Timeline
        b("↑ / k", "previous event", .timeline, .moveUp, .up, c("k")),
        b("↓ / j", "next event (the line under the list: the group's entitlement at the event's moment)", .timeline, .moveDown, .down, c("j")),
        b("PgUp / Ctrl-B", "page up", .timeline, .pageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "page down", .timeline, .pageDown, .pageDown, ctrl("f")),
        b("g / Home", "first event", .timeline, .first, c("g"), .home),
        b("G / End", "last event", .timeline, .last, c("G"), .end),
        b("Enter / 1…9", "go to the event's node in its first (Enter, 1) … ninth source document (T comes back here)", .timeline, .timelineGo,
          .enter, c("1"), c("2"), c("3"), c("4"), c("5"), c("6"), c("7"), c("8"), c("9")),
        b("f", "where is a transaction: every document and node with any of its ids, and why a receipt lacks it", .timeline, .timelineFind, c("f")),
        b("T / Esc / q", "back from a transaction to the events; otherwise close the timeline", .timeline, .showTimeline, c("T"), .escape, c("q")),
        // Prompt
        b("Enter", "accept", .prompt, .promptAccept, .enter),
        b("Esc", "cancel", .prompt, .promptCancel, .escape, .control("c")),
        b("Backspace", "delete the last character", .prompt, .promptErase, .backspace),
        // Help
        b("↑ / k", "scroll up", .help, .scrollUp, .up, c("k")),
        b("↓ / j", "scroll down", .help, .scrollDown, .down, c("j")),
        b("PgUp / Ctrl-B", "page up", .help, .scrollPageUp, .pageUp, ctrl("b")),
        b("PgDn / Ctrl-F", "page down", .help, .scrollPageDown, .pageDown, ctrl("f")),
    ] + halfPages(.help, "lines") + [
        b("? / Esc / q", "close the help", .help, .help, c("?"), .escape, c("q")),
        // Mouse
        KeyBinding(keys: "click", description: "select the row or byte under the pointer (a click on ▸ / ▾ toggles)",
                   context: .mouse, action: .click, triggers: [.anyClick]),
        KeyBinding(keys: "wheel up", description: "scroll the pane under the pointer up", context: .mouse,
                   action: .wheelUp, triggers: [.anyWheelUp]),
        KeyBinding(keys: "wheel down", description: "scroll the pane under the pointer down", context: .mouse,
                   action: .wheelDown, triggers: [.anyWheelDown]),
    ] + teachingBindings

    /// The binding for `event` in `context` (falling back to `global`, then `mouse`).
    public static func binding(for event: InputEvent, in context: KeyContext) -> KeyBinding? {
        for b in bindings where b.context == context && b.triggers.contains(where: { $0.matches(event) }) { return b }
        if context == .prompt || context == .help || context == .diff || context == .timeline { return nil }
        for b in bindings where b.context == .global && b.triggers.contains(where: { $0.matches(event) }) { return b }
        for b in bindings where b.context == .mouse && b.triggers.contains(where: { $0.matches(event) }) { return b }
        return nil
    }

    /// Bindings grouped by context, in table order (for the help overlay and the docs).
    public static var grouped: [(KeyContext, [KeyBinding])] {
        KeyContext.allCases.compactMap { context in
            let list = bindings.filter { $0.context == context }
            return list.isEmpty ? nil : (context, list)
        }
    }

    /// The help overlay's lines, word-wrapped to `width` columns (continuations indented under the
    /// description), so that no line is cut at any size; the overlay scrolls when they do not fit.
    public static func helpLines(ascii: Bool, width: Int = .max) -> [String] {
        var lines: [String] = []
        let keyWidth = bindings.map { displayKeys($0.keys, ascii: ascii).count }.max() ?? 10
        func add(_ text: String, indent: Int) {
            guard width != .max else { lines.append(text); return }
            lines += DetailContent.wrap(text, width: width, style: .plain, indent: indent).map(\.text)
        }
        for (context, list) in grouped {
            if !lines.isEmpty { lines.append("") }
            add(context.title, indent: 2)
            for binding in list {
                add("  " + UIText.pad(displayKeys(binding.keys, ascii: ascii), keyWidth) + "  " + displayText(binding.description, ascii: ascii),
                    indent: keyWidth + 4)
            }
        }
        lines.append("")
        add("Markers: ! error or warning in the node or below it, ~ only not-DER (BER) notes.", indent: 9)
        return lines
    }

    /// `docs/manual/keys.md`, generated from the table above.
    public static func markdown() -> String {
        var out = "# The explorer's keys\n\n"
        out += "<!-- GENERATED by Keymap.markdown() from Sources/ExplorerUI/Reducer/Keymap.swift; do not edit.\n"
        out += "     Regenerate: RECORD_SNAPSHOTS=1 swift test --filter KeysDocTests (a test fails when it is stale). -->\n\n"
        out += "The same table drives the explorer's `?` help overlay and its key handling; [explore.md](explore.md) describes the explorer.\n"
        for (context, list) in grouped {
            out += "\n## \(context.title)\n\n| key | action |\n|---|---|\n"
            for binding in list {
                let keys = binding.keys.replacing("|", with: "\\|")
                out += "| `\(keys)` | \(binding.description) |\n"
            }
        }
        out += "\nMarkers in the tree: `!` an error or warning in the node or below it, `~` only not-DER (BER) notes.\n"
        return out
    }

    /// ASCII spellings of the arrow keys for `--ascii`.
    static func displayKeys(_ text: String, ascii: Bool) -> String {
        guard ascii else { return text }
        return text.replacing("↑", with: "Up").replacing("↓", with: "Down")
            .replacing("←", with: "Left").replacing("→", with: "Right")
    }

    /// ASCII spellings of the arrows and glyphs in descriptions for `--ascii`.
    static func displayText(_ text: String, ascii: Bool) -> String {
        guard ascii else { return text }
        return text.replacing("→", with: "->").replacing("▸ / ▾", with: "+ / -")
    }
}
