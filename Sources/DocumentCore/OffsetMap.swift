import ByteText
/// How the bytes of a layer sit in its parent layer, so that any node can be shown in every
/// enclosing layer (down to the file's own bytes).
public enum OffsetMap: Sendable, Equatable {
    /// Copied 1:1 from the parent in pieces (the chunks of a constructed OCTET STRING).
    case segments([Segment])
    /// Decoded from unpadded base64 / base64url text without whitespace that starts at `textStart`
    /// in the parent (a JWS segment, an `x5c` entry): 3 bytes ↔ 4 characters.
    case base64(textStart: Int)
    /// Decoded from base64 text whose characters are not contiguous in the parent (an `x5c` entry
    /// with JSON `\/` escapes): the parent offset of each base64 character, in order.
    case base64Characters(OffsetList)

    public struct Segment: Sendable, Equatable {
        /// Offset in this layer.
        public var layerOffset: Int
        /// Offset of the same byte in the parent layer.
        public var parentOffset: Int
        public var length: Int

        public init(layerOffset: Int, parentOffset: Int, length: Int) {
            self.layerOffset = layerOffset
            self.parentOffset = parentOffset
            self.length = length
        }
    }

    /// The parent offset of the first parent byte (or character) that encodes `offset`.
    public func parentOffset(_ offset: Int) -> Int {
        switch self {
        case .segments(let segments):
            guard let last = segments.last else { return offset }
            // Segments are in layer order; a binary search keeps big reassembled payloads cheap.
            var lo = 0, hi = segments.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if segments[mid].layerOffset + segments[mid].length <= offset { lo = mid + 1 } else { hi = mid }
            }
            if lo < segments.count {
                let s = segments[lo]
                return s.parentOffset + max(0, offset - s.layerOffset)
            }
            return last.parentOffset + last.length + (offset - last.layerOffset - last.length)
        case .base64(let textStart):
            return textStart + (offset * 8) / 6
        case .base64Characters(let offsets):
            guard let last = offsets.last else { return offset }
            let character = (offset * 8) / 6
            return character < offsets.count ? offsets[character] : last + 1 + (character - offsets.count)
        }
    }

    /// The parent range that encodes `range` (chunk headers in between, or the base64 characters
    /// that carry any of its bits, included).
    public func parentRange(_ range: Range<Int>) -> Range<Int> {
        switch self {
        case .segments:
            let start = parentOffset(range.lowerBound)
            guard !range.isEmpty else { return start..<start }
            return start..<(parentOffset(range.upperBound - 1) + 1)
        case .base64(let textStart):
            let start = textStart + (range.lowerBound * 8) / 6
            let end = textStart + (range.upperBound * 8 + 5) / 6
            return start..<max(start, end)
        case .base64Characters(let offsets):
            let start = parentOffset(range.lowerBound)
            guard !range.isEmpty, let last = offsets.last else { return start..<start }
            let lastCharacter = (range.upperBound * 8 + 5) / 6 - 1
            let end = lastCharacter < offsets.count ? offsets[lastCharacter] + 1 : last + 1
            return start..<max(start, end)
        }
    }

    /// The offset in this layer of the byte that parent byte (or character) `offset` encodes: the
    /// inverse of `parentOffset`, for going from a file offset down to the innermost layer. Nil
    /// when the parent byte is outside the mapped bytes (a chunk header, a JSON escape's `\`
    /// before the first character).
    public func layerOffset(fromParent offset: Int) -> Int? {
        switch self {
        case .segments(let segments):
            var lo = 0, hi = segments.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if segments[mid].parentOffset <= offset { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return nil }
            let s = segments[lo - 1]
            return offset < s.parentOffset + s.length ? s.layerOffset + (offset - s.parentOffset) : nil
        case .base64(let textStart):
            return offset >= textStart ? (offset - textStart) * 6 / 8 : nil
        case .base64Characters(let offsets):
            // The last character at or before `offset` (an escape's backslash goes with the next one's group).
            var lo = 0, hi = offsets.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if offsets[mid] <= offset { lo = mid + 1 } else { hi = mid }
            }
            return lo > 0 ? (lo - 1) * 6 / 8 : nil
        }
    }
}
