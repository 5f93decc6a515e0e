import ASN1Lenient
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONLenient
import JWSKit
import ReceiptKit
import DocumentCore

/// Builds a StoreKit document's layers and tokens, token by token (nested tokens right after
/// their parent's layers): one layer per token, header, payload, signature and x5c certificate, every
/// nested token a token of its own. Shared by the token and the JSON body formats.
struct JWSLayerBuilder {
    var layers: [ByteLayer] = []
    var tokens: [JWSToken] = []

    var nextID: LayerID { LayerID(layers.count) }

    /// Adds `document`'s layers. `holder` is the layer holding its characters and their range
    /// there; nil when the token is the file itself.
    mutating func addToken(_ document: JWSDocument, path: String?, parent: Int?, holder: (layer: LayerID, range: Range<Int>)?,
                           extra: [Diagnostic]) {
        let prefix = path.map { $0 + " " } ?? ""
        func diagnostics(_ layer: JWSLayer) -> [Diagnostic] {
            document.diagnostics.filter { $0.layer == layer }.map(\.diagnostic)
        }
        let tokenID = nextID
        // A first token's layers (token, header, payload, signature, certificates) in one allocation;
        // later ones grow the array as appending does (reserving for each would copy it every time).
        if layers.isEmpty { layers.reserveCapacity(4 + document.header.certificates.count) }
        if let holder {
            layers.append(ByteLayer(id: tokenID, role: .jwsToken, name: path ?? "token", window: document.text,
                                    content: .token(diagnostics: diagnostics(.token) + extra), parent: holder.layer,
                                    map: .segments([.init(layerOffset: 0, parentOffset: holder.range.lowerBound, length: document.text.count)])))
        } else {
            layers.append(ByteLayer(id: tokenID, role: .file, name: "file", window: document.text,
                                    content: .token(diagnostics: diagnostics(.token) + extra)))
        }
        var ids = JWSTokenLayers(token: tokenID, header: nil, payload: nil, signature: nil, certificates: [])
        if let segment = document.segment(.header), let json = document.headerJSON {
            ids.header = nextID
            layers.append(ByteLayer(id: nextID, role: .jwsHeader, name: prefix + "header", bytes: segment.bytes,
                                    content: .json(json, diagnostics: diagnostics(.header)), parent: tokenID,
                                    map: .base64(textStart: segment.characterRange.lowerBound)))
        }
        if let segment = document.segment(.payload), let json = document.payloadJSON {
            ids.payload = nextID
            layers.append(ByteLayer(id: nextID, role: .jwsPayload, name: prefix + "payload", bytes: segment.bytes,
                                    content: .json(json, diagnostics: diagnostics(.payload)), parent: tokenID,
                                    map: .base64(textStart: segment.characterRange.lowerBound)))
        }
        if let segment = document.segment(.signature) {
            ids.signature = nextID
            layers.append(ByteLayer(id: nextID, role: .jwsSignature, name: prefix + "signature", bytes: segment.bytes,
                                    content: .raw(diagnostics: diagnostics(.signature)), parent: tokenID,
                                    map: .base64(textStart: segment.characterRange.lowerBound)))
        }
        if let header = ids.header {
            for certificate in document.header.certificates {
                ids.certificates.append(nextID)
                let map: OffsetMap = certificate.contiguousTextStart.map { .base64(textStart: $0) }
                    ?? .base64Characters(OffsetList(certificate.headerOffsets))
                layers.append(ByteLayer(id: nextID, role: .x5cCertificate(certificate.position),
                                        name: prefix + "x5c[\(certificate.position)]", tree: certificate.tree,
                                        parent: header, map: map))
            }
        }
        let index = tokens.count
        let range = holder?.range ?? 0..<document.text.count
        let kind = StoreKitTokenKind(kindOf: document)
        tokens.append(JWSToken(path: path, parent: parent, rangeInParent: range, document: document,
                               kind: kind, label: kind.label, layers: ids, report: nil))
        guard let payload = ids.payload else { return }
        for nested in document.nested {
            let child = nested.document
            addToken(child, path: nested.path, parent: index,
                     holder: (payload, child.textOffset..<(child.textOffset + child.text.count)), extra: [])
        }
    }

    /// "signedTransactionInfo" of "data.signedTransactionInfo", by bytes (a `Character` split of
    /// every nested token's path was a tenth of a notification's claims).
    static func lastComponent(_ path: String?) -> String {
        guard let path else { return "" }
        guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")) else { return path }
        return String(path[path.utf8.index(after: dot)...])
    }

    /// Runs `JWSVerifier` on every token, and the consistency check on every notification. `--at`
    /// (`options.at`) replaces today for the certificates' second validity step, which decides when
    /// a token has no signedDate.
    mutating func verify(options: AnalysisOptions, jws: JWSOptions) {
        let verification = JWSVerificationOptions(anchors: options.anchors, expectedBundleID: options.bundleID,
                                                  expectedEnvironment: jws.expectedEnvironment,
                                                  expectedAppAppleID: jws.expectedAppAppleID, now: options.moment)
        // A nested token is held to the same expectations as its notification (Apple's verifier checks
        // each one it is given), and to the notification's data by the consistency step; a claim its
        // kind never carries (a renewal info's bundleId) is not checked, with that reason.
        let session = JWSVerificationSession()  // the tokens' shared chains are checked once
        for index in tokens.indices {
            let document = tokens[index].document
            let payload = document.payload
            let input = JWSVerificationInput(
                signingInput: document.signingInput, signature: document.signatureBytes, alg: document.header.alg,
                x5c: document.header.certificates.map(\.der),
                signedDate: payload.validityDate.map { Date(timeIntervalSince1970: $0 / 1000) },
                claims: JWSClaims(bundleID: payload.bundleId, environment: payload.environment, appAppleID: payload.appAppleId,
                                  kind: payload.kind),
                options: verification)
            var report = JWSVerifier.verify(input, session: session)
            if case .notification = tokens[index].kind {
                let nested = JWSModel.nestedIndices(of: index, in: tokens).map { child in
                    JWSNotificationConsistency.Nested(token: Self.lastComponent(tokens[child].path),
                                                      bundleID: tokens[child].document.payload.bundleId,
                                                      environment: tokens[child].document.payload.environment)
                }
                report = report.adding(JWSNotificationConsistency.check(bundleID: payload.bundleId,
                                                                        environment: payload.environment, nested: nested))
            }
            tokens[index].report = report
        }
    }
}
