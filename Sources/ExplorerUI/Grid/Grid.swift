/// Colours the renderer may ask for; the adapter maps them to terminal colour pairs.
public enum UIColor: UInt8, Sendable, CaseIterable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white, brightBlack
}

/// How one cell looks. Kept small and comparable so a grid's style mask is cheap to snapshot.
public struct CellStyle: Hashable, Sendable {
    public var foreground: UIColor
    public var background: UIColor
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(foreground: UIColor = .default, background: UIColor = .default, bold: Bool = false,
                dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
}

/// One screen position. `scalar` is always printable: the renderer escapes everything from the
/// input before it reaches a cell, so the adapter can copy cells to the terminal verbatim.
public struct Cell: Equatable, Sendable {
    public var scalar: Unicode.Scalar
    public var style: CellStyle

    public init(_ scalar: Unicode.Scalar = " ", style: CellStyle = .plain) {
        self.scalar = scalar
        self.style = style
    }
}

public struct GridSize: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The whole screen as the pure render function produces it.
public struct Grid: Equatable, Sendable {
    public let size: GridSize
    public private(set) var cells: [Cell]

    public init(size: GridSize) {
        self.size = size
        self.cells = Array(repeating: Cell(), count: max(0, size.width * size.height))
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * size.width + x] }
        set {
            guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
            cells[y * size.width + x] = newValue
        }
    }

    /// Writes text from (x, y), clipped to `maxWidth` and the grid; returns the column after it.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < size.height else { return x }
        let limit = min(size.width, x + (maxWidth ?? size.width))
        var column = x
        for scalar in text.unicodeScalars {
            guard column < limit else { break }
            if column >= 0 { cells[y * size.width + column] = Cell(scalar, style: style) }
            column += 1
        }
        return column
    }

    public mutating func fill(x: Int, y: Int, width: Int, height: Int, style: CellStyle = .plain) {
        for row in max(0, y)..<min(size.height, y + height) {
            for column in max(0, x)..<min(size.width, x + width) {
                cells[row * size.width + column] = Cell(" ", style: style)
            }
        }
    }

    /// The screen's text, one line per row, trailing spaces kept (snapshot tests compare this).
    public var text: String {
        (0..<size.height).map { row in
            String(String.UnicodeScalarView(cells[(row * size.width)..<((row + 1) * size.width)].map(\.scalar)))
        }.joined(separator: "\n")
    }
}
