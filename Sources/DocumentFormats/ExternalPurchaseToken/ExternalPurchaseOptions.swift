import DocumentCore

/// How external purchase tokens use the reading options (`OptionTable`): unsigned, so only the
/// expectations compared with its fields apply.
extension ExternalPurchaseTokenFormat {
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        switch option {
        case .bundleID: .applies("compared with its bundleId")
        case .environment: .applies("compared with its environment (Sandbox when the id starts SANDBOX_)")
        case .appAppleID: .applies("compared with its appAppleId")
        case .expect: .applies(OptionWhy.expect)
        case .deviceID: .refused(OptionWhy.noDeviceHash)
        case .appVersion: .refused("it carries no app version")
        case .at, .root, .key, .keyID, .noValidate: .refused(OptionWhy.notSigned)
        }
    }
}
