import DocumentCore

/// How developer-signed tokens use the reading options (`OptionTable`).
extension DeveloperTokenFormat {
    public func optionUse(_ option: ReadingOption, kind: DocumentKind) -> OptionUse {
        switch option {
        case .at: .applies("the moment iat and exp are judged at")
        case .key: .applies("the key its signature is checked with")
        case .keyID: .applies("compared with the header's kid")
        case .bundleID: .applies("compared with the bid claim")
        case .noValidate: .applies("skips the signature and claim checks")
        case .expect: .applies(OptionWhy.expect)
        case .root: .refused("it carries no certificate chain: its signature is checked with --key")
        case .environment: .refused("it carries no environment claim")
        case .appAppleID: .refused("it carries no appAppleId claim")
        case .appVersion: .refused("it carries no app version")
        case .deviceID: .refused(OptionWhy.noDeviceHash)
        }
    }
}
