import DocumentCore

/// How receipts and other PKCS#7 SignedData use the reading options (`OptionTable`).
extension AppReceiptFormat {
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        let receipt = kind != .signedData
        switch option {
        case .at:
            return .applies(receipt ? "the moment of the expiration step and the active subscriptions (and of the chain when attribute 12 is absent)"
                                    : "the moment the chain is judged at (no receipt creation date)")
        case .root: return .applies("an extra trust anchor for the PKCS#7 signer chain")
        case .noValidate: return .applies("skips the signature, chain, time and signer steps")
        case .expect: return .applies(OptionWhy.expect)
        case .key, .keyID: return .refused(OptionWhy.notDeveloperSigned)
        case .environment, .bundleID, .appAppleID, .appVersion, .deviceID:
            guard receipt else { return .refused("it holds no receipt payload to compare") }
            let what: String = switch option {
            case .environment: "compared with the receipt type (attribute 0)"
            case .bundleID: "compared with attribute 2"
            case .appAppleID: "compared with attribute 1 (0 in sandbox and Xcode receipts)"
            case .appVersion: "compared with attribute 3"
            default: "checked against the device hash (attribute 5)"
            }
            return .applies(what)
        }
    }
}
