import ASN1Lenient
import JSONLenient
import JWSKit
import TextOutput
import DocumentCore

/// Where a piece of a token sits, in the units each output names: decoded-JSON bytes of its
/// layer, and characters of the token text.
public struct JWSSpan: Sendable, Equatable {
    /// Bytes of the layer (header / payload JSON, signature, DER).
    public var bytes: Range<Int>
    /// Characters of the token (offsets from the token's first character).
    public var characters: Range<Int>

    public init(bytes: Range<Int>, characters: Range<Int>) {
        self.bytes = bytes
        self.characters = characters
    }

    /// "12-45", "12", "at 12".
    public static func text(_ range: Range<Int>) -> String { RangeText.span(range) }

    /// "chars 10-13, bytes 3-5".
    public var text: String { "chars \(JWSSpan.text(characters)), bytes \(JWSSpan.text(bytes))" }
}

extension Document {
    /// The token characters and the layer's bytes of `range` in `layer` (a header, payload,
    /// signature or x5c layer of `token`).
    public func jwsSpan(_ range: Range<Int>, in layer: LayerID, token: JWSToken) -> JWSSpan {
        var current = layer
        var r = range
        while current != token.layers.token, let parent = layers[current.index].parent, let map = layers[current.index].map {
            r = map.parentRange(r)
            current = parent
        }
        return JWSSpan(bytes: range, characters: r)
    }

    /// The layer holding the token characters at `offset` of the file and the token, innermost
    /// first (a nested token inside its notification), for `explain --offset`.
    public func jwsToken(atFileOffset offset: Int) -> Int? {
        guard let jws else { return nil }
        var best: Int?
        for (index, token) in jws.tokens.enumerated() {
            let range = fileRange(0..<token.document.text.count, in: token.layers.token)
            if range.contains(offset) { best = index }  // later tokens are nested deeper
        }
        return best
    }
}
