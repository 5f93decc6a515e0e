/// The shapes the paste finder finds data in: a compact JWS (whole or cut off), base64 of DER, an
/// external purchase token's base64url characters (the loader's `.externalPurchaseToken`).
public enum PasteShape: Sendable, Equatable {
    case token
    case cutOffToken
    case der
    case externalPurchaseToken
}

/// What a format tells the paste finder about its data, declared in its folder
/// (`DocumentFormat.pasteHints`): what a candidate of a shape is worth (the most specific hint that
/// matches wins; more is more specific), and the JSON keys whose value is its data (worth 30 more).
public struct PasteHint: Sendable {
    public var shape: PasteShape
    public var score: Int
    /// Only candidates whose bytes pass (nil: every candidate of the shape).
    public var matches: (@Sendable ([UInt8]) -> Bool)?
    public var keys: Set<String>

    public init(_ shape: PasteShape, score: Int, matches: (@Sendable ([UInt8]) -> Bool)? = nil, keys: Set<String> = []) {
        self.shape = shape
        self.score = score
        self.matches = matches
        self.keys = keys
    }

    /// The PKCS#7 signedData OID (1.2.840.113549.1.7.2) near the start: a receipt's outer ContentInfo.
    public static func isSignedData(_ bytes: [UInt8]) -> Bool { PasteCandidate.isSignedData(bytes) }
}
