#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ByteText
import JWSKit
import DocumentCore
import DocumentTour

/// The Retention Messaging real-time request: the JWS Apple POSTs as `signedPayload` to the
/// developer's Get Retention Message endpoint (alone, or in its JSON body). Its payload is no
/// StoreKit 2 type, so it is told apart by the claims only it has (`requestIdentifier`,
/// `userLocale`, `originalTransactionId`); it is opened and verified as any Apple-signed token (the
/// x5c chain, the signature at signedDate, `--environment` and `--app-apple-id` against its claims),
/// which is what Apple's `verifyAndDecodeRealtimeRequest` checks. Tried before the StoreKit formats.
public struct RetentionRequestFormat: DocumentFormat, TourRoute {
    public static let id = FormatID(rawValue: "retention-request")
    public var id: FormatID { Self.id }

    public func recognize(_ probe: FormatProbe) -> Recognition? {
        guard probe.mayBeStoreKit else { return nil }
        switch probe.storeKit.kind {
        case .token(.unknown):
            // The probe kept the payload's tree: a dense payload was parsed (and held) twice.
            let isRequest = probe.storeKit.token?.payloadNames(RetentionDocument.requestClaims)
                ?? RetentionDocument.isRequest(JWSDocument.decode(text: probe.input.bytes).payload)
            guard isRequest else { return nil }
            return Recognition(.certain, "a compact JWS whose claims (requestIdentifier, userLocale, originalTransactionId) are a Retention Messaging real-time request's")
        case .body(_, let tokens) where tokens.count == 1 && tokens[0].path == "signedPayload" && tokens[0].kind == .unknown:
            guard RetentionDocument.isRequest(JWSDocument.decode(tokens[0], in: probe.input.bytes).payload) else { return nil }
            return Recognition(.certain, "JSON whose signedPayload holds a Retention Messaging real-time request (requestIdentifier, userLocale)")
        default:
            return nil
        }
    }

    public func open(_ probe: FormatProbe) -> Document {
        var document = if case .body = probe.storeKit.kind { StoreKitJSONFormat().open(probe) } else { StoreKitTokenFormat().open(probe) }
        document.kind = .retentionMessaging(.request)
        guard var jws = document.jws else { return document }
        for index in jws.tokens.indices where jws.tokens[index].parent == nil && jws.tokens[index].kind == .unknown {
            // Its payload is no StoreKit 2 type, but this format knows what it is: named so everywhere.
            jws.tokens[index].label = RetentionDocument.requestTokenLabel
            let environment = probe.jws.expectedEnvironment ?? jws.tokens[index].document.payload.environment
            jws.tokens[index].report?.compareAppAppleIDOnlyInProduction(environment: environment)
        }
        document.jws = jws
        return document
    }

    public func describe(_ kind: DocumentKind) -> KindDescription? {
        guard case .retentionMessaging(.request) = kind else { return nil }
        return KindDescription(summary: RetentionDocument.request.summary, title: RetentionDocument.request.title)
    }

    public func hint(expected: ExpectedKind, found kind: DocumentKind) -> String? {
        expected == .receipt ? StoreKitOutputs.notAReceiptHint : "Apple sends it when a customer may cancel; reply with a RealtimeResponseBody"
    }

    public func tourSteps(_ document: Document) -> [TourStep]? { StoreKitOutputs.tourSteps(document) }

    public func outlineWording(of document: Document) -> any OutlineWording { RetentionWording(document) }

    /// Apple's verifier compares the environment, and in Production the app's Apple id; the request
    /// names no bundle.
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        switch option {
        case .bundleID: .refused("it carries no bundleId (Apple's verifier checks its appAppleId and environment)")
        case .environment: .applies("compared with the payload's environment")
        case .appAppleID: .applies("compared with the payload's appAppleId in Production; in Sandbox not compared, as Apple's verifier does not (an info step says so)")
        default: TokenOptions.use(option, payloads: [.unknown], kindName: "it")
        }
    }
}

extension RetentionRequestFormat: VerifiesTokens {
    public func verification(_ document: Document, now: Date, words: StepText) -> VerificationReport {
        var report = StoreKitOutputs.verification(document, now: now, words: words)
        report.name(by: document)
        // An app Apple id not compared (Sandbox) does not decide: the verdict rule shows it as information.
        for index in report.steps.indices where report.steps[index].reasonCode == .comparedOnlyInProduction {
            report.steps[index].decides = false
        }
        return report
    }
}

extension JWSVerificationReport {
    /// Apple's `verifyAndDecodeRealtimeRequest` compares the app Apple id only when its environment
    /// is Production; elsewhere an expected id is not compared, and the step says why.
    mutating func compareAppAppleIDOnlyInProduction(environment: String?) {
        guard let index = steps.firstIndex(where: { $0.step == .appAppleID }), steps[index].status != .notChecked(.noExpectation),
              !PlainText.equalsIgnoringCase(environment ?? "", "Production") else { return }
        steps[index].status = .notChecked(.comparedOnlyInProduction(claim: "appAppleId", environment: environment ?? "absent"))
    }
}
