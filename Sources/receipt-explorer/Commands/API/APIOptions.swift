import ArgumentParser
import DocumentCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import JWSKit
import ReceiptKit
import ServerAPI

/// What every `api` command takes: who asks (key, key id, issuer, bundle id; each also from the
/// environment, so they stay out of shell history), where (environment or --base-url), where the
/// bodies go (--out), how the result is shown, and the expectations `verify` applies to what came.
struct APIOptions: ParsableArguments {
    static let environmentPrefix = "RECEIPT_EXPLORER_API_"

    @Option(help: ArgumentHelp("The In-App Purchase key from App Store Connect (SubscriptionKey_<KID>.p8); default $RECEIPT_EXPLORER_API_KEY. Read once, used only to sign, never shown.",
                               valueName: "FILE"))
    var key: String?

    @Option(name: .customLong("key-id"),
            help: ArgumentHelp("The key's id; default $RECEIPT_EXPLORER_API_KEY_ID, else from the file name SubscriptionKey_<KID>.p8.", valueName: "KID"))
    var keyID: String?

    @Option(help: ArgumentHelp("Your issuer id (App Store Connect, Users and Access, Integrations); default $RECEIPT_EXPLORER_API_ISSUER.", valueName: "ID"))
    var issuer: String?

    @Option(name: .customLong("bundle-id"),
            help: ArgumentHelp("Your app's bundle id, sent in the token and expected in every signed item; default $RECEIPT_EXPLORER_API_BUNDLE_ID.",
                               valueName: "ID"))
    var bundleID: String?

    @Option(help: ArgumentHelp("production or sandbox (required): the host asked, and the environment every signed item must name.", valueName: "ENV"))
    var environment: String?

    @Option(name: .customLong("base-url"),
            help: ArgumentHelp("Send the requests here instead of the environment's host (a proxy, a local stand-in).", valueName: "URL"))
    var baseURL: String?

    @Option(help: ArgumentHelp("Save every response body byte for byte here, one file per page (history-001.json, …).", valueName: "DIR"))
    var out: String?

    @Option(help: ArgumentHelp("text (each page's and each signed item's verdict, then a summary) or json (one verify report per page, NDJSON).",
                               valueName: "FORMAT"))
    var format: VerifyFormat = .text

    @Flag(help: "Print the timeline of what was fetched (as `timeline` prints it) after the verdicts.")
    var timeline = false

    @Flag(help: "Open what was fetched in the explorer (history, statuses and notifications in the timeline view).")
    var explore = false

    @Option(name: .customLong("root"),
            help: ArgumentHelp("A trust anchor in addition to the pinned Apple roots (DER or PEM; repeatable), as for verify.", valueName: "CERT"))
    var roots: [String] = []

    @Option(help: ArgumentHelp("The moment for the checks that use one, as for verify: RFC 3339, YYYY-MM-DD or 'now' (default).", valueName: "DATE"))
    var at: String?

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("Expected app Apple ID in every signed item, as for verify.", valueName: "ID"))
    var appAppleID: String?

    @Option(help: ArgumentHelp("Seconds each request may take, connecting included (default 30, as Apple's libraries).", valueName: "SECONDS"))
    var timeout: Int = 30

    @Flag(help: "Print each request line and its token's header and claims on stderr (never the token).")
    var verbose = false

    func validate() throws {
        if environment == nil {
            throw ValidationError("--environment is required: production or sandbox")
        }
        if let environment, APIEnvironment(userText: environment) == nil {
            throw ValidationError("--environment: '\(environment)' is not production or sandbox")
        }
        if explore && format == .json { throw ValidationError("--explore cannot be combined with --format json") }
        if timeline && format == .json { throw ValidationError("--timeline prints text: with --format json, run `timeline --format json` on the --out files") }
        if timeout < 1 || timeout > 600 { throw ValidationError("--timeout: \(timeout) is not between 1 and 600 seconds") }
        if let baseURL, !(baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://")) {
            throw ValidationError("--base-url: '\(baseURL)' is not an http:// or https:// URL")
        }
    }

    var apiEnvironment: APIEnvironment { APIEnvironment(userText: environment ?? "") ?? .production }

    /// An option's value, else its environment variable's (empty counts as unset).
    static func value(_ given: String?, _ variable: String) -> String? {
        if let given { return given }
        guard let raw = getenv(environmentPrefix + variable) else { return nil }
        let text = String(cString: raw)
        return text.isEmpty ? nil : text
    }

    /// The credentials, the key read once and consumed; or a one-line complaint (never quoting the
    /// file) and exit status 2.
    func credentials() throws -> BearerCredentials {
        func required(_ given: String?, _ variable: String, _ option: String) throws -> String {
            guard let value = Self.value(given, variable) else {
                throw ValidationError("\(option) is required (or $\(Self.environmentPrefix)\(variable))")
            }
            return value
        }
        let path = try required(key, "KEY", "--key")
        let issuer = try required(issuer, "ISSUER", "--issuer")
        let bundleID = try required(bundleID, "BUNDLE_ID", "--bundle-id")
        var bytes = try CommandSupport.optionFile(path, option: "--key")
        let signer: DeveloperSigner
        do {
            signer = try DeveloperSigner.load(&bytes, fileName: path)
        } catch {
            CommandSupport.complain("--key \(path): \(error)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        guard let keyID = Self.value(keyID, "KEY_ID") ?? signer.keyIDFromName else {
            throw ValidationError("--key-id is required when the key file is not named SubscriptionKey_<KID>.p8 (or $\(Self.environmentPrefix)KEY_ID)")
        }
        do {
            return try BearerCredentials(signer: signer, keyID: keyID, issuer: issuer, bundleID: bundleID)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// What each fetched body is verified with: `verify`'s options, the environment asked and the bundle id expected.
    func verification() throws -> (AnalysisOptions, JWSOptions) {
        var options = AnalysisOptions(validate: true, bundleID: Self.value(bundleID, "BUNDLE_ID"), appVersion: nil)
        options.anchors = try ReceiptCheckOptions.readRoots(roots)
        if let at { options.at = try ReceiptCheckOptions.parseAt(at) }
        let jws = try TokenCheckOptions.options(environment: apiEnvironment.signedName, appAppleID: appAppleID)
        options.environment = jws.expectedEnvironment
        options.appAppleID = jws.expectedAppAppleID
        return (options, jws)
    }
}
