import ArgumentParser
import DocumentModel

/// The expectations only StoreKit 2 tokens have (`--bundle-id` and `--root` are shared with receipts).
struct TokenCheckOptions: ParsableArguments {
    @Option(help: ArgumentHelp("StoreKit 2: expected environment (Production, Sandbox, Xcode; any case).", valueName: "ENV"))
    var environment: String?

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("StoreKit 2: expected appAppleId (a number).", valueName: "ID"))
    var appAppleID: String?

    /// The options, or a one-line complaint and exit status 2.
    func options() throws -> JWSOptions {
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
