import ASN1Lenient
import JWSKit
import DocumentCore
import DocumentTour

/// A compact JWS signed by the App Store (a StoreKit 2 transaction, renewal info, app transaction,
/// notification `signedPayload`, or a token of no StoreKit type), with its nested tokens decoded
/// in place and, when validated, each token's verification report.
public struct StoreKitTokenFormat: DocumentFormat, TourRoute {
    public static let id = FormatID(rawValue: "storekit-token")
    public var id: FormatID { Self.id }

    /// A whole token beats a cut-off one; notification bodies and StoreKit 2 name their tokens by these keys.
    public var pasteHints: [PasteHint] {
        [PasteHint(.token, score: 50, keys: ["signedPayload", "signedTransactionInfo", "signedRenewalInfo", "signedTransaction",
                                             "signedAppTransactionInfo", "jwsRepresentation"]),
         PasteHint(.cutOffToken, score: 30)]
    }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.mayBeStoreKit else { return nil }
        switch probe.storeKit.kind {
        case .token(let kind): return Recognition(.certain, "three base64url segments: a compact JWS (\(kind.label))")
        // A cut-off token the paste finder found (fewer than 3 parts) is still shown as far as it goes.
        case .notStoreKit where probe.input.encoding == .jws:
            return Recognition(.likely, "the loader found token characters, but not three segments")
        default: return nil
        }
    }

    public func open(_ probe: FormatProbe) -> Document {
        var builder = JWSLayerBuilder()
        let document = probe.storeKit.token.map { JWSDocument.decode($0) } ?? JWSDocument.decode(text: probe.input.bytes)
        builder.addToken(document, path: nil, parent: nil, holder: nil, extra: probe.input.diagnostics)
        let kind = Self.kind(builder.tokens[0].kind)
        if probe.options.validate { builder.verify(options: probe.options, jws: probe.jws) }
        return Document(source: probe.source, kind: kind, layers: builder.layers, jws: JWSModel(tokens: builder.tokens, body: nil))
    }

    /// The document kind of a token of `kind`.
    static func kind(_ kind: StoreKitTokenKind) -> DocumentKind {
        switch kind {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .appTransaction: .appTransaction
        case .notification(let type, let subtype): .notification(type: type, subtype: subtype)
        case .developer(let kind): .developerToken(kind)  // DeveloperTokenFormat opens these
        case .unknown: .unknownToken
        }
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        switch kind {
        case .transaction: KindDescription(summary: "a StoreKit 2 transaction", title: "StoreKit 2 transaction")
        case .renewalInfo: KindDescription(summary: "a StoreKit 2 renewal info", title: "StoreKit 2 renewal info")
        case .appTransaction: KindDescription(summary: "a StoreKit 2 app transaction", title: "StoreKit 2 app transaction")
        case .notification(let type, let subtype):
            KindDescription(summary: "an App Store Server Notification V2: \(type ?? "(no notificationType)") (\(subtype ?? "no subtype"))",
                            title: "App Store Server Notification")
        case .unknownToken: KindDescription(summary: "a JWS whose payload is no StoreKit 2 type", title: "JWS")
        default: nil
        }
    }

    /// The kind with the main token's alg and certificates and how many tokens it nests: the token
    /// itself, or a notification body's `signedPayload` / a body's single token.
    public func summary(of document: Document) -> String {
        let kind = document.kind
        guard let jws = document.jws, let main = jws.tokens.firstIndex(where: { $0.parent == nil }) else { return kind.summary }
        let nested = jws.nested(in: main).count
        let with = nested == 0 ? "" : ", with \(nested) nested token\(nested == 1 ? "" : "s")"
        return "\(kind.summary) (JWS, \(jws.tokens[main].headerSummary))\(with)"
    }

    public func expectation(_ kind: DocumentKind) -> ExpectedKind? {
        switch kind {
        case .transaction: .transaction
        case .renewalInfo: .renewal
        case .appTransaction: .appTransaction
        case .notification: .notification
        default: nil
        }
    }

    public func foundPhrase(_ kind: DocumentKind) -> String {
        switch kind {
        case .transaction: "a transaction token (\(StoreKitPayloadKind.transaction.rawValue))"
        case .renewalInfo: "a renewal info token (\(StoreKitPayloadKind.renewalInfo.rawValue))"
        case .appTransaction: "an app transaction token (\(StoreKitPayloadKind.appTransaction.rawValue))"
        case .notification: "an App Store Server Notification V2 (\(StoreKitPayloadKind.notification.rawValue))"
        default: kind.summary
        }
    }

    public func hint(expected: ExpectedKind, found kind: DocumentKind) -> String? {
        switch (expected, kind) {
        case (.transaction, .renewalInfo), (.renewal, .transaction):
            "a notification's data carries both, signedTransactionInfo (the transaction) and signedRenewalInfo (the renewal info); decode each with its own type"
        case (.transaction, .notification), (.renewal, .notification):
            "the notification nests it at data.\(expected == .transaction ? "signedTransactionInfo" : "signedRenewalInfo"); `dump` and `json` show it decoded in place"
        case (.transaction, .appTransaction), (.appTransaction, .transaction):
            "AppTransaction (AppTransaction.shared) describes the app's purchase; a Transaction describes one in-app purchase"
        case (.notification, .transaction), (.notification, .renewalInfo):
            "a notification is the signedPayload of an App Store Server Notification V2 request body"
        case (.receipt, _): StoreKitOutputs.notAReceiptHint
        default: nil
        }
    }

    public func tourSteps(_ document: Document) -> [TourStep]? { StoreKitOutputs.tourSteps(document) }
}
