import ASN1Lenient
import Foundation
import JSONLenient
import JWSKit
import ReceiptKit

extension Document {
    /// Opens StoreKit input (a compact JWS, a JSON body of tokens, an iOS 6 transaction receipt):
    /// one layer per token, header, payload, signature and x5c certificate, every nested token a
    /// token of its own, verified when `options.validate`. Nil when the input is not StoreKit.
    static func openStoreKit(_ input: LoadedInput, options: AnalysisOptions, jws: JWSOptions) -> Document? {
        let source = DocumentSource(input)
        var builder = JWSLayerBuilder()
        let kind: DocumentKind
        var (classified, json) = StoreKitInput.classifyKeepingJSON(input.bytes)
        // A cut-off token the paste finder found (fewer than 3 parts) is still shown as far as it goes.
        if case .notStoreKit = classified, input.encoding == .jws { classified = .token(.unknown) }
        switch classified {
        case .notStoreKit:
            guard input.encoding == .storeKitText, input.bytes.first == UInt8(ascii: "{") else { return nil }
            // The loader saw a StoreKit key but no value is a token: say so on the JSON.
            let tree = json ?? JSONParser.parse(input.bytes)
            let missing = JWSCode.noTokens.diagnostic("this JSON names StoreKit fields but none holds a compact JWS string", 0..<input.bytes.count)
            builder.layers = [ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                                        content: .json(tree, diagnostics: tree.diagnostics + [missing] + input.diagnostics))]
            kind = .storeKitJSON(tokens: 0)
            return Document(source: source, kind: kind, layers: builder.layers, jws: JWSModel(tokens: [], body: tree))
        case .legacyTransactionReceipt:
            let finding = JWSCode.legacyTransactionReceipt.diagnostic(DocumentKind.legacyTransactionReceipt.summary, 0..<input.bytes.count)
            builder.layers = [ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                                        content: .raw(diagnostics: [finding] + input.diagnostics))]
            return Document(source: source, kind: .legacyTransactionReceipt, layers: builder.layers)
        case .token:
            let document = JWSDocument.decode(text: input.bytes)
            builder.addToken(document, path: nil, parent: nil, holder: nil, extra: input.diagnostics)
            kind = singleKind(builder.tokens[0])
            if options.validate { builder.verify(options: options, jws: jws) }
            return Document(source: source, kind: kind, layers: builder.layers, jws: JWSModel(tokens: builder.tokens, body: nil))
        case .body(_, let embedded):
            let tree = json ?? JSONParser.parse(input.bytes)
            builder.layers = [ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                                        content: .json(tree, diagnostics: tree.diagnostics + input.diagnostics))]
            for token in embedded {
                let document = JWSDocument.decode(token, in: input.bytes)
                builder.addToken(document, path: token.path, parent: nil, holder: (.file, token.range), extra: [])
            }
            kind = bodyKind(tree, builder.tokens)
            if options.validate { builder.verify(options: options, jws: jws) }
            return Document(source: source, kind: kind, layers: builder.layers, jws: JWSModel(tokens: builder.tokens, body: tree))
        }
    }

    static func singleKind(_ token: JWSToken) -> DocumentKind {
        switch token.kind {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .appTransaction: .appTransaction
        case .notification(let type, let subtype): .notification(type: type, subtype: subtype)
        case .developer(let kind): .developerToken(kind)
        case .unknown: .unknownToken
        }
    }

    static func bodyKind(_ tree: JSONTree, _ tokens: [JWSToken]) -> DocumentKind {
        let top = tokens.filter { $0.parent == nil }
        if tree.lookup(["signedTransactions"]) != nil {
            return .transactionHistory(transactions: top.filter { $0.path?.hasPrefix("signedTransactions[") == true }.count)
        }
        if top.contains(where: { $0.path?.contains("lastTransactions[") == true }) {
            return .subscriptionStatuses(tokens: top.count)
        }
        if let notification = top.first(where: { $0.path == "signedPayload" }) { return singleKind(notification) }
        if top.count == 1 { return singleKind(top[0]) }
        return .storeKitJSON(tokens: top.count)
    }

    /// Whether `Document.open` should try the StoreKit readers: the loader recognised StoreKit
    /// text, or base64 decoded to text starting with `{` (a base64 iOS 6 transaction receipt).
    static func mayBeStoreKit(_ input: LoadedInput) -> Bool {
        switch input.encoding {
        case .jws, .storeKitText: true
        case .base64: input.bytes.first == UInt8(ascii: "{")
        default: false
        }
    }
}

/// Builds a StoreKit document's layers and tokens, token by token (nested tokens right after
/// their parent's layers).
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
        if let holder {
            layers.append(ByteLayer(id: tokenID, role: .jwsToken, name: path ?? "token", bytes: document.text,
                                    content: .token(diagnostics: diagnostics(.token) + extra), parent: holder.layer,
                                    map: .segments([.init(layerOffset: 0, parentOffset: holder.range.lowerBound, length: document.text.count)])))
        } else {
            layers.append(ByteLayer(id: tokenID, role: .file, name: "file", bytes: document.text,
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
        if let payload = ids.payload, let request = document.request {
            ids.request = nextID
            let map: OffsetMap = request.contiguousTextStart.map { .base64(textStart: $0) } ?? .base64Characters(request.payloadOffsets)
            layers.append(ByteLayer(id: nextID, role: .decodedJSON(urlSafe: false), name: prefix + "request", bytes: request.bytes,
                                    content: .json(request.json, diagnostics: diagnostics(.request)), parent: payload, map: map))
        }
        if let header = ids.header {
            for certificate in document.header.certificates {
                ids.certificates.append(nextID)
                let map: OffsetMap = certificate.contiguousTextStart.map { .base64(textStart: $0) }
                    ?? .base64Characters(certificate.headerOffsets)
                layers.append(ByteLayer(id: nextID, role: .x5cCertificate(certificate.position),
                                        name: prefix + "x5c[\(certificate.position)]", tree: certificate.tree,
                                        parent: header, map: map))
            }
        }
        let index = tokens.count
        let range = holder?.range ?? 0..<document.text.count
        tokens.append(JWSToken(path: path, parent: parent, rangeInParent: range, document: document,
                               kind: StoreKitTokenKind(kindOf: document), layers: ids, report: nil))
        guard let payload = ids.payload else { return }
        for nested in document.nested {
            let child = nested.document
            addToken(child, path: nested.path, parent: index,
                     holder: (payload, child.textOffset..<(child.textOffset + child.text.count)), extra: [])
        }
    }

    /// Runs `JWSVerifier` on every token, and the consistency check on every notification.
    mutating func verify(options: AnalysisOptions, jws: JWSOptions) {
        let verification = JWSVerificationOptions(anchors: options.anchors, expectedBundleID: options.bundleID,
                                                  expectedEnvironment: jws.expectedEnvironment,
                                                  expectedAppAppleID: jws.expectedAppAppleID, now: options.now)
        // A nested token is held to the same expectations as its notification (Apple's verifier checks
        // each one it is given), and to the notification's data by the consistency step; a claim its
        // kind never carries (a renewal info's bundleId) is not checked, with that reason.
        let session = JWSVerificationSession()  // the tokens' shared chains are checked once
        let developer = DeveloperVerificationOptions(key: jws.developerKey, keyID: jws.expectedKeyID,
                                                     expectedBundleID: options.bundleID, at: options.moment)
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
            if let kind = payload.kind.developerKind {
                tokens[index].report = DeveloperVerifier.verify(document, kind: kind, options: developer)
                    .expecting(environment: jws.expectedEnvironment, appAppleID: jws.expectedAppAppleID, kind: kind)
                continue
            }
            var report = JWSVerifier.verify(input, session: session)
            if case .notification = tokens[index].kind {
                let nested = tokens.filter { $0.parent == index }.map { token in
                    JWSNotificationConsistency.Nested(token: String(token.path?.split(separator: ".").last ?? ""),
                                                      bundleID: token.document.payload.bundleId,
                                                      environment: token.document.payload.environment)
                }
                report = report.adding(JWSNotificationConsistency.check(bundleID: payload.bundleId,
                                                                        environment: payload.environment, nested: nested))
            }
            tokens[index].report = report
        }
    }
}
