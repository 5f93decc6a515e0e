import Testing
import ASN1Lenient
import TestSupport
@testable import ExplorerUI

/// One pane drawn into a small grid of its own, the expected lines written out here (the
/// whole-screen snapshots are in SnapshotTests). Trailing spaces are trimmed.
@Suite struct PaneRenderTests {
    static func lines(_ grid: Grid) -> [String] {
        grid.text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var s = Substring(line)
            while s.last == " " { s = s.dropLast() }
            return String(s)
        }
    }

    static func pane(_ size: GridSize, draw: (inout Grid, GridRect) -> Void) -> [String] {
        var grid = Grid(size: size)
        draw(&grid, GridRect(x: 0, y: 0, width: size.width, height: size.height))
        return lines(grid)
    }

    @Test func treePane() {
        var s = Fixtures.small()
        s.outlineView.expanded[2] = true                        // open the SET
        s.selectOutlineRow(3)
        let out = Self.pane(GridSize(width: 40, height: 7)) { OutlinePane.draw(s, into: &$0, rect: $1, glyphs: .unicode) }
        // `~`: the second element of the SET sorts before the first (30 06… < 30 0A…): not DER order.
        #expect(out == [
            "~ ▾ SEQUENCE (30)",
            "      INTEGER (1)  1",
            "~   ▾ SET (20)",
            "      ▸ SEQUENCE (10)",
            "~     ▸ SEQUENCE (6)",
            "      OCTET STRING (3)  01 02 03",
            "",
        ])
    }

    @Test func hexPane() {
        var s = Fixtures.small()
        s.selectOutlineRow(4)                                  // UTF8String "alpha"
        let out = Self.pane(GridSize(width: 76, height: 3)) { TextBytePane.draw(s, into: &$0, rect: $1) }
        #expect(out == [
            "0000  30 1E 02 01 01 31 14 30  0A 0C 05 61 6C 70 68 61  0....1.0...alpha",
            "0010  02 01 05 30 06 16 04 62  65 74 61 04 03 01 02 03  ...0...beta.....",
            "",
        ])
    }

    @Test func detailPane() {
        var s = Fixtures.small()
        s.selectOutlineRow(5)                                  // INTEGER 5
        let out = Self.pane(GridSize(width: 50, height: 8)) { DetailPane.draw(s, into: &$0, rect: $1) }
        #expect(out == [
            "node 5 · path 0 › 1 › 0 › 1",
            "INTEGER at offset 16 (depth 3, 3 bytes)",
            "bytes            02 01 05",
            "identifier       0x02 = 0b00000010: class bits 00",
            "                 → UNIVERSAL; bit 6 = 0 →",
            "                 primitive; tag bits 00010 = 2 →",
            "                 INTEGER",
            "length           0x01 = 0b00000001: bit 8 = 0 →",
        ])
    }

    @Test func purchaseTablePane() {
        var s = Fixtures.sample()
        press(&s, .character("3"), .down)
        let out = Self.pane(GridSize(width: 70, height: 5)) { PurchaseTable.draw(s, into: &$0, rect: $1, glyphs: .unicode) }
        // Narrow: long ids keep their distinctive ends.
        #expect(out == [
            "#▲  product id      transac… origina… purchased  expires    qty  flags",
            "  1 …ptexplorer.pro …0000004 …0000004 2023-06-01               1",
            "  2 …lorer.coins100 …0000001 …0000001 2023-09-10               1",
            "  3 …lorer.coins100 …0000002 …0000002 2023-10-02               1",
            "  4 …lorer.coins500 …0000003 …0000003 2024-01-08               3",
        ])
    }

    @Test func helpOverlay() {
        var s = Fixtures.small()
        press(&s, .character("?"))
        let size = GridSize(width: 60, height: 8)
        var grid = Grid(size: size)
        HelpOverlay.draw(s, into: &grid, size: size, glyphs: .ascii)
        #expect(Self.lines(grid) == [
            "",
            "  +- Keys (? or Esc closes, arrows scroll) --------------+",
            "  | Everywhere                                           |",
            "  |   ?              show / hide this help               |",
            "  |   q              quit                                |",
            "  |   Esc            close the help, a prompt or a       |",
            "  +------------------------------------------------------+",
            "",
        ])
    }
}
