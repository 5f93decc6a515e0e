import ASN1Lenient
import JSONLenient
import JWSKit
import DocumentCore

/// The external purchase token of a document: the decoded token and its JSON layer.
public struct ExternalPurchaseModel: Sendable {
    public var token: ExternalPurchaseToken
    /// The decoded JSON (the file layer holds the base64url characters).
    public var jsonLayer: LayerID
}

/// An external purchase token (base64url JSON, unsigned), which the loader marks
/// `.externalPurchaseToken`: the characters are the file layer, the decoded JSON a layer linked to
/// them by base64 arithmetic, every member decoded by the schema. Unsigned: `verify` says there is
/// nothing to verify.
public struct ExternalPurchaseTokenFormat: DocumentFormat {
    public static let id = FormatID(rawValue: "external-purchase-token")
    public var id: FormatID { Self.id }

    public var pasteHints: [PasteHint] { [PasteHint(.externalPurchaseToken, score: 50)] }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.input.encoding == .externalPurchaseToken else { return nil }
        return Recognition(.certain, "one run of base64url whose JSON names externalPurchaseId or tokenCreationDate")
    }

    public func open(_ probe: FormatProbe) -> Document {
        let input = probe.input
        let token = ExternalPurchaseToken.decode(text: input.bytes)
        let jsonLayer = LayerID(1)
        let layers = [
            ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                      content: .raw(diagnostics: token.textDiagnostics + input.diagnostics)),
            ByteLayer(id: jsonLayer, role: .decodedJSON(urlSafe: true), name: "token JSON", bytes: token.json,
                      content: .json(token.tree, diagnostics: token.jsonDiagnostics), parent: .file, map: .base64(textStart: 0)),
        ]
        var document = Document(source: probe.source, kind: .externalPurchaseToken(sandbox: token.isSandbox), layers: layers)
        document.externalPurchase = ExternalPurchaseModel(token: token, jsonLayer: jsonLayer)
        return document
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard case .externalPurchaseToken(let sandbox) = kind else { return nil }
        return KindDescription(summary: "an external purchase token (base64url JSON, unsigned\(sandbox ? "; sandbox: its id starts SANDBOX_" : ""))",
                               title: "External purchase token")
    }
}
