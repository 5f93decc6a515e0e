import Testing
import TestSupport
import ASN1Lenient
@testable import ExplorerUI

@Suite struct RenderTests {
    @Test func tooSmallAtEverySizeBelowTheMinimum() {
        let s = Fixtures.small()
        for (w, h) in [(0, 0), (1, 1), (59, 40), (200, 15), (10, 3), (59, 16)] {
            let grid = render(s, size: GridSize(width: w, height: h))
            #expect(grid.cells.count == w * h)
            if w >= 30 && h >= 3 {
                #expect(grid.text.contains("terminal too small"))
                #expect(grid.text.contains("(need 60x16, have \(w)x\(h))"))
            }
        }
        #expect(!render(s, size: GridSize(width: 60, height: 16)).text.contains("too small"))
    }

    @Test func layoutsAtCommonSizes() {
        let s = Fixtures.sample()
        for (w, h) in [(60, 16), (80, 24), (99, 30), (100, 30), (120, 40), (200, 60)] {
            let size = GridSize(width: w, height: h)
            let layout = Layout(size: size, state: s)
            #expect(layout.kind == (w >= 100 ? .wide : .stacked))
            let grid = render(s, size: size)
            #expect(grid.text.contains("receipt-explorer"))
            // The selected row is on screen, in the selected style.
            let mask = Theme.mask(grid)
            #expect(mask.contains("S"))
        }
    }

    @Test func endOfContentsAndAncestorStyles() throws {
        var s = try #require(Fixtures.sampleState("xcode-ber.receipt", size: GridSize(width: 120, height: 40)))
        press(&s, .character(":"))
        type(&s, "2184")
        press(&s, .enter)
        #expect(s.selectedFileNode == 0)                       // the root's end-of-contents octets
        let mask = Theme.mask(render(s, size: GridSize(width: 120, height: 40)))
        #expect(mask.contains("OO"))
        // A child: its parent's header shows faintly (a), the parent's range too (A).
        press(&s, .character("g"), .right, .down, .down)
        let child = Theme.mask(render(s, size: GridSize(width: 120, height: 40)))
        #expect(child.contains("a") && child.contains("I") && child.contains("L"))
    }

    @Test func monochromeStillShowsSelectionAndMarkers() throws {
        var s = try #require(Fixtures.sampleState("malformed-length-past-parent.receipt", size: GridSize(width: 120, height: 40)))
        s.preferences.color = false
        press(&s, .character("]"))
        let grid = render(s, size: GridSize(width: 120, height: 40))
        #expect(grid.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
        #expect(grid.cells.contains { $0.style.reverse })
        #expect(grid.text.contains("! "))
    }

    @Test func encodingDefaultsFromTheParse() throws {
        #expect(Fixtures.sample().file.encoding == "DER")
        #expect(try #require(Fixtures.sampleState("xcode-ber.receipt")).file.encoding == "BER")
    }
}

/// Keys on a million nodes walk only what is on screen (timings: bench-report's UIBenchmark, not tests).
@Suite struct MillionNodeTests {
    /// A DER SET of `pairs` eight-byte SEQUENCE { INTEGER, INTEGER }: 1 + 3·pairs nodes (333,333
    /// pairs make 1,000,000 nodes, about 2.7 MB), so every offset's node is known by arithmetic.
    static func wideSet(pairs: Int) -> [UInt8] {
        var content: [UInt8] = []
        content.reserveCapacity(pairs * 10)
        for i in 0..<pairs {
            let a = UInt8(truncatingIfNeeded: i & 0x7F), b = UInt8(truncatingIfNeeded: (i >> 7) & 0x7F)
            content += [0x30, 0x06, 0x02, 0x01, a, 0x02, 0x01, b]
        }
        return [0x31] + DER.length(content.count) + content
    }

    @Test func navigationOnAMillionNodes() {
        let bytes = Self.wideSet(pairs: 333_333)
        var s = Fixtures.state(bytes, name: "million.der", size: GridSize(width: 120, height: 40))
        #expect(s.tree.count == 1_000_000)
        press(&s, .character("G"))
        #expect(s.outlineView.selection == 999_999)
        press(&s, .character("C"))
        #expect(s.outlineView.selection == 0 && allVisibleCount(s, limit: 5) == 1)
        press(&s, .character("E"), .end)
        #expect(s.outlineView.selection == 999_999)
        press(&s, .pageUp, .up)
        #expect(s.outlineView.selection == 999_999 - 35 - 1)   // a page is 35 rows at 120×40
        press(&s, .character(":"))
        type(&s, "0x100000")
        press(&s, .enter)
        #expect(s.tree.nodes[s.outlineView.selection].byteRange.contains(0x100000) && !s.outlineHasChildren(s.outlineView.selection))
        let grid = render(s, size: GridSize(width: 120, height: 40))
        #expect(grid.text.contains("INTEGER"))
    }

    func allVisibleCount(_ s: AppState, limit: Int) -> Int {
        var n = 0
        var current: Int? = 0
        while let node = current, n < limit { n += 1; current = s.outlineNext(node) }
        return n
    }
}
