/// The two environments of the App Store Server API and their hosts (Apple moved them to these in
/// May 2026; `api.storekit.itunes.apple.com` and its sandbox twin still answer).
public enum APIEnvironment: String, Sendable, CaseIterable {
    case production, sandbox

    /// The base URL requests go to unless `--base-url` replaces it.
    public var baseURL: String {
        switch self {
        case .production: "https://api.storekit.apple.com"
        case .sandbox: "https://api.storekit-sandbox.apple.com"
        }
    }

    /// The environment's name as Apple's signed data spells it (`environment` in a transaction).
    public var signedName: String {
        switch self {
        case .production: "Production"
        case .sandbox: "Sandbox"
        }
    }

    /// `production` / `sandbox` in any case.
    public init?(userText: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == userText.lowercased() }) else { return nil }
        self = match
    }
}
