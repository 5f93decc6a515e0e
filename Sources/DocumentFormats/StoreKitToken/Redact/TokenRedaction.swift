import ASN1Lenient
import JWSKit
import ByteText
import DocumentCore
import DocumentRedact

/// The token kinds' part of `redact`: each token's segments and place in its holder, and its ES256
/// signature over header.payload (the values themselves are in the JSON layers, found by the shared code).
enum TokenRedaction {
    static func parts(_ document: Document) -> RedactionParts {
        var parts = RedactionParts()
        for token in document.jws?.tokens ?? [] {
            let roles: [(LayerID?, JWSSegment.Role)] = [(token.layers.header, .header), (token.layers.payload, .payload),
                                                        (token.layers.signature, .signature)]
            let segments = roles.compactMap { layer, role in
                layer.flatMap { layer in token.document.segment(role).map { (layer: layer, characters: $0.characterRange) } }
            }
            let holder = document.layers[token.layers.token.index].parent
            parts.tokens.append(.init(segments: segments, inHolder: holder.map { TargetSpot(layer: $0, range: token.rangeInParent) }))
            let name = token.path.map { "token \(TerminalSafe.escape($0))" } ?? "the token"
            parts.signatures.append(.init(layers: [token.layers.token],
                                          note: "\(name): its ES256 signature no longer verifies: it signs the token's header.payload text, which changed"))
        }
        return parts
    }
}
