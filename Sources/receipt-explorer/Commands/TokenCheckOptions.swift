import ArgumentParser
import DocumentCore
import ReceiptKit

/// The expectations `verify` applies to receipts and StoreKit 2 tokens alike, beside `--bundle-id`:
/// the environment and the app's Apple ID.
struct TokenCheckOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Expected environment (Production, Sandbox, Xcode; any case): a receipt's type (attribute 0; ProductionSandbox is Sandbox) or a token's environment.",
                               valueName: "ENV"))
    var environment: String?

    @Option(name: .customLong("app-apple-id"),
            help: ArgumentHelp("Expected app Apple ID (a number): a receipt's attribute 1 (0 in sandbox and Xcode receipts) or a token's appAppleId.",
                               valueName: "ID"))
    var appAppleID: String?

    /// The options given, for `OptionTable`'s refusals.
    var given: Set<ReadingOption> {
        Set([(environment != nil, ReadingOption.environment), (appAppleID != nil, .appAppleID)].filter(\.0).map(\.1))
    }

    /// The token options, with the same expectations set on `analysis` for receipts; or a one-line
    /// complaint and exit status 2.
    func options(applyingTo analysis: inout AnalysisOptions) throws -> JWSOptions {
        let jws = try options()
        analysis.environment = jws.expectedEnvironment
        analysis.appAppleID = jws.expectedAppAppleID
        return jws
    }

    /// The options, or a one-line complaint and exit status 2.
    func options() throws -> JWSOptions {
        try Self.options(environment: environment, appAppleID: appAppleID)
    }

    /// The token options for these expectations (`api` gives its --environment as one).
    static func options(environment: String?, appAppleID: String?) throws -> JWSOptions {
        // Apple's environments are these four: anything else is a typo, refused rather than failing every token.
        if let environment, ReceiptEnvironment(userText: environment) == nil {
            let names = ReceiptEnvironment.allCases.map(\.rawValue)
            CommandSupport.complain("--environment: '\(environment)' is not an environment (\(names.dropLast().joined(separator: ", ")) or \(names.last!))")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        var id: Int64?
        if let appAppleID {
            guard let value = Int64(appAppleID), value >= 0 else {
                CommandSupport.complain("--app-apple-id: '\(appAppleID)' is not a number")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            id = value
        }
        return JWSOptions(expectedEnvironment: environment, expectedAppAppleID: id)
    }
}
