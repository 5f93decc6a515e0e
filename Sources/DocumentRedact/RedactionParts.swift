import ASN1Lenient
import DocumentCore

/// Redact's hook: what a kind gives `redact` beside the JSON layers (its own values for `fields`,
/// the strings that may mention one, its tokens, what its signatures cover) and why it cannot be
/// rewritten, if it cannot. A format conforms in its folder; without it: nothing of its own, no refusal.
public protocol RedactionSource {
    func redactionParts(_ document: Document, fields: Set<RedactField>) -> RedactionParts
    /// Why `redact` cannot rewrite such a document; nil when it can.
    func redactionRefusal(_ document: Document) -> String?
}

extension RedactionSource {
    public func redactionParts(_ document: Document, fields: Set<RedactField>) -> RedactionParts { RedactionParts() }
    public func redactionRefusal(_ document: Document) -> String? { nil }
}

extension Document {
    /// The format's `RedactionSource.redactionParts`, or nothing.
    public func redactionParts(fields: Set<RedactField>) -> RedactionParts {
        (format as? any RedactionSource)?.redactionParts(self, fields: fields) ?? RedactionParts()
    }

    /// The format's `RedactionSource.redactionRefusal`, or none.
    public var redactionRefusal: String? { (format as? any RedactionSource)?.redactionRefusal(self) }
}

/// What a kind gives `redact` (its format's `redactionParts`): the values it holds outside the
/// JSON layers, the strings where a run value may be mentioned, its tokens' segments and what its
/// signatures cover. The shared Redact code works on these and never reads a kind's model.
public struct RedactionParts {
    /// Calls its argument with each value to replace, in document order (a receipt's attributes);
    /// JSON values are found by the shared code in every payload and body layer. Walked, not
    /// listed: the copy's check compares each with the original's as it is found (a list was
    /// 11 MB for 20,000 purchases; issue 32).
    package var forEachTarget: ((RedactTarget) -> Void) -> Void = { _ in }
    /// Values of a redacted field left as they are, with why.
    package var notReplaced: [String] = []
    /// Calls its argument with each string outside the JSON layers that may mention a replaced
    /// value (a receipt's string attributes). Walked when mentions are looked for, not listed: a
    /// 20,000-purchase receipt has 240,000 of them (34 MB as a list; issue 32).
    package var forEachMentionPlace: ((MentionPlace) -> Void) -> Void = { _ in }
    /// The document's tokens: their segments (for writing a changed layer back into its token's
    /// characters) and where each sits in its holder (a token string is not searched for mentions).
    package var tokens: [RedactedToken] = []
    /// The layers each signature covers, and what the summary says when one of them changed.
    package var signatures: [SignedLayers] = []

    /// Nothing: a kind with no values of its own (the JSON layers are still searched).
    public init() {}

    package struct MentionPlace {
        package var layer: LayerID
        package var range: Range<Int>
        /// "in-app purchase #1, product_id": terminal-safe as built.
        package var location: RedactPlace
        package init(layer: LayerID, range: Range<Int>, location: RedactPlace) {
            self.layer = layer
            self.range = range
            self.location = location
        }
    }

    package struct RedactedToken {
        /// The header, payload and signature layers with the token-layer characters each decodes.
        package var segments: [(layer: LayerID, characters: Range<Int>)]
        /// The token's characters in its holder's layer; nil for a token that is the input.
        package var inHolder: TargetSpot?
        package init(segments: [(layer: LayerID, characters: Range<Int>)], inHolder: TargetSpot? = nil) {
            self.segments = segments
            self.inHolder = inHolder
        }
    }

    package struct SignedLayers {
        package var layers: [LayerID]
        package var note: String
        package init(layers: [LayerID], note: String) {
            self.layers = layers
            self.note = note
        }
    }
}
