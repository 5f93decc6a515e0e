import Testing
import TestSupport
import ASN1Lenient
@testable import ExplorerUI

/// No control character from the input ever reaches a cell; wide characters are escaped.
@Suite struct EscapingTests {
    static let hostileStrings: [[UInt8]] = [
        Array("\u{1B}[31mred\u{07}\u{00}".utf8),            // ESC sequence, BEL, NUL
        Array("abc\u{202E}fed.exe".utf8),                    // right-to-left override
        Array("中文😀e\u{301}".utf8),                         // CJK, emoji, combining accent
        [0x61, 0xC3, 0x28, 0x62, 0xFF, 0x0D, 0x0A],          // invalid UTF-8, CR, LF
        Array("\u{85}\u{9B}2J\u{7F}\u{200B}\u{2028}".utf8),  // C1 NEL and CSI, DEL, ZWSP, LINE SEPARATOR
    ]

    static var hostileBytes: [UInt8] {
        var parts: [[UInt8]] = hostileStrings.map { DER.tlv(0x0C, $0) }
        parts.append(DER.tlv(0x13, [0x41, 0x1B, 0x5B, 0x32, 0x4A]))   // PrintableString with ESC [2J
        parts.append(DER.tlv(0x16, [0x9B, 0x41]))                      // IA5String with a C1 byte
        parts.append(DER.tlv(0x1E, [0x20, 0x2E, 0x00, 0x41]))          // BMPString with U+202E
        return DER.tlv(0x30, parts.flatMap { $0 })
    }

    func assertSafe(_ grid: Grid, sourceLocation: SourceLocation = #_sourceLocation) {
        for (i, cell) in grid.cells.enumerated() {
            let v = cell.scalar.value
            #expect(v >= 0x20 && !(0x7F...0x9F).contains(v), "control U+\(String(v, radix: 16)) at \(i)", sourceLocation: sourceLocation)
            #expect(cell.scalar.properties.generalCategory != .format, "format character at \(i)", sourceLocation: sourceLocation)
            #expect(UIText.isDisplaySafe(cell.scalar), "unsafe or wide U+\(String(v, radix: 16)) at \(i)", sourceLocation: sourceLocation)
        }
    }

    @Test func escapeFunction() {
        #expect(UIText.escape("\u{1B}[31m") == "\\x1b[31m")
        #expect(UIText.escape("a\u{202E}b") == "a\\u{202E}b")
        #expect(UIText.escape("\u{07}\u{00}\u{7F}") == "\\x07\\x00\\x7f")
        #expect(UIText.escape("中") == "\\u{4E2D}")
        #expect(UIText.escape("😀") == "\\u{1F600}")
        #expect(UIText.escape("é ñ ß Ω Ж") == "é ñ ß Ω Ж")
        #expect(UIText.escape("back\\slash") == "back\\\\slash")
        #expect(UIText.escape(utf8: [0x61, 0xC3, 0x28]) == "a\\xc3(")
        let once = UIText.guardDisplay("x\u{1B}中")
        #expect(once == "x\\x1b\\u{4E2D}")
        #expect(UIText.guardDisplay(once) == once)
    }

    @Test func handBuiltHostileTreeRendersEscaped() {
        var s = Fixtures.state(Self.hostileBytes, name: "evil\u{1B}]0;name\u{07}.der", size: GridSize(width: 120, height: 40))
        press(&s, .character("E"))
        var text = ""
        for node in 0..<s.tree.count {
            s.selectOutlineRow(node)
            for size in [GridSize(width: 120, height: 40), GridSize(width: 80, height: 24)] {
                let grid = render(s, size: size)
                assertSafe(grid)
                text += grid.text
            }
        }
        #expect(text.contains("\\x1b[31mred\\x07\\x00"))
        #expect(text.contains("abc\\u{202E}fed.exe"))
        #expect(text.contains("\\u{4E2D}\\u{6587}\\u{1F600}e\\u{0301}"))
        #expect(text.contains("a\\xc3(b"))
        #expect(text.contains("evil\\x1b]0;name\\x07.der"))    // the file name in the status bar
        #expect(text.contains("A\\x1b[2J"))
    }

    @Test func hostileSampleEverywhere() throws {
        var s = try #require(Fixtures.sampleState("malformed-hostile-strings.receipt", size: GridSize(width: 120, height: 40)))
        press(&s, .character("E"))
        var text = ""
        var guardCount = 0
        repeat {
            let grid = render(s, size: GridSize(width: 120, height: 40))
            assertSafe(grid)
            text += grid.text
            press(&s, .pageDown)
            guardCount += 1
        } while s.outlineNext(s.outlineView.selection) != nil && guardCount < 200
        for mode in ["2", "3"] {
            press(&s, .character(Character(mode)))
            let grid = render(s, size: GridSize(width: 120, height: 40))
            assertSafe(grid)
            text += grid.text
        }
        #expect(text.contains("\\x1b[31mred\\x1b[0m"))
        #expect(text.contains("\\u{202E}"))
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
    }

    @Test func asciiModeEscapesNonASCIIInput() {
        var s = Fixtures.state(DER.utf8("café 中"), name: "x.der", size: GridSize(width: 80, height: 24))
        s.preferences.ascii = true
        let text = render(s, size: GridSize(width: 80, height: 24)).text
        #expect(text.contains("caf\\u{00E9} \\u{4E2D}"))
    }

    @Test func asciiModeHasNoBoxDrawing() {
        var s = Fixtures.sample(size: GridSize(width: 120, height: 40))
        s.preferences.ascii = true
        for keys in [[InputEvent](), [.character("2")], [.character("3")], [.character("1"), .character("?")]] {
            for k in keys { press(&s, k) }
            let grid = render(s, size: GridSize(width: 120, height: 40))
            #expect(!grid.cells.contains { (0x2500...0x259F).contains($0.scalar.value) || $0.scalar == "▸" || $0.scalar == "▾" })
            #expect(!grid.cells.contains { $0.scalar == "✓" || $0.scalar == "✗" || $0.scalar == "›" })
            #expect(grid.cells.allSatisfy { $0.scalar.value >= 0x20 && $0.scalar.value < 0x7F }, "ASCII mode: every cell is ASCII")
        }
    }
}
