/// The last line of defence between a cell and the terminal. The renderer already escapes
/// everything that came from the input, but whatever reaches this point is vetted again:
/// no C0/C1 control, no DEL, no bidi override or other invisible format character, and
/// nothing that does not occupy exactly one column (it would shift the rest of the row).
enum ScalarGuard {
    static let replacement: UInt32 = 0x3F // "?"

    /// The scalar to write for a cell. `unicode == false` (non-UTF-8 locale) maps the
    /// renderer's few decorative glyphs to ASCII and everything else non-ASCII to "?".
    @inline(__always)
    static func displayable(_ scalar: Unicode.Scalar, unicode: Bool, width: (UInt32) -> Int32) -> UInt32 {
        let value = scalar.value
        if value >= 0x20 && value < 0x7F { return value }
        if value < 0x20 || value <= 0x9F { return replacement } // C0, DEL, C1
        guard unicode else { return asciiFallback(value) }
        if isInvisibleFormat(value) { return replacement }
        return width(value) == 1 ? value : replacement
    }

    /// Bidi embeddings/overrides/isolates, zero-width characters, line/paragraph separators,
    /// BOM, interlinear annotations, tag characters and noncharacter specials: none may be written.
    static func isInvisibleFormat(_ value: UInt32) -> Bool {
        switch value {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x180E, 0x3164, 0xFEFF, 0xFFA0:
            return true
        case 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x206F, 0xFFF0...0xFFFB,
             0xE0000...0xE007F, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0xD800...0xDFFF:
            return true
        default:
            return false
        }
    }

    /// ASCII stand-ins for the renderer's decorations, for terminals that cannot show UTF-8.
    static func asciiFallback(_ value: UInt32) -> UInt32 {
        switch value {
        case 0x2500, 0x2501, 0x2504, 0x2508, 0x254C, 0x2574, 0x2576, 0x2014, 0x2013, 0x2012, 0x2212: return 0x2D // -
        case 0x2550: return 0x3D // =
        case 0x2502, 0x2503, 0x2506, 0x250A, 0x254E, 0x2551, 0x2575, 0x2577: return 0x7C // |
        case 0x250C...0x254B, 0x2552...0x256C, 0x256D...0x2570: return 0x2B // + (corners, tees, crosses)
        case 0x25B6, 0x25B8, 0x25BA, 0x2192, 0x203A, 0x276F, 0x00BB: return 0x3E // >
        case 0x25C0, 0x25C2, 0x25C4, 0x2190, 0x2039, 0x00AB: return 0x3C // <
        case 0x25BC, 0x25BE, 0x2193: return 0x76 // v
        case 0x2717, 0x2718, 0x00D7: return 0x78 // x (a cross)
        case 0x25B2, 0x25B4, 0x2191: return 0x5E // ^
        case 0x2713, 0x2714: return 0x2B // + (a tick)
        case 0x00B7, 0x2022, 0x2219, 0x22C5, 0x2026: return 0x2E // .
        case 0x2588, 0x2591, 0x2592, 0x2593, 0x258C, 0x2590: return 0x23 // #
        case 0x00A0, 0x2002, 0x2003, 0x2009: return 0x20
        case 0x2018, 0x2019: return 0x27 // '
        case 0x201C, 0x201D: return 0x22 // "
        default: return replacement
        }
    }
}
