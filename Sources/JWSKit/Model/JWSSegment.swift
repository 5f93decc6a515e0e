/// One of the three dot-separated parts of a compact JWS, with its decoded bytes.
public struct JWSSegment: Sendable, Equatable {
    public enum Role: String, Sendable, CaseIterable {
        case header, payload, signature
    }

    public var role: Role
    /// Its base64url characters in the token text (the dots excluded).
    public var characterRange: Range<Int>
    /// The decoded bytes: a layer of its own.
    public var bytes: [UInt8]
    /// Decoded byte ↔ token character.
    public var map: Base64Map
}
