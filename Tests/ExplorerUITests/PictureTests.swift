import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The pictures in docs/images are the explorer's own screens: `render(state, size)` on the samples,
/// drawn as SVG by `GridSVG`. Each test re-renders one and fails when the committed file differs, so
/// a picture is never older than the screen it shows. Regenerate: `RECORD_SNAPSHOTS=1 swift test
/// --filter PictureTests`; `Scripts/render-pictures.py` then checks each in headless Chromium.
@Suite struct PictureTests {
    static let directory = Paths.packageRoot.appendingPathComponent("docs/images")
    static let size = GridSize(width: 132, height: 38)

    /// The scenes, by file name: what the README and the manual show.
    static let scenes: [(name: String, title: String, state: @Sendable () throws -> AppState)] = [
        ("receipt", "The explorer on a receipt: the tree of elements, the selected element's bytes, its explanation", receipt),
        ("token", "A StoreKit 2 transaction's summary: its headline fields and every verification step", token),
        ("lab", "The tamper lab: one character of a token's signature changed, and ES256 fails", lab),
        ("timeline", "The timeline of a receipt, a transaction history and notifications: events, gaps, conflicts", timeline),
        ("diff", "The diff overlay: a receipt against its refunded copy, each entry with both sides", diff),
    ]

    static func receipt() throws -> AppState {
        var s = Fixtures.sample(size: size)
        press(&s, .down, .down, .down)
        return s
    }

    static func token() throws -> AppState {
        var s = try LabJWSTests.state("jws/transaction.jws", size: size)
        press(&s, .character("2"))
        return s
    }

    static func lab() throws -> AppState {
        var s = try LabJWSTests.state("jws/transaction.jws", size: size)
        s.selectOutlineRow(try JWSOutlineTests.row(s, "r"))
        press(&s, .character("b"), .tab, .character("e"))
        type(&s, "A")
        return s
    }

    static func timeline() throws -> AppState {
        let documents = try ["receipt.receipt", "history.json", "n04-did-fail-to-renew.jws", "n05-grace-period-expired.jws",
                             "n06-billing-recovery.jws"].map { name in
            Document.open(try DocumentInput.path(Paths.samples.appendingPathComponent("timeline/" + name).path).read().loaded,
                          options: AnalysisOptions(validate: false))
        }
        var s = AppState.opening(documents, screen: size)
        press(&s, .character("T"))
        return s
    }

    static func diff() throws -> AppState {
        let documents = try ["base.receipt", "refund.receipt"].map { name in
            Document.open(LoadedInput(bytes: try Paths.sample("diff/" + name), name: name, encoding: .binary, note: ""),
                          options: AnalysisOptions(validate: false))
        }
        var s = AppState.opening(documents, screen: size)
        press(&s, .character("d"), .down)
        return s
    }

    @Test(arguments: scenes.map(\.name))
    func pictureIsCurrent(name: String) throws {
        let scene = try #require(Self.scenes.first { $0.name == name })
        let svg = GridSVG.svg(render(try scene.state(), size: Self.size), title: scene.title)
        let path = Self.directory.appendingPathComponent(name + ".svg").path
        if Snapshot.recording {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            Snapshot.writeFile(path, svg)
            Issue.record("wrote docs/images/\(name).svg; run again without RECORD_SNAPSHOTS=1")
            return
        }
        let committed = try #require(Fixtures.readFile(path).map { String(decoding: $0, as: UTF8.self) },
                                     "docs/images/\(name).svg is missing: RECORD_SNAPSHOTS=1 swift test --filter PictureTests")
        #expect(committed == svg, "docs/images/\(name).svg is stale: RECORD_SNAPSHOTS=1 swift test --filter PictureTests")
    }

    /// The picture is the grid: every non-blank cell's character is in it at its column, box
    /// drawing becomes lines, and the size follows the grid.
    @Test func svgDrawsTheGrid() {
        var grid = Grid(size: GridSize(width: 6, height: 2))
        grid.put("┌─a<b", x: 0, y: 0, style: CellStyle(foreground: .red, bold: true))
        grid.put("x", x: 5, y: 1, style: CellStyle(reverse: true))
        let svg = GridSVG.svg(grid, title: "t&t")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"54\" height=\"36\""))
        #expect(svg.contains("<title>t&amp;t</title>"))
        #expect(svg.contains("<path d=\"M4.5 9V18M4.5 9H9M9 9H18\" stroke=\"#cc3e3e\""))
        #expect(svg.contains("<text x=\"18\" y=\"14\" textLength=\"27\" lengthAdjust=\"spacingAndGlyphs\" fill=\"#cc3e3e\" class=\"b\">a&lt;b</text>"))
        // Reverse video: the default foreground becomes the cell's background.
        #expect(svg.contains("<rect x=\"45\" y=\"18\" width=\"9\" height=\"18\" fill=\"#d8dadc\"/>"))
        #expect(svg.contains("<text x=\"45\" y=\"32\" textLength=\"9\" lengthAdjust=\"spacingAndGlyphs\" fill=\"#1d1f21\">x</text>"))
    }
}
