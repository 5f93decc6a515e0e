import ArgumentParser
import ASN1Lenient
import DocumentCore
import DocumentBatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import TextOutput
import X509Trust

/// The validation inputs `verify` and `json` share.
struct ReceiptCheckOptions: ParsableArguments {
    @Option(name: .customLong("root"),
            help: ArgumentHelp("A trust anchor in addition to the pinned Apple roots (DER or PEM; repeatable).", valueName: "CERT"))
    var roots: [String] = []

    @Option(name: .customLong("device-id"),
            help: ArgumentHelp("identifierForVendor UUID or MAC address, for the device-hash step.", valueName: "ID"))
    var deviceID: String?

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("Expected bundle identifier (attribute 2).", valueName: "ID"))
    var bundleID: String?

    @Option(name: .customLong("app-version"), help: ArgumentHelp("Expected app version (attribute 3).", valueName: "V"))
    var appVersion: String?

    @Option(name: .customLong("at"),
            help: ArgumentHelp("The moment for the expiration check and active subscriptions, and a token's 'today' (its chain's moment when it has no signedDate): RFC 3339, YYYY-MM-DD or 'now' (default).",
                               valueName: "DATE"))
    var at: String?

    /// The options given, for `OptionTable`'s refusals.
    var given: Set<ReadingOption> {
        Set([(!roots.isEmpty, ReadingOption.root), (deviceID != nil, .deviceID), (bundleID != nil, .bundleID),
             (appVersion != nil, .appVersion), (at != nil, .at)].filter(\.0).map(\.1))
    }

    /// The analysis options, or a one-line complaint and exit status 2.
    func analysisOptions(validate: Bool) throws -> AnalysisOptions {
        var options = AnalysisOptions(validate: validate, bundleID: bundleID, appVersion: appVersion)
        options.anchors = try Self.readRoots(roots)
        if let parsed = try CommandSupport.deviceID(deviceID) { options.deviceID = parsed }
        if let at { options.at = try Self.parseAt(at) }
        return options
    }

    /// `--root` files as the anchors every document of the run trusts, each file checked to hold
    /// certificates; or a one-line complaint and exit status 2. The set is prepared here, so the
    /// check is the reading that verification then uses: a root file is read and decoded once.
    static func readRoots(_ paths: [String]) throws -> TrustAnchorSet {
        let anchors = TrustAnchorSet(files: try paths.map { try CommandSupport.optionFile($0, option: "--root") })
        if let (index, reason) = anchors.prepared().unreadable.first {
            CommandSupport.complain("--root \(paths[index]): \(reason)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        return anchors
    }

    /// `--at DATE`; or a one-line complaint and exit status 2.
    static func parseAt(_ at: String) throws -> Date {
        guard let date = ReceiptDate.parseUserDate(at) else {
            CommandSupport.complain("--at: '\(at)' is not a date (use RFC 3339 like 2024-03-05T10:00:00Z, or YYYY-MM-DD, or now)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        return date.date
    }
}

extension StepText {
    /// Reasons that name this tool's flags ("no device identifier given (--device-id)").
    static let commandLine = StepText { input in
        switch input {
        case .root: "--root"
        case .deviceID: "--device-id"
        case .bundleID: "--bundle-id"
        case .appVersion: "--app-version"
        case .environment: "--environment"
        case .appAppleID: "--app-apple-id"
        case .developerKey: "--key"
        case .keyID: "--key-id"
        }
    }
}

/// `receipt-explorer verify FILE [--root CERT]... [--device-id ID] [--bundle-id ID] [--app-version V] [--at DATE]
/// [--environment ENV] [--app-apple-id ID] [--format text|json] [--quiet] [--ascii]`
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Verify a receipt or StoreKit 2 JWS step by step: signature, chain, time, signer, app checks.",
        discussion: """
            Each step is printed as ✓ passed, ✗ failed or – not checked, with its reason and details; \
            then the signer chain (subjects and SHA-256 fingerprints), the subscriptions active at --at \
            (default now) and the verdict.

            Trust: only the pinned Apple roots (Apple Inc. Root, Apple Root CA - G2/G3) and the \
            certificates given with --root are anchors; a certificate is never trusted because the \
            receipt carries it. The chain is judged at the receipt's creation date (attribute 12), since \
            older signing certificates have expired since; whether it would pass today is shown too.

            --environment compares the environment a receipt's type (attribute 0) names \
            (ProductionSandbox is Sandbox) and --app-apple-id its attribute 1 (0 in every sandbox and \
            Xcode receipt); the verdict names a sandbox or Xcode receipt as such.

            Xcode StoreKit Testing receipts are reported as "signed by Xcode StoreKit Testing — local \
            testing only, not the App Store" and are INVALID (exit 1) unless you pass that certificate \
            with --root, which accepts them for local testing.

            StoreKit 2 (a compact JWS, a notification's signedPayload, a transaction history): header \
            alg ES256, x5c leaf ← intermediate ← root pinned to Apple Root CA - G3 (or a --root), the \
            marker extensions, validity at the token's signedDate (today, or --at when given, is shown \
            for information; a token without signedDate is judged today or at --at), the ES256 signature, and --bundle-id / --environment / --app-apple-id. A \
            notification's nested tokens are verified on their own, held to the same expectations, \
            and must agree with its data. Revocation (OCSP) is not checked: this tool works offline.

            Developer-signed JWS (a promotional offer signature V2, an introductory-offer \
            eligibility token, an Advanced Commerce in-app request, an App Store Server API bearer \
            token: ES256, kid, no x5c) are checked with --key, your In-App Purchase key (the .p8 \
            App Store Connect gave you, or its PEM public key; only the public half is used, and no \
            output contains the private key): kid (from --key-id or a SubscriptionKey_<KID>.p8 / \
            AuthKey_<KID>.p8 file name), the signature, aud, iat not after --at, exp not passed at \
            --at, a bearer token's exp at most 60 minutes after iat, bid against --bundle-id, nonce \
            a lowercase UUID. Without --key the verdict asks for it (exit 1); --key for any other \
            input is refused (exit 2). An external purchase token is unsigned: nothing to verify \
            (exit 1), but --bundle-id, --environment and --app-apple-id are compared.

            A legacy (V1) promotional offer signature is checked with --key and --bundle-id, from a \
            FILE (a Retention Messaging reply's promotionalOfferSignatureV1, or a JSON object with its \
            fields) or from options without FILE: --offer-signature SIG --product-id P --offer-id O \
            [--app-account-token T] --nonce N --timestamp MS (the key id from --key-id or the .p8's \
            name). UUIDs are compared lowercase; on failure the exact string expected to be signed is \
            printed, each part in ⟦ ⟧ and each U+2063 separator shown as <U+2063>.

            Each failing step also names the status Apple's server library would return for it \
            (VERIFICATION_FAILURE, INVALID_CHAIN_LENGTH, INVALID_CERTIFICATE, INVALID_APP_IDENTIFIER, \
            INVALID_ENVIRONMENT), so a server log and this report can be matched; none maps to \
            RETRYABLE_VERIFICATION_FAILURE, which Apple returns when its online revocation (OCSP) check \
            cannot complete: this tool is offline and never checks revocation.

            --format json prints the whole report (docs/verify-schema.json, "schema_version" 4); \
            --quiet prints only the verdict with its first failing reason ("INVALID: …") and is a \
            usage error with --format json.

            \(BatchOptions.discussion) In text, each line is "SOURCE: VALID — summary" or \
            "SOURCE: INVALID: first reason"; with --quiet, the verdict alone.

            An option the input's kind cannot use is refused (docs/manual/options.md): exit 2, one line \
            naming the option and the kind; in batch, that input's ERROR line.

            Exit status: 0 = valid (in batch: every input); 1 = invalid (a step failed, the input \
            has errors, or it is not App Store data); 2 = usage or I/O problem (one line on stderr).
            """
    )

    @Argument(help: InputForms.filesHelp)
    var files: [String] = []

    @OptionGroup var batch: BatchOptions

    @OptionGroup var check: ReceiptCheckOptions

    @OptionGroup var tokenChecks: TokenCheckOptions

    @OptionGroup var developerKey: DeveloperKeyOptions

    @OptionGroup var offer: OfferSignatureOptions

    @Flag(help: "Use ASCII marks (+ x -) instead of ✓ ✗ –.")
    var ascii = false

    @Option(help: ArgumentHelp("text (the readable report) or json (the whole report, docs/verify-schema.json).", valueName: "FORMAT"))
    var format: VerifyFormat = .text

    @Flag(help: "Print only the verdict with its first failing reason (text format only; with --format json it is a usage error).")
    var quiet = false

    func validate() throws {
        if quiet && format == .json {
            throw ValidationError("--quiet prints the text verdict line; with --format json read .verdict instead")
        }
        // The V1 offer fields as options stand for FILE.
        if offer.signature == nil || !files.isEmpty { try InputForms.requireFiles(files) }
    }

    /// The reading options given (`OptionTable`).
    var given: Set<ReadingOption> { check.given.union(tokenChecks.given).union(developerKey.given) }

    func run() throws {
        var options = try check.analysisOptions(validate: true)
        var jws = try tokenChecks.options(applyingTo: &options)
        try developerKey.apply(to: &jws)
        if !offer.given.isEmpty {
            guard files.isEmpty else {
                try offer.refuse(with: Document.open(try CommandSupport.read(.path(files[0])), DocumentCore.OpenOptions(analysis: AnalysisOptions(validate: false))))
                return
            }
        }
        if batch.isBatch(fileCount: files.count) {
            let output: BatchCheck.Format = format == .json ? .verifyJSON : (quiet ? .verifyQuiet : .verifyText)
            let check = BatchCheck(format: output, options: options, jws: jws, words: .commandLine, ascii: ascii, given: given)
            return try CommandSupport.finish(BatchRunner.run(files: files, options: batch, check: check))
        }
        // An option the input's kind cannot use is a usage error (in batch, that input's error line).
        let input = files.isEmpty ? try offer.input(bundleID: options.bundleID, keyID: jws.expectedKeyID) : .path(files[0])
        let (document, report) = try Self.verify(input, options: options, jws: jws, given: given)
        // Written as it is made, never whole (a history's report is 50 KB a token); JSON as bytes,
        // without a round trip through String.
        let out = OutputWriter(.standardOutput)
        switch (format, quiet) {
        case (.json, _):
            VerificationJSON.stream(report, input: (document.source.name, document.fileLayer.bytes.count)) { out.write(raw: $0) }
        case (.text, true):
            out.write(VerificationText.quietLine(report, ascii: ascii) + "\n")
        case (.text, false):
            document.format.writeVerifyText(document, report: report, style: VerifyStyle(unicode: !ascii), words: .commandLine) { out.write($0) }
        }
        out.flush()
        if !report.verdict.valid { throw ExitCode(1) }
    }
}

extension VerifyCommand {
    /// The one verification path of `verify FILE`, which `api` runs over each body it fetched.
    static func verify(_ input: DocumentInput, options: AnalysisOptions, jws: JWSOptions,
                       given: Set<ReadingOption> = []) throws -> (Document, VerificationReport) {
        let document = Document.open(try CommandSupport.read(input), DocumentCore.OpenOptions(analysis: options, reading: .always, jws: jws))
        try CommandSupport.refuseInapplicable(given, for: document)
        return (document, VerificationReport(verifying: document, now: options.now, words: .commandLine, jws: jws, bundleID: options.bundleID))
    }
}

enum VerifyFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
