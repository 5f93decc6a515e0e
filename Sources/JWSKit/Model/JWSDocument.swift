import ByteText
import ASN1Lenient
import JSONLenient

/// A StoreKit 2 compact JWS, decoded with positions. Entry points:
///
///     let document = JWSDocument.decode(text: tokenBytes, textOffset: 0)
///     document.segments          // header / payload / signature: character ranges + decoded layers
///     document.headerJSON        // JSONTree of the header; document.header.alg, .certificates (x5c DER + ASN.1 trees)
///     document.payloadJSON       // JSONTree of the payload
///     document.payload           // StoreKitPayload: kind, schema-decoded fields, unknown fields
///     document.nested            // a notification's signedTransactionInfo / signedRenewalInfo, decoded in place
///     document.signingInput      // the exact ASCII `header.payload` the ES256 signature covers
///     document.signature         // ECDSASignature (r, s, .raw, .der) when the segment is 64 bytes
///     document.diagnostics       // every problem, with the layer its range refers to
///
/// and, for any pasted input, `StoreKitInput.classify(bytes)` says what it is and where its tokens are.
///
/// Offsets in the `.token` layer count from the token's first character; `textOffset` is where
/// that character sits in the enclosing layer (0 for a token pasted alone; the string content in
/// the parent payload for a nested token).
public struct JWSDocument: Sendable {
    public var text: ByteWindow
    public var textOffset: Int
    /// Present in token order; fewer than three when the token is malformed.
    public var segments: [JWSSegment]
    public var headerJSON: JSONTree?
    public var payloadJSON: JSONTree?
    public var header: JOSEHeader
    public var payload: StoreKitPayload
    public var signature: ECDSASignature?
    public var nested: [NestedToken]
    public var diagnostics: [JWSDiagnostic]
    /// An Advanced Commerce in-app request's decoded `request` claim.
    public var request: AdvancedCommerceRequest? = nil

    public func segment(_ role: JWSSegment.Role) -> JWSSegment? { segments.first { $0.role == role } }

    /// `header.payload` exactly as in the token: what ES256 signs. A slice of the token's text, not a
    /// copy (8 KB a batch line on average, copied only to be hashed); its indices are the text's base's.
    public var signingInput: ArraySlice<UInt8> {
        guard let payload = segment(.payload) else { return [] }
        return text.baseSlice(0..<payload.characterRange.upperBound)
    }

    /// The raw signature bytes (r‖s for a well-formed ES256 token).
    public var signatureBytes: [UInt8] { segment(.signature)?.bytes ?? [] }

    /// A token-layer range in the enclosing layer.
    public func enclosingRange(_ range: Range<Int>) -> Range<Int> {
        (range.lowerBound + textOffset)..<(range.upperBound + textOffset)
    }

    /// The worst severity among the diagnostics of this token and its nested tokens.
    public var worstSeverity: Severity? {
        (diagnostics.map(\.diagnostic.severity) + nested.compactMap(\.document.worstSeverity)).min()
    }
}

/// A JWS carried as a string inside another token's payload.
public struct NestedToken: Sendable {
    /// Where it sits in the parent's payload: "data.signedTransactionInfo".
    public var path: String
    /// The JSON string node in the parent's payload layer.
    public var node: JSONNodeIndex
    public var document: JWSDocument
}
