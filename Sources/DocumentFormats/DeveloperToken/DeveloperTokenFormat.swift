import ASN1Lenient
import ByteText
import JWSKit
import ReceiptKit
import DocumentCore

/// A compact JWS the developer's server signed with its In-App Purchase key (ES256, `kid`, no
/// `x5c`): a promotional offer signature (V2), an introductory-offer eligibility token, an Advanced
/// Commerce in-app request (its base64 `request` claim a JSON layer of its own) or an App Store
/// Server API bearer token. Verified with the developer's key (`JWSOptions.developerKey`), or
/// decoded with a verdict that asks for it.
public struct DeveloperTokenFormat: DocumentFormat {
    public static let id = FormatID(rawValue: "developer-token")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.mayBeStoreKit, case .token(.developer(let kind)) = probe.storeKit.kind else { return nil }
        return Recognition(.certain, "a compact JWS whose claims (aud \"\(kind.audience)\", iat, bid or iss) are a developer's (\(kind.label))")
    }

    public func open(_ probe: FormatProbe) -> Document {
        var builder = JWSLayerBuilder()
        let document = JWSDocument.decode(text: probe.input.bytes)
        builder.addToken(document, path: nil, parent: nil, holder: nil, extra: probe.input.diagnostics)
        Self.addRequestLayer(&builder, token: 0)
        let kind = document.payload.kind.developerKind ?? .promotionalOffer
        if probe.options.validate {
            let options = DeveloperVerificationOptions(key: probe.jws.developerKey, keyID: probe.jws.expectedKeyID,
                                                       expectedBundleID: probe.options.bundleID, at: probe.options.moment)
            builder.tokens[0].report = DeveloperVerifier.verify(document, kind: kind, options: options)
                .expecting(environment: probe.jws.expectedEnvironment, appAppleID: probe.jws.expectedAppAppleID, kind: kind)
        }
        return Document(source: probe.source, kind: .developerToken(kind), layers: builder.layers, jws: JWSModel(tokens: builder.tokens, body: nil))
    }

    /// An Advanced Commerce request's `request` claim, decoded from base64: a JSON layer whose bytes
    /// map to the payload characters that carry them.
    static func addRequestLayer(_ builder: inout JWSLayerBuilder, token index: Int) {
        let token = builder.tokens[index]
        guard let payload = token.layers.payload, let request = token.document.request else { return }
        let id = builder.nextID
        let map: OffsetMap = request.contiguousTextStart.map { .base64(textStart: $0) } ?? .base64Characters(OffsetList(request.payloadOffsets))
        let diagnostics = token.document.diagnostics.filter { $0.layer == .request }.map(\.diagnostic)
        builder.layers.append(ByteLayer(id: id, role: .decodedJSON(urlSafe: false), name: "request", bytes: request.bytes,
                                        content: .json(request.json, diagnostics: diagnostics), parent: payload, map: map))
        builder.tokens[index].layers.request = id
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard case .developerToken(let kind) = kind else { return nil }
        return KindDescription(summary: kind.phrase, title: kind == .serverAPIToken ? "Server API token" : "Developer-signed JWS")
    }

    /// The kind with the token's alg and key id.
    public func summary(of document: Document) -> String {
        guard let token = document.jws?.tokens.first else { return document.kind.summary }
        return "\(document.kind.summary) (JWS, \(token.headerSummary))"
    }
}
