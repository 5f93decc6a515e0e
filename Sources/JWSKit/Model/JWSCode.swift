import ASN1Lenient

/// The stable diagnostic codes of JWS decoding (kebab-case, `jws-` prefix).
public enum JWSCode: String, Sendable, CaseIterable {
    case segmentCount = "jws-segment-count"
    case emptySegment = "jws-empty-segment"
    case base64InvalidCharacter = "jws-base64-invalid-character"
    case base64Padding = "jws-base64-padding"
    case base64Truncated = "jws-base64-truncated"
    case base64NonCanonical = "jws-base64-non-canonical"
    case headerNotObject = "jws-header-not-object"
    case payloadNotObject = "jws-payload-not-object"
    case algMissing = "jws-alg-missing"
    case algNone = "jws-alg-none"
    case algUnsupported = "jws-alg-unsupported"
    case x5cMissing = "jws-x5c-missing"
    case x5cEntryNotString = "jws-x5c-entry-not-string"
    case signatureLength = "jws-signature-length"
    case signatureIsDER = "jws-signature-is-der"
    case fieldWrongType = "jws-field-wrong-type"
    case fieldUnknownValue = "jws-field-unknown-value"
    /// A payload member the schema of its (recognised) kind does not list: kept and shown.
    case fieldNotInSchema = "jws-field-not-in-schema"
    case nestedTooDeep = "jws-nested-too-deep"
    /// JSON named like a StoreKit body whose `signed…` fields hold no token.
    case noTokens = "jws-no-tokens"
    /// An iOS 6 style transaction receipt: a format of its own, not read by this tool.
    case legacyTransactionReceipt = "storekit-legacy-transaction-receipt"

    public var severity: Severity {
        switch self {
        case .base64NonCanonical: .warning
        // Apple adds fields and values often: "not in this tool's schema" informs, it accuses nothing.
        case .fieldUnknownValue, .fieldNotInSchema: .info
        default: .error
        }
    }
}

/// Which byte layer of a JWS document a diagnostic's offsets refer to.
public enum JWSLayer: Sendable, Hashable {
    /// The token characters (offsets from the token's first character).
    case token
    /// The decoded header JSON.
    case header
    /// The decoded payload JSON.
    case payload
    /// The decoded signature bytes.
    case signature
    /// The DER of `x5c[i]`.
    case certificate(Int)
    /// An Advanced Commerce request's decoded `request` JSON.
    case request
}

/// A diagnostic and the layer its range lives in.
public struct JWSDiagnostic: Sendable, Equatable {
    public var layer: JWSLayer
    public var diagnostic: Diagnostic

    public init(_ layer: JWSLayer, _ diagnostic: Diagnostic) {
        self.layer = layer
        self.diagnostic = diagnostic
    }
}
extension JWSCode: DiagnosticCodeFamily {}

extension DiagnosticCode {
    /// The JWS decoder's code, when the JWS decoder reported it.
    public var jwsCode: JWSCode? { JWSCode(rawValue: rawValue) }
}
