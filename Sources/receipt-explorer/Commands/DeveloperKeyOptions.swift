import ArgumentParser
import DocumentCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `verify --key KEY [--key-id KID]`: the developer's In-App Purchase key for developer-signed JWS.
/// The key file is read once and only its public half kept; its contents never reach any output.
struct DeveloperKeyOptions: ParsableArguments {
    @Option(name: .customLong("key"),
            help: ArgumentHelp("For developer-signed JWS (promotional offer, introductory-offer eligibility, Advanced Commerce request, App Store Server API token): your In-App Purchase key, a PEM public key or the .p8 private key from App Store Connect (only its public half is used).",
                               valueName: "KEY"))
    var key: String?

    @Option(name: .customLong("key-id"),
            help: ArgumentHelp("The kid the token's header must carry (default: from a key file named SubscriptionKey_<KID>.p8 or AuthKey_<KID>.p8).",
                               valueName: "KID"))
    var keyID: String?

    /// The options given, for `OptionTable`'s refusals.
    var given: Set<ReadingOption> { Set([(key != nil, ReadingOption.key), (keyID != nil, .keyID)].filter(\.0).map(\.1)) }

    /// Sets the key and key id on `jws`, or a one-line complaint (never quoting the file) and exit status 2.
    func apply(to jws: inout JWSOptions) throws {
        if let keyID, keyID.isEmpty || !keyID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
            CommandSupport.complain("--key-id: '\(keyID)' is not a key id (letters and digits, as App Store Connect shows it)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        jws.keyID = keyID
        guard let key else { return }
        var bytes = try CommandSupport.optionFile(key, option: "--key")
        do {
            try jws.loadDeveloperKey(&bytes, fileName: key)
        } catch {
            CommandSupport.complain("--key \(key): \(error)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }
}
