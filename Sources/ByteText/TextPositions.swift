/// Line and character (both from 1; a character is a UTF-8 scalar, a line ends at LF) of byte
/// offsets in one text. It keeps a checkpoint every 4 KB, so each lookup reads at most 4 KB. A
/// paste with thousands of candidates used to scan from the start of the text for each one: a
/// 1 MiB line took 2 s (docs/robustness.md, finding 19).
public struct TextPositions: Sendable {
    static let stride = 4096
    /// The text's length.
    public let count: Int
    /// `marks[k]`: the position of offset `k * stride` (and of the end when it falls on one).
    private let marks: [(line: Int, character: Int)]
    /// The bytes of the blocks (of `stride` bytes from a mark) that hold a line end or a byte that
    /// is not ASCII, one after another; in any other block a position is its mark's plus the
    /// offset's distance from it. A 67 MB line of base64 was kept whole for a few places in it
    /// (issue 32); a text of many lines keeps about all of itself, as before.
    private let kept: [UInt8]
    /// Per block, where its bytes start in `kept`; -1 for a plain block.
    private let keptAt: [Int32]

    public init(_ text: [UInt8]) {
        count = text.count
        var marks: [(line: Int, character: Int)] = []
        marks.reserveCapacity(text.count / Self.stride + 1)
        var kept: [UInt8] = []
        var keptAt: [Int32] = []
        keptAt.reserveCapacity(text.count / Self.stride + 1)
        var position = (line: 1, character: 1)
        text.withUnsafeBufferPointer { bytes in
            var start = 0
            while start < bytes.count {
                marks.append(position)
                let block = UnsafeBufferPointer(rebasing: bytes[start..<min(bytes.count, start + Self.stride)])
                var plain = true
                for byte in block {
                    if byte == 0x0A || byte >= 0x80 { plain = false }
                    Self.advance(&position, over: byte)
                }
                if plain {
                    keptAt.append(-1)
                } else {
                    keptAt.append(Int32(kept.count))
                    kept.append(contentsOf: block)
                }
                start += Self.stride
            }
        }
        if text.count % Self.stride == 0 { marks.append(position) }
        self.marks = marks
        self.kept = kept
        self.keptAt = keptAt
    }

    /// Where byte `offset` starts (offsets past the end give the end, negative ones the start).
    public func position(of offset: Int) -> (line: Int, character: Int) {
        let end = max(0, min(offset, count))
        let mark = end / Self.stride
        var position = marks[mark]
        let distance = end - mark * Self.stride
        guard distance > 0 else { return position }
        let at = Int(keptAt[mark])
        guard at >= 0 else {
            position.character += distance
            return position
        }
        kept.withUnsafeBufferPointer { bytes in
            for i in at..<(at + distance) { Self.advance(&position, over: bytes[i]) }
        }
        return position
    }

    @inline(__always)
    private static func advance(_ position: inout (line: Int, character: Int), over byte: UInt8) {
        if byte == 0x0A {
            position = (position.line + 1, 1)
        } else if byte & 0xC0 != 0x80 {
            position.character += 1
        }
    }
}
