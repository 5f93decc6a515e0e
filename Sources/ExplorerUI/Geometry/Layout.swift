/// A rectangle of cells.
public struct GridRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}

/// Where each pane goes for a screen size. Shared by `render` and the reducer (page sizes, mouse
/// hit tests), so the two can never disagree.
///
/// - At least 100 columns (`wide`): tree on the left; hex pane above detail pane on the right.
/// - Narrower (`stacked`): tree, hex, detail stacked; the hex pane shows 8 bytes a row when 16 do not fit.
/// - Receipt views (`single`): one full-width pane.
/// - Below 60×16: `tooSmall`, a centred message and nothing else.
/// Row 0 is the header (tabs, messages); the last row is the status bar (or the prompt).
public struct Layout: Equatable, Sendable {
    public enum Kind: Sendable { case tooSmall, wide, stacked, single }
    public static let minimum = GridSize(width: 60, height: 16)
    public static let wideThreshold = 100

    public var kind: Kind
    public var size: GridSize
    /// Inner (content) rectangles; nil when the pane is not shown.
    public var tree: GridRect?
    public var hex: GridRect?
    public var detail: GridRect?
    public var main: GridRect?
    /// x of the vertical divider in the wide layout; y of the horizontal dividers (with their titles).
    public var splitX: Int = 0
    public var hexTitleY: Int = 0
    public var detailTitleY: Int = 0
    public var bytesPerRow: Int = 16
    public var offsetDigits: Int = 4

    public init(size: GridSize, state: AppState) {
        self.init(size: size, mode: state.mode, hexVisible: state.hexView.visible, byteCount: state.tree.bytes.count,
                  base: state.preferences.offsetBase)
    }

    public init(size: GridSize, mode: ViewMode, hexVisible: Bool, byteCount: Int, base: OffsetBase) {
        self.size = size
        self.kind = .tooSmall
        let w = size.width, h = size.height
        let maxOffset = max(0, byteCount - 1)
        offsetDigits = base == .hex ? max(4, String(maxOffset, radix: 16).count) : max(4, String(maxOffset).count)
        guard w >= Layout.minimum.width, h >= Layout.minimum.height else { return }
        if mode != .tree {
            kind = .single
            main = GridRect(x: 1, y: 2, width: w - 2, height: h - 4)
            return
        }
        let hex16 = Layout.hexWidth(bytesPerRow: 16, offsetDigits: offsetDigits)
        let hex8 = Layout.hexWidth(bytesPerRow: 8, offsetDigits: offsetDigits)
        if w >= Layout.wideThreshold {
            kind = .wide
            let contentHeight = h - 4          // header, top border, bottom border, status
            if hexVisible {
                if w - hex16 - 3 >= 36 {
                    bytesPerRow = 16
                    splitX = w - hex16 - 2
                } else {
                    bytesPerRow = 8
                    splitX = w / 2
                }
            } else {
                splitX = w * 11 / 20
            }
            tree = GridRect(x: 1, y: 2, width: splitX - 1, height: contentHeight)
            let rightX = splitX + 1, rightWidth = w - splitX - 2
            if hexVisible {
                let hexRows = max(3, min((contentHeight - 1) * 2 / 5, (contentHeight - 1) - 3))
                hex = GridRect(x: rightX, y: 2, width: rightWidth, height: hexRows)
                hexTitleY = 1
                detailTitleY = 2 + hexRows
                detail = GridRect(x: rightX, y: detailTitleY + 1, width: rightWidth, height: contentHeight - hexRows - 1)
            } else {
                detailTitleY = 1
                detail = GridRect(x: rightX, y: 2, width: rightWidth, height: contentHeight)
            }
        } else {
            kind = .stacked
            let innerWidth = w - 2
            bytesPerRow = innerWidth >= hex16 ? 16 : 8
            let showHex = hexVisible && innerWidth >= hex8
            let contentHeight = h - 4 - 1 - (showHex ? 1 : 0)   // header, borders, status, dividers
            var hexRows = 0
            if showHex { hexRows = max(2, min(8, contentHeight / 5)) }
            let detailRows = max(3, contentHeight * 3 / 10)
            let treeRows = contentHeight - hexRows - detailRows
            tree = GridRect(x: 1, y: 2, width: innerWidth, height: treeRows)
            var y = 2 + treeRows
            if showHex {
                hexTitleY = y
                hex = GridRect(x: 1, y: y + 1, width: innerWidth, height: hexRows)
                y += 1 + hexRows
            }
            detailTitleY = y
            detail = GridRect(x: 1, y: y + 1, width: innerWidth, height: detailRows)
        }
    }

    /// Columns needed for one hex row: offset, two spaces, the bytes (groups of 8 separated by two
    /// spaces), two spaces, the ASCII column.
    public static func hexWidth(bytesPerRow: Int, offsetDigits: Int) -> Int {
        let groups = bytesPerRow / 8
        return offsetDigits + 2 + groups * 23 + (groups - 1) * 2 + 2 + bytesPerRow
    }
}

/// Where the header tabs and the help overlay go: geometry the renderer draws into and the reducer
/// hit-tests against.
extension Layout {
    static let programName = " receipt-explorer "

    /// x ranges and labels of the header's view tabs, in `ViewMode.allCases` order.
    static func tabs(purchaseCount: Int?) -> [(ViewMode, Range<Int>, String)] {
        var x = programName.count + 1
        var out: [(ViewMode, Range<Int>, String)] = []
        for (i, mode) in ViewMode.allCases.enumerated() {
            var label = " \(i + 1) \(mode.title)"
            if mode == .purchases, let n = purchaseCount { label += " (\(n))" }
            label += " "
            out.append((mode, x..<(x + label.count), label))
            x += label.count + 1
        }
        return out
    }

    /// The view tab under column `x` of the header row.
    public static func tab(at x: Int, purchaseCount: Int?) -> ViewMode? {
        tabs(purchaseCount: purchaseCount).first { $0.1.contains(x) }?.0
    }

    /// The help overlay's frame for `lineCount` lines of help.
    public static func helpFrame(for size: GridSize, lineCount: Int) -> GridRect {
        let width = min(size.width - 4, 96)
        let height = min(size.height - 2, lineCount + 2)
        return GridRect(x: (size.width - width) / 2, y: (size.height - height) / 2, width: width, height: height)
    }
}
