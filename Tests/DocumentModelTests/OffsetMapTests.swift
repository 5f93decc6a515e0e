import DocumentCore
import Testing

/// Offsets through a layer's map, every expected value computed by hand.
@Suite struct OffsetMapTests {
    /// A 15-byte payload sent as two chunks: bytes 0-5 at parent offset 41, bytes 6-14 at 49 (the
    /// second chunk's two header bytes, 47-48, sit in between).
    static let chunks = OffsetMap.segments([
        .init(layerOffset: 0, parentOffset: 41, length: 6),
        .init(layerOffset: 6, parentOffset: 49, length: 9),
    ])

    @Test func segmentOffsets() {
        #expect(Self.chunks.parentOffset(0) == 41)
        #expect(Self.chunks.parentOffset(5) == 46)
        #expect(Self.chunks.parentOffset(6) == 49)
        #expect(Self.chunks.parentOffset(14) == 57)
        // Past the end: continues after the last segment.
        #expect(Self.chunks.parentOffset(15) == 58)
    }

    @Test func segmentRanges() {
        #expect(Self.chunks.parentRange(0..<6) == 41..<47)
        #expect(Self.chunks.parentRange(6..<15) == 49..<58)
        #expect(Self.chunks.parentRange(0..<15) == 41..<58)
        // A range that straddles the chunk boundary takes the second chunk's header with it.
        #expect(Self.chunks.parentRange(4..<7) == 45..<50)
        #expect(Self.chunks.parentRange(3..<3) == 44..<44)
    }

    /// Base64 text starting at parent offset 10: byte n's bits 8n…8n+7 live in characters
    /// ⌊8n/6⌋ … ⌊(8n+7)/6⌋.
    @Test func base64Ranges() {
        let map = OffsetMap.base64(textStart: 10)
        #expect(map.parentOffset(0) == 10)
        #expect(map.parentOffset(1) == 11)
        #expect(map.parentOffset(2) == 12)
        #expect(map.parentOffset(3) == 14)
        #expect(map.parentRange(0..<3) == 10..<14)
        #expect(map.parentRange(0..<1) == 10..<12)
        #expect(map.parentRange(1..<2) == 11..<13)
        #expect(map.parentRange(2..<3) == 12..<14)
        #expect(map.parentRange(3..<4) == 14..<16)
        #expect(map.parentRange(0..<0) == 10..<10)
    }
}
