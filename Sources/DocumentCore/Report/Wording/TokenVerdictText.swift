#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JWSKit
import ReceiptKit

// The words of token verdicts (StoreKit 2, developer-signed, bodies of tokens): what the report
// of tokens says beside its steps. The outcomes are decided in the StoreKit token format
// (VerificationJWS.swift); only their words are here, in the one wording layer.

extension StepText {
    /// A token step's title; today's validity is "Validity at <--at>" when `--at` replaced today.
    package func title(_ step: JWSStep, at: Date?) -> String {
        guard step == .validityToday, let at else { return step.title }
        return "Validity at \(ReceiptDate(at).utcString)"
    }

    /// "<step title>: <why>": a verdict reason about one token step.
    package func reason(_ step: JWSStep, _ failure: JWSFailure) -> String { "\(step.title): \(failure.sentence)" }
    package func reason(_ step: JWSStep, _ skip: JWSSkip) -> String { "\(step.title): \(skip.sentence)" }

    /// A body of tokens holds none.
    package var noTokensToVerify: String { "the input holds no StoreKit 2 token to verify" }
    /// A body of tokens whose every token is valid.
    package var everyTokenVerified: String { "every token verified" }

    /// A token valid at Apple Root CA - G3: shaped like Apple's tokens (the marker extensions) or not.
    package func anchoredAtAppleRoot(appleSigned: Bool) -> String {
        appleSigned ? "signed by Apple" : "valid, anchored at Apple Root CA - G3 but not shaped like Apple's tokens"
    }

    /// The verdict reason of a token valid at a root the user supplied.
    package func notSignedByApple(anchor: JWSAnchor) -> String { "anchored at \(anchor.sentence): not signed by Apple" }

    /// "<token path> is invalid: <its first reason>": a body's or notification's reason for a nested token.
    package func nestedInvalid(path: String?, firstReason: String?) -> String {
        "\(path ?? "token") is invalid" + (firstReason.map { ": \($0)" } ?? "")
    }

    /// The verdict reason of a developer-signed token verified without a key.
    package var developerKeyNeeded: String {
        let how = inputName(.developerKey).map { "give it with \($0) " } ?? "give it "
        return "\(JWSStep.signature.title): signed by a developer's In-App Purchase key, which the token does not carry: "
            + how + "(the SubscriptionKey_<KID>.p8 App Store Connect gave you, or its PEM public key) to check the signature"
    }

    package var developerKeyNeededSummary: String { "not verified: the developer's key is needed" }

    package func signedByDeveloperKey(_ key: DeveloperKey) -> String {
        "signed by the developer key you gave (\(key.source.rawValue), SHA-256 \(key.fingerprint))"
    }

    package var signedByYourKey: String {
        "signed by your In-App Purchase key, not by Apple: Apple checks it when the app or your server uses it"
    }
}
