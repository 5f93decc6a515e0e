import ASN1Lenient

/// What a kind gives `redact` (its format's `redactionParts`): the values it holds outside the
/// JSON layers, the strings where a run value may be mentioned, its tokens' segments and what its
/// signatures cover. The shared Redact code works on these and never reads a kind's model.
public struct RedactionParts {
    /// Values to replace, in document order (a receipt's attributes); JSON values are found by
    /// the shared code in every payload and body layer.
    var targets: [RedactTarget] = []
    /// Values of a redacted field left as they are, with why.
    var notReplaced: [String] = []
    /// Strings outside the JSON layers that may mention a replaced value (a receipt's string attributes).
    var mentionPlaces: [MentionPlace] = []
    /// The document's tokens: their segments (for writing a changed layer back into its token's
    /// characters) and where each sits in its holder (a token string is not searched for mentions).
    var tokens: [RedactedToken] = []
    /// The layers each signature covers, and what the summary says when one of them changed.
    var signatures: [SignedLayers] = []

    /// Nothing: a kind with no values of its own (the JSON layers are still searched).
    public init() {}

    struct MentionPlace {
        var layer: LayerID
        var range: Range<Int>
        /// "in-app purchase #1, product_id": terminal-safe as built.
        var place: String
    }

    struct RedactedToken {
        /// The header, payload and signature layers with the token-layer characters each decodes.
        var segments: [(layer: LayerID, characters: Range<Int>)]
        /// The token's characters in its holder's layer; nil for a token that is the input.
        var inHolder: TargetSpot?
    }

    struct SignedLayers {
        var layers: [LayerID]
        var note: String
    }
}
