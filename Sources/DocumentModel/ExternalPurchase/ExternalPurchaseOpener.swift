import ASN1Lenient
import JSONLenient
import JWSKit

/// The external purchase token of a document: the decoded token and its JSON layer.
public struct ExternalPurchaseModel: Sendable {
    public var token: ExternalPurchaseToken
    /// The decoded JSON (the file layer holds the base64url characters).
    public var jsonLayer: LayerID
}

extension Document {
    /// Opens an external purchase token (the loader's `.externalPurchaseToken`): the characters are
    /// the file layer, the decoded JSON a layer linked to them by base64 arithmetic. Unsigned: no
    /// verification, which `verify` says.
    static func openExternalPurchaseToken(_ input: LoadedInput) -> Document {
        let token = ExternalPurchaseToken.decode(text: input.bytes)
        let jsonLayer = LayerID(1)
        let layers = [
            ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                      content: .raw(diagnostics: token.textDiagnostics + input.diagnostics)),
            ByteLayer(id: jsonLayer, role: .decodedJSON(urlSafe: true), name: "token JSON", bytes: token.json,
                      content: .json(token.tree, diagnostics: token.jsonDiagnostics), parent: .file, map: .base64(textStart: 0)),
        ]
        var document = Document(source: DocumentSource(input), kind: .externalPurchaseToken(sandbox: token.isSandbox), layers: layers)
        document.externalPurchase = ExternalPurchaseModel(token: token, jsonLayer: jsonLayer)
        return document
    }
}
