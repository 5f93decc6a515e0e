import CNcursesShim
import ExplorerUI

/// Copies grids to the curses screen: only the cells that changed since the previous grid,
/// styles mapped to attributes and colour pairs allocated on first use.
final class Screen {
    let colors: Bool
    let unicode: Bool
    private var previous: Grid?
    private var styleCache: [CellStyle: (flags: Int32, pair: Int32)] = [:]
    private var pairs: [UInt16: Int32] = [:]
    private var nextPair: Int32 = 1
    private let maxPairs: Int32
    private let defaultColors: Bool
    private let brightColors: Bool

    init(colors: Bool, unicode: Bool, defaultColors: Bool) {
        self.colors = colors
        self.unicode = unicode
        self.defaultColors = defaultColors
        self.maxPairs = colors ? min(cn_color_pairs(), 32767) : 0
        self.brightColors = colors && cn_colors() >= 16
    }

    /// Forget what is on screen (after a resize or a resume): the next copy writes every cell.
    func invalidate() { previous = nil }

    /// Returns the number of cells written.
    @discardableResult
    func copy(_ grid: Grid) -> Int {
        let width = grid.size.width
        let height = grid.size.height
        let screenWidth = Int(cn_cols())
        let screenHeight = Int(cn_lines())
        let full: Bool
        if let previous, previous.size == grid.size { full = false } else { full = true }
        if full { cn_erase() }
        let cells = grid.cells
        let oldCells = full ? [] : previous!.cells
        previous = grid
        var written = 0
        for y in 0..<min(height, screenHeight) {
            let row = y * width
            for x in 0..<min(width, screenWidth) {
                let cell = cells[row + x]
                if !full && oldCells[row + x] == cell { continue }
                let (flags, pair) = attributes(cell.style)
                let scalar = ScalarGuard.displayable(cell.scalar, unicode: unicode, width: { cn_wcwidth($0) })
                _ = cn_put(Int32(y), Int32(x), scalar, flags, pair)
                written += 1
            }
        }
        return written
    }

    private func attributes(_ style: CellStyle) -> (flags: Int32, pair: Int32) {
        if let cached = styleCache[style] { return cached }
        var flags: Int32 = 0
        if style.bold { flags |= Int32(CN_BOLD) }
        if style.dim { flags |= Int32(CN_DIM) }
        if style.reverse { flags |= Int32(CN_REVERSE) }
        if style.underline { flags |= Int32(CN_UNDERLINE) }
        var pair: Int32 = 0
        if colors, style.foreground != .default || style.background != .default {
            var foreground = style.foreground
            if foreground == .brightBlack && !brightColors {
                // Eight-colour terminal: grey text becomes dimmed default text.
                foreground = .default
                flags |= Int32(CN_DIM)
            }
            pair = self.pair(foreground: foreground, background: style.background)
        }
        styleCache[style] = (flags, pair)
        return (flags, pair)
    }

    private func pair(foreground: UIColor, background: UIColor) -> Int32 {
        let key = UInt16(foreground.rawValue) << 8 | UInt16(background.rawValue)
        if let known = pairs[key] { return known }
        guard nextPair < maxPairs else { return 0 }
        let number = nextPair
        guard cn_init_pair(number, curses(foreground, isBackground: false), curses(background, isBackground: true)) != 0 else {
            pairs[key] = 0
            return 0
        }
        nextPair += 1
        pairs[key] = number
        return number
    }

    private func curses(_ color: UIColor, isBackground: Bool) -> Int32 {
        switch color {
        case .default: return defaultColors ? -1 : Int32(isBackground ? CN_COLOR_BLACK : CN_COLOR_WHITE)
        case .black: return Int32(CN_COLOR_BLACK)
        case .red: return Int32(CN_COLOR_RED)
        case .green: return Int32(CN_COLOR_GREEN)
        case .yellow: return Int32(CN_COLOR_YELLOW)
        case .blue: return Int32(CN_COLOR_BLUE)
        case .magenta: return Int32(CN_COLOR_MAGENTA)
        case .cyan: return Int32(CN_COLOR_CYAN)
        case .white: return Int32(CN_COLOR_WHITE)
        case .brightBlack: return brightColors ? 8 : Int32(CN_COLOR_BLACK)
        }
    }
}
