import ByteText
import JWSKit

/// Who is asking: the In-App Purchase key (its signer and id), the issuer and the app.
public struct BearerCredentials: Sendable {
    public var signer: DeveloperSigner
    public var keyID: String
    public var issuer: String
    public var bundleID: String

    /// Refuses values that App Store Connect never issues, before anything is signed. Every value
    /// checked here goes into the token's JSON unescaped, so the character sets are also what keeps
    /// that JSON well-formed.
    public init(signer: DeveloperSigner, keyID: String, issuer: String, bundleID: String) throws(APIUsageError) {
        func only(_ text: String, _ allowed: (Character) -> Bool) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && allowed($0) } }
        guard only(keyID, { $0.isLetter || $0.isNumber }) else {
            throw APIUsageError("--key-id: '\(keyID)' is not a key id (letters and digits, as App Store Connect shows it)")
        }
        guard only(issuer, { $0.isHexDigit || $0 == "-" }) else {
            throw APIUsageError("--issuer: '\(issuer)' is not an issuer id (the UUID on App Store Connect's Keys page)")
        }
        guard only(bundleID, { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else {
            throw APIUsageError("--bundle-id: '\(bundleID)' is not a bundle identifier (letters, digits, '.' and '-')")
        }
        self.signer = signer
        self.keyID = keyID
        self.issuer = issuer
        self.bundleID = bundleID
    }
}

/// The bearer token's header and claims as Apple documents them ("Generating JSON Web Tokens for API
/// requests"): ES256, `kid`, `typ` JWT; `iss`, `iat`, `exp`, `aud` appstoreconnect-v1, `bid`.
public struct BearerClaims: Sendable, Equatable {
    public static let audience = "appstoreconnect-v1"
    /// Five minutes, as Apple's server libraries use; Apple refuses more than 60.
    public static let lifetime: Int64 = 300

    public var keyID: String
    public var issuer: String
    public var issuedAt: Int64
    public var expiresAt: Int64
    public var bundleID: String

    public init(credentials: BearerCredentials, now: Int64) {
        keyID = credentials.keyID
        issuer = credentials.issuer
        issuedAt = now
        expiresAt = now + Self.lifetime
        bundleID = credentials.bundleID
    }

    var header: String { #"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"# }
    var payload: String {
        #"{"iss":"\#(issuer)","iat":\#(issuedAt),"exp":\#(expiresAt),"aud":"\#(Self.audience)","bid":"\#(bundleID)"}"#
    }

    /// What `--verbose` shows of a token: its header and claims, never the token.
    public var shown: String { "header \(header) claims \(payload)" }

    /// The compact JWS; nil when OpenSSL cannot sign.
    public func token(signedBy signer: DeveloperSigner) -> String? {
        let input = Base64Text.encodeURL(Array(header.utf8)) + "." + Base64Text.encodeURL(Array(payload.utf8))
        guard let signature = signer.sign(Array(input.utf8)) else { return nil }
        return input + "." + Base64Text.encodeURL(signature)
    }
}
