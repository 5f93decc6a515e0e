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
    /// The fields, behind one reference: a document is handed from the classifier to the format,
    /// its layers, its token and its report, and each copy of the eleven fields counted sixteen
    /// references up and down again (a tenth of a batch line's reference counting). Copy on write:
    /// a document is changed only through a storage no other copy holds.
    private var storage: Storage

    public var text: [UInt8] {
        get { storage.text }
        set { unique().text = newValue }
        _modify { yield &unique().text }
    }
    public var textOffset: Int {
        get { storage.textOffset }
        set { unique().textOffset = newValue }
        _modify { yield &unique().textOffset }
    }
    /// Present in token order; fewer than three when the token is malformed.
    public var segments: [JWSSegment] {
        get { storage.segments }
        set { unique().segments = newValue }
        _modify { yield &unique().segments }
    }
    public var headerJSON: JSONTree? {
        get { storage.headerJSON }
        set { unique().headerJSON = newValue }
        _modify { yield &unique().headerJSON }
    }
    public var payloadJSON: JSONTree? {
        get { storage.payloadJSON }
        set { unique().payloadJSON = newValue }
        _modify { yield &unique().payloadJSON }
    }
    public var header: JOSEHeader {
        get { storage.header }
        set { unique().header = newValue }
        _modify { yield &unique().header }
    }
    public var payload: StoreKitPayload {
        get { storage.payload }
        set { unique().payload = newValue }
        _modify { yield &unique().payload }
    }
    public var signature: ECDSASignature? {
        get { storage.signature }
        set { unique().signature = newValue }
        _modify { yield &unique().signature }
    }
    public var nested: [NestedToken] {
        get { storage.nested }
        set { unique().nested = newValue }
        _modify { yield &unique().nested }
    }
    public var diagnostics: [JWSDiagnostic] {
        get { storage.diagnostics }
        set { unique().diagnostics = newValue }
        _modify { yield &unique().diagnostics }
    }
    /// An Advanced Commerce in-app request's decoded `request` claim.
    public var request: AdvancedCommerceRequest? {
        get { storage.request }
        set { unique().request = newValue }
        _modify { yield &unique().request }
    }

    init(text: [UInt8], textOffset: Int, segments: [JWSSegment], headerJSON: JSONTree?, payloadJSON: JSONTree?,
         header: JOSEHeader, payload: StoreKitPayload, signature: ECDSASignature?, nested: [NestedToken],
         diagnostics: [JWSDiagnostic], request: AdvancedCommerceRequest? = nil) {
        storage = Storage(text: text, textOffset: textOffset, segments: segments, headerJSON: headerJSON, payloadJSON: payloadJSON,
                          header: header, payload: payload, signature: signature, nested: nested, diagnostics: diagnostics,
                          request: request)
    }

    /// The storage, first copied when another document shares it.
    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// @unchecked: a storage is written only by the one document that holds it (`unique()`), so one
    /// shared between threads is only ever read.
    private final class Storage: @unchecked Sendable {
        var text: [UInt8]
        var textOffset: Int
        var segments: [JWSSegment]
        var headerJSON: JSONTree?
        var payloadJSON: JSONTree?
        var header: JOSEHeader
        var payload: StoreKitPayload
        var signature: ECDSASignature?
        var nested: [NestedToken]
        var diagnostics: [JWSDiagnostic]
        var request: AdvancedCommerceRequest?

        init(text: [UInt8], textOffset: Int, segments: [JWSSegment], headerJSON: JSONTree?, payloadJSON: JSONTree?, header: JOSEHeader, payload: StoreKitPayload, signature: ECDSASignature?, nested: [NestedToken], diagnostics: [JWSDiagnostic], request: AdvancedCommerceRequest?) {
            self.text = text
            self.textOffset = textOffset
            self.segments = segments
            self.headerJSON = headerJSON
            self.payloadJSON = payloadJSON
            self.header = header
            self.payload = payload
            self.signature = signature
            self.nested = nested
            self.diagnostics = diagnostics
            self.request = request
        }

        func copy() -> Storage {
            Storage(text: text, textOffset: textOffset, segments: segments, headerJSON: headerJSON, payloadJSON: payloadJSON, header: header, payload: payload, signature: signature, nested: nested, diagnostics: diagnostics, request: request)
        }
    }

    public func segment(_ role: JWSSegment.Role) -> JWSSegment? { segments.first { $0.role == role } }

    /// `header.payload` exactly as in the token: what ES256 signs. A slice of the token's text, not a
    /// copy (8 KB a batch line on average, copied only to be hashed).
    public var signingInput: ArraySlice<UInt8> {
        guard let payload = segment(.payload) else { return [] }
        return text[0..<payload.characterRange.upperBound]
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
