import Foundation
import Testing
import TestSupport

/// What a newcomer sees first, in the real binary in tmux: the help overlay shows every key's whole
/// description (wrapped, scrolled, never cut) at 80×24 and 150×45, and a receipt's first frame shows
/// its tree from the first row.
@Suite(.enabled(if: tmuxPath != nil && cliBinary != nil, "tmux or the receipt-explorer binary is missing"))
struct TmuxFrontDoorTests {
    /// Every description of docs/manual/keys.md (generated from the keymap the overlay draws).
    static func keyDescriptions() throws -> [String] {
        let page = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/keys.md"), encoding: .utf8)
        return page.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `"), let match = line.wholeMatch(of: #/\| `.*` \| (.*) \|/#) else { return nil }
            return String(match.1).replacing("\\|", with: "|")
        }
    }

    /// The text inside the overlay's box on one screen: the rows between its top and bottom border,
    /// without the border columns.
    static func boxLines(_ screen: String) -> [String] {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let top = rows.firstIndex(where: { $0.contains(" Keys (? or Esc closes") }) else { return [] }
        // The overlay's corners: the ┌ just before its title and the first ┐ after it (the panes'
        // borders around it have corners of their own).
        let topRow = Array(rows[top].unicodeScalars)
        let title = Array(" Keys (".unicodeScalars)
        guard let start = (0..<topRow.count).first(where: { Array(topRow[$0..<min(topRow.count, $0 + title.count)]) == title }),
              let left = topRow[..<start].lastIndex(of: "┌"),
              let right = topRow[start...].firstIndex(of: "┐") else { return [] }
        var out: [String] = []
        for row in rows[(top + 1)...] {
            let scalars = Array(row.unicodeScalars)
            guard scalars.count > left, scalars[left] == "│" else { break }
            let end = min(right, scalars.count)
            out.append(String(String.UnicodeScalarView(scalars[(left + 1)..<end])))
        }
        return out
    }

    @Test(arguments: [(80, 24), (150, 45)])
    func helpOverlayShowsEveryDescriptionWhole(width: Int, height: Int) throws {
        let tmux = try TmuxHarness(arguments: ["samples/typical.receipt", "--root", "samples/pki/test-root.cer"], width: width, height: height)
        defer { tmux.close() }
        try #require(tmux.waitForText("typical.receipt") != nil)
        try tmux.send("?")
        let whole: (String) -> Bool = { $0.contains(" Keys (? or Esc closes") }
        var screen = try #require(tmux.waitForScreen("the help overlay", quiet: 0.2, whole))
        // Page through the overlay: each page's lines continue the ones seen (the last page may
        // overlap the one before it), until PgDn changes nothing.
        var seen: [String] = []
        for _ in 0..<40 {
            let lines = Self.boxLines(screen)
            #expect(!lines.isEmpty)
            let overlap = (0...min(seen.count, lines.count)).reversed().first { k in Array(seen.suffix(k)) == Array(lines.prefix(k)) } ?? 0
            seen += lines.dropFirst(overlap)
            let before = screen
            try tmux.send("NPage")
            // The next page once drawn whole; a page that does not change within 3 s was the last.
            var next = before
            let deadline = Date().addingTimeInterval(3)
            while next == before && Date() < deadline { Thread.sleep(forTimeInterval: 0.05); next = tmux.screen() }
            if next == before { break }
            screen = try #require(tmux.waitForScreen("the help's next page", quiet: 0.2, whole))
        }
        for line in seen {
            #expect(!line.trimmingCharacters(in: .whitespaces).hasSuffix("…"), "a help line is cut at \(width)×\(height): \(line)")
        }
        // Wrapped lines joined again hold every description of the keymap.
        let text = seen.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let descriptions = try Self.keyDescriptions()
        #expect(descriptions.count > 80)
        for description in descriptions {
            let words = description.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(text.contains(words), "the help at \(width)×\(height) does not show: \(description)")
        }
        try tmux.send("?")
        try #require(tmux.waitForScreen("the help to close") { !$0.contains(" Keys (? or Esc closes") } != nil)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0)
    }

    /// A receipt opens with its tree from the first row (ContentInfo at the top) whenever its payload
    /// fits on the first screen, the payload selected, no rows hidden above while rows below stay
    /// blank; the status bar's counts are spelled out. (At 80×24 the pane's 9 rows cannot hold the
    /// payload's 11th row with the first: there the tree scrolls just enough to show it.)
    @Test(arguments: [("samples/typical.receipt", 120, 40), ("samples/xcode-ber.receipt", 150, 45)])
    func aReceiptsFirstFrameStartsAtTheFirstRow(file: String, width: Int, height: Int) throws {
        let tmux = try TmuxHarness(arguments: [file, "--root", "samples/pki/test-root.cer"], width: width, height: height)
        defer { tmux.close() }
        let name = String(file.split(separator: "/").last!)
        try #require(tmux.waitForText(name) != nil)
        let screen = try #require(tmux.waitForText("receipt payload"))
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[2].contains("SEQUENCE ("), "first tree row: \(rows[2])")
        #expect(rows[2].contains("ContentInfo"), "first tree row: \(rows[2])")
        #expect(rows.contains { $0.contains("receipt payload") })
        #expect(screen.statusBar.contains(" errors · ") && screen.statusBar.contains(" not DER · "), "\(screen.statusBar)")
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0)
    }
}
