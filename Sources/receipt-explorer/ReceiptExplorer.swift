import ArgumentParser
import ASN1Lenient
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import ReceiptKit
import TextOutput
import X509Trust

/// The root command. Subcommands stay thin: parse options, call the library, print.
@main
struct ReceiptExplorer: ParsableCommand {
    static let toolName = "receipt-explorer"

    static let configuration = CommandConfiguration(
        commandName: toolName,
        abstract: "Explore, explain and verify App Store purchase data: app receipts, StoreKit 2 and developer-signed JWS, external purchase tokens, any DER/BER.",
        discussion: """
            Kinds of input: an app receipt (PKCS#7, DER or Xcode's BER); a StoreKit 2 JWS (a \
            transaction, renewal info, an app transaction, a notification's signedPayload or a \
            Retention Messaging request) or JSON carrying such tokens (a notification request body, \
            every App Store Server API response by name: transaction, refund and notification \
            history, subscription statuses, order lookup, app transaction, Advanced Commerce, test \
            notification status); your Retention Messaging replies, whose promotional offer \
            signatures (V2 JWS, and V1 checked with --key) are verified; a developer-signed JWS (a promotional offer signature, an \
            introductory-offer eligibility token, an Advanced Commerce request, an App Store Server API \
            bearer token), which verify checks with your In-App Purchase key (--key KEY: the .p8 or a PEM \
            public key); an external purchase token (base64url JSON); an iOS 6 style transaction receipt \
            (recognised and named, not read); a certificate or any other DER/BER.

            FILE may hold it as raw bytes, base64 (line breaks and whitespace allowed), PEM \
            (-----BEGIN PKCS7----- and friends), a verifyReceipt request body {"receipt-data": "..."} \
            or the token's text; '-' reads standard input, and a token given in place of FILE is read \
            as one. Pastes: when the whole input is none of these, the data is found inside it (a log \
            line, quotes, a markdown fence, a form body, any JSON key, a HAR capture) and the first \
            line of dump says where. The form is detected automatically and every offset is an offset \
            into the decoded bytes. The manual: docs/manual/ (man receipt-explorer).

            \(ExitStatus.discussion)
            """,
        version: versionLine,
        subcommands: [
            ExploreCommand.self,
            DumpCommand.self,
            ExplainCommand.self, JSONCommand.self, VerifyCommand.self,
            DiffCommand.self,
            TourCommand.self,
            RedactCommand.self,
            TimelineCommand.self,
            APICommand.self,
        ],
        defaultSubcommand: ExploreCommand.self
    )

    static let version = "0.1.0"
    /// What `--version` prints: ours, and the OpenSSL it was built against (from the headers: printing it loads no library).
    static var versionLine: String { "receipt-explorer \(version) (\(OpenSSLVersion.built))" }

    /// ArgumentParser exits with 64 (EX_USAGE) for usage errors; this tool promises 2 for every
    /// usage or I/O problem, so the error is mapped here.
    static func main() {
        // `--version` alone, answered before ArgumentParser builds the command tree: that reflects
        // every command's options and faults in code and metadata from all over the binary, most of
        // what `--version` cost in memory (docs/performance.md, "Start-up"). Same line as
        // ArgumentParser prints for it (`CommandConfiguration.version` + newline); any other
        // argument list, `--version` among others included, goes through ArgumentParser.
        if CommandLine.arguments.count == 2, CommandLine.arguments[1] == "--version" {
            OutputWriter.write(versionLine + "\n", to: .standardOutput)
            return
        }
        let names = configuration.subcommands.map { $0.configuration.commandName ?? "" }
        if let typo = SubcommandSuggestion.complaint(arguments: Array(CommandLine.arguments.dropFirst()), subcommands: names) {
            CommandSupport.complain(typo)
            terminate(ExitStatus.usageOrIO)
        }
        do {
            var command = try parseCommand(ArgumentSpelling.joiningFormatValues(Array(CommandLine.arguments.dropFirst()), commands: Set(names)))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = fullMessage(for: error)
                if !message.isEmpty { OutputWriter.write(message + "\n", to: .standardError) }
                terminate(ExitStatus.usageOrIO)
            }
            exit(withError: error)
        }
    }
}

/// The exit statuses every command uses.
enum ExitStatus {
    /// No error-severity diagnostic ("der", warning and info findings do not count).
    static let ok: Int32 = 0
    /// The input has errors; everything that could be parsed was still printed.
    static let inputHasErrors: Int32 = 1
    /// A usage or I/O problem: one line on stderr, nothing on stdout.
    static let usageOrIO: Int32 = 2

    static let discussion = """
        Exit status: 0 = no error-severity diagnostic; 1 = the input has errors (everything \
        parseable is still printed); 2 = usage or I/O problem (one line on stderr).
        """
}

/// libc's exit(3), named apart from ParsableCommand's `exit(withError:)`, which shadows it in the type.
private func terminate(_ status: Int32) -> Never { exit(status) }
