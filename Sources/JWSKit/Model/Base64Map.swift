/// Links decoded base64 / base64url bytes to the characters that encode them: 3 bytes ↔ 4
/// characters, counted from `textStart` in the text layer (the same arithmetic as DocumentModel's
/// `OffsetMap.base64`, which the Document uses for the layer link). Exact because the decoder
/// never skips a character (a bad one decodes as zero bits).
public struct Base64Map: Sendable, Equatable {
    public var textStart: Int

    public init(textStart: Int) { self.textStart = textStart }

    /// The characters carrying any bit of the decoded bytes `range`.
    public func characterRange(ofBytes range: Range<Int>) -> Range<Int> {
        let start = textStart + (range.lowerBound * 8) / 6
        let end = textStart + (range.upperBound * 8 + 5) / 6
        return start..<max(start, end)
    }

    /// The first decoded byte a character contributes to.
    public func byteOffset(ofCharacter offset: Int) -> Int {
        ((offset - textStart) * 6) / 8
    }
}
