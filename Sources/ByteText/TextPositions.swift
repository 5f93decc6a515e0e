/// Line and character (both from 1; a character is a UTF-8 scalar, a line ends at LF) of byte
/// offsets in one text. It keeps a checkpoint every 4 KB, so each lookup reads at most 4 KB. A
/// paste with thousands of candidates used to scan from the start of the text for each one: a
/// 1 MiB line took 2 s (docs/robustness.md, finding 19).
public struct TextPositions: Sendable {
    static let stride = 4096
    private let text: [UInt8]
    /// `marks[k]`: the position of offset `k * stride` (and of the end when it falls on one).
    private let marks: [(line: Int, character: Int)]

    public init(_ text: [UInt8]) {
        self.text = text
        var marks: [(line: Int, character: Int)] = []
        marks.reserveCapacity(text.count / Self.stride + 1)
        var position = (line: 1, character: 1)
        text.withUnsafeBufferPointer { bytes in
            for i in bytes.indices {
                if i % Self.stride == 0 { marks.append(position) }
                Self.advance(&position, over: bytes[i])
            }
        }
        if text.count % Self.stride == 0 { marks.append(position) }
        self.marks = marks
    }

    /// Where byte `offset` starts (offsets past the end give the end, negative ones the start).
    public func position(of offset: Int) -> (line: Int, character: Int) {
        let end = max(0, min(offset, text.count))
        let mark = end / Self.stride
        var position = marks[mark]
        text.withUnsafeBufferPointer { bytes in
            for i in (mark * Self.stride)..<end { Self.advance(&position, over: bytes[i]) }
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
