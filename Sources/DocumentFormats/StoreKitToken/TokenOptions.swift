import JWSKit
import DocumentCore

/// How Apple-signed tokens and the JSON bodies that carry them use the reading options (`OptionTable`).
enum TokenOptions {
    /// `payloads`: the token kinds the document's kind holds; a claim option applies when one of them carries the claim.
    static func use(_ option: ReadingOption, payloads: [StoreKitPayloadKind], kindName: String) -> OptionUse {
        switch option {
        case .at: return .applies("replaces today for the certificates' validity (the chain is judged at it when a token has no signedDate)")
        case .root: return .applies("an extra trust anchor for the x5c chain")
        case .noValidate: return .applies("skips the verification of every token")
        case .expect: return .applies(OptionWhy.expect)
        case .key, .keyID: return .refused(OptionWhy.x5cChain)
        case .deviceID: return .refused(OptionWhy.noDeviceHash)
        case .appVersion: return .refused("only a receipt's app version (attribute 3) is compared")
        case .environment, .bundleID, .appAppleID:
            let step: JWSStep = option == .environment ? .environment : option == .bundleID ? .bundleID : .appAppleID
            let carried = payloads.contains { JWSClaims(kind: $0).carries(step) }
            let field = JWSClaims.field(step, kind: payloads.first) ?? step.rawValue
            return carried ? .applies("compared with the payload's \(field)") : .refused("\(kindName) carries no \(field)")
        }
    }
}

extension StoreKitTokenFormat {
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        let payload: StoreKitPayloadKind = switch kind {
        case .transaction: .transaction
        case .renewalInfo: .renewalInfo
        case .appTransaction: .appTransaction
        case .notification: .notification
        default: .unknown
        }
        return TokenOptions.use(option, payloads: [payload], kindName: "it")
    }
}

extension StoreKitJSONFormat {
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        // A history holds transactions; statuses hold transactions and renewal infos; other JSON may hold any token.
        let payloads: [StoreKitPayloadKind] = switch kind {
        case .transactionHistory: [.transaction]
        case .subscriptionStatuses: [.transaction, .renewalInfo]
        default: [.unknown]
        }
        // Other JSON (a Retention Messaging reply) may carry a developer-signed promotional offer.
        if case .storeKitJSON = kind, option == .key || option == .keyID {
            return .applies("checks the developer-signed tokens it carries")
        }
        return TokenOptions.use(option, payloads: payloads, kindName: "none of its tokens")
    }
}
