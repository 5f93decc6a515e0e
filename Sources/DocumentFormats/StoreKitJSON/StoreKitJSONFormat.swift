import ASN1Lenient
import JSONLenient
import JWSKit
import DocumentCore
import DocumentTour

/// A JSON body carrying StoreKit tokens: an App Store Server API transaction history or subscription
/// statuses response, a notification request body, or any JSON with `signed…` token fields. The
/// body is the file layer; each token is decoded as `StoreKitTokenFormat` decodes one alone.
public struct StoreKitJSONFormat: DocumentFormat, TourRoute {
    public static let id = FormatID(rawValue: "storekit-json")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.mayBeStoreKit else { return nil }
        switch probe.storeKit.kind {
        case .body(let description, _): return Recognition(.certain, description)
        case .notStoreKit where Self.namesKeysOnly(probe):
            return Recognition(.likely, "JSON naming StoreKit token fields, none of which holds a compact JWS")
        default: return nil
        }
    }

    /// The loader saw a StoreKit key in a JSON object, but no value is a token.
    static func namesKeysOnly(_ probe: FormatProbe) -> Bool {
        probe.input.encoding == .storeKitText && probe.input.bytes.first == UInt8(ascii: "{")
    }

    public func open(_ probe: FormatProbe) -> Document {
        let input = probe.input
        let tree = probe.storeKit.json ?? JSONParser.parse(input.bytes)
        var builder = JWSLayerBuilder()
        guard case .body(_, let embedded) = probe.storeKit.kind else {
            let missing = JWSCode.noTokens.diagnostic("this JSON names StoreKit fields but none holds a compact JWS string", 0..<input.bytes.count)
            builder.layers = [ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                                        content: .json(tree, diagnostics: tree.diagnostics + [missing] + input.diagnostics))]
            return Document(source: probe.source, kind: .storeKitJSON(tokens: 0), layers: builder.layers, jws: JWSModel(tokens: [], body: tree))
        }
        builder.layers = [ByteLayer(id: .file, role: .file, name: "file", bytes: input.bytes,
                                    content: .json(tree, diagnostics: tree.diagnostics + input.diagnostics))]
        // A token makes 7 layers with its 3 certificates: room for them all up front, since a
        // history's 67,000 layers doubling held the old and the new array at once (18 MB at 50 MB).
        builder.layers.reserveCapacity(1 + 7 * embedded.count)
        // Likewise a token each (nested ones grow it): doubling left a history's array 40 % empty.
        builder.tokens.reserveCapacity(embedded.count)
        for token in embedded {
            let document = JWSDocument.decode(token, in: input.bytes)
            builder.addToken(document, path: token.path, parent: nil, holder: (.file, token.range), extra: [])
        }
        let shape = StoreKitBodyShape(tree, embedded)
        if probe.options.validate { builder.verify(options: probe.options, jws: probe.jws) }
        return Document(source: probe.source, kind: Self.kind(shape), layers: builder.layers,
                        jws: JWSModel(tokens: builder.tokens, body: tree, shape: shape))
    }

    /// A notification body or a single token is the kind of its token; the rest are body kinds.
    static func kind(_ shape: StoreKitBodyShape) -> DocumentKind {
        switch shape {
        case .transactionHistory(let n): .transactionHistory(transactions: n)
        case .subscriptionStatuses(let n): .subscriptionStatuses(tokens: n)
        case .notification(let kind), .single(let kind, _): StoreKitTokenFormat.kind(kind)
        case .tokens(let n): .storeKitJSON(tokens: n)
        }
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        switch kind {
        case .transactionHistory(let n):
            KindDescription(summary: "a transaction history response: \(n) transaction\(n == 1 ? "" : "s")", title: "Transaction history")
        case .subscriptionStatuses(let n):
            KindDescription(summary: "a subscription statuses response: \(n) signed token\(n == 1 ? "" : "s")", title: "Subscription statuses")
        case .storeKitJSON(let n):
            KindDescription(summary: "JSON carrying \(n) StoreKit 2 token\(n == 1 ? "" : "s")", title: "StoreKit JSON")
        default: nil
        }
    }

    public func expectation(_ kind: DocumentKind) -> ExpectedKind? {
        if case .transactionHistory = kind { return .history }
        return nil
    }

    public func hint(expected: ExpectedKind, found kind: DocumentKind) -> String? {
        switch (expected, kind) {
        case (.transaction, .transactionHistory): "each of its signedTransactions is one; `json` lists them decoded"
        case (.receipt, _): StoreKitOutputs.notAReceiptHint
        default: nil
        }
    }

    public func tourSteps(_ document: Document) -> [TourStep]? { StoreKitOutputs.tourSteps(document) }
}
