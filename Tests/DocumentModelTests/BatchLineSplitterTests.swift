import DocumentBatch
import Testing
import TestSupport

/// `--lines` splitting: whatever the chunks the bytes arrive in, the lines are the same, CR before
/// LF is dropped (also when the CR ends one chunk and the LF starts the next), a last line without
/// LF counts, empty lines are lines, and other bytes (NUL, a lone CR) stay as they are.
@Suite
struct BatchLineSplitterTests {
    static func split(_ bytes: [UInt8], chunks sizes: [Int]) -> [[UInt8]] {
        var splitter = BatchLineSplitter()
        var lines: [[UInt8]] = []
        var at = 0
        var next = 0
        while at < bytes.count {
            let size = max(1, sizes[next % sizes.count])
            next += 1
            let end = min(bytes.count, at + size)
            splitter.feed(Array(bytes[at..<end])) { lines.append($0) }
            at = end
        }
        splitter.finish { lines.append($0) }
        return lines
    }

    static let text: [UInt8] = Array("eyJ.a.b\r\n\n\r\nplain\rline\n\u{0}x\r\rlast".utf8)
    static let expected: [[UInt8]] = ["eyJ.a.b", "", "", "plain\rline", "\u{0}x\r\rlast"].map { Array($0.utf8) }

    @Test("one chunk: the exact lines")
    func oneChunk() {
        #expect(Self.split(Self.text, chunks: [1 << 20]) == Self.expected)
    }

    @Test("every chunk size from 1 to the whole, and mixed sizes: the same lines")
    func everyChunking() {
        for size in 1...Self.text.count {
            #expect(Self.split(Self.text, chunks: [size]) == Self.expected, "chunks of \(size)")
        }
        var random = SplitMix64(state: 7)
        for _ in 0..<200 {
            let sizes = (0..<5).map { _ in Int(random.next() % 9) + 1 }
            #expect(Self.split(Self.text, chunks: sizes) == Self.expected, "chunks \(sizes)")
        }
    }

    @Test("a CR that ends one chunk before the LF that starts the next is dropped")
    func crAtTheChunkEdge() {
        let bytes = Array("ab\r\ncd".utf8)
        #expect(Self.split(bytes, chunks: [3, 100]) == [Array("ab".utf8), Array("cd".utf8)])
        #expect(Self.split(Array("\r\n".utf8), chunks: [1, 1]) == [[]])
    }

    @Test("the input's last LF starts no line; nothing gives nothing")
    func ends() {
        #expect(Self.split(Array("a\n".utf8), chunks: [1]) == [Array("a".utf8)])
        #expect(Self.split([], chunks: [1]) == [])
        #expect(Self.split(Array("\n".utf8), chunks: [4]) == [[]])
    }
}
