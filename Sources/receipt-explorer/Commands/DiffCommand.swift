import ArgumentParser
import ASN1Lenient
import DocumentCore
import DocumentDiff
import ExplorerUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import ReceiptKit
import TerminalAdapter
import TextOutput

/// `receipt-explorer diff A B [--format text|json] [--color auto|always|never] [--explore] [--root CERT]...
/// [--device-id ID] [--bundle-id ID] [--app-version V] [--at DATE] [--no-validate]`
struct DiffCommand: ParsableCommand {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    static let configuration = CommandConfiguration(
        commandName: "diff",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Compare two receipts, two StoreKit 2 inputs, or a receipt with StoreKit 2 transactions.",
        discussion: """
            Semantic first. Two receipts: app-level attributes by type; in-app purchases matched by \
            transaction id (else original transaction id and purchase date), a cancellation date that \
            appeared named a refund and a later purchase in a subscription chain a renewal; certificates \
            by SHA-256 fingerprint and the signature (same payload, new signature: re-signed). Two \
            lone StoreKit 2 tokens: payload fields by JSON path, x5c certificates and signature. \
            History responses, notifications, or a history against one transaction: the JSON bodies' \
            own fields by path, tokens that are not transactions by path, and the transactions matched \
            by transactionId (else originalTransactionId and purchase date, and the entry says so) \
            like purchases: a revocationDate that appeared named a refund, a new transaction in a \
            chain a renewal, only signedDate and signature changed re-signed. A receipt with \
            StoreKit 2 transactions: purchases matched by transaction id, fields compared through \
            the receipt ↔ JWS field map, dates as instants.

            Then the structure. Two ASN.1 inputs node by node: each differing node with its path \
            and byte ranges on both sides; "same content, different encoding" where the decoded values \
            are equal but the bytes differ (DER vs BER, indefinite lengths, chunked OCTET STRINGs, a \
            SET in another order). Two StoreKit 2 inputs layer by layer, for every pair of tokens \
            matched above: the token's characters (base64url padding), the header and payload JSON \
            with the JSON path at each differing range (key order, whitespace, string escapes such \
            as \\/ and number form are re-encodings), each x5c certificate's DER as ASN.1, and the \
            signature.

            Equivalent means the same decoded content: no semantic difference and no structural one \
            other than a re-encoding. A re-encoded receipt is equivalent (its signature still covers \
            the same payload); a re-signed one is not.

            --explore opens the explorer on A and B instead of printing, with the diff list already \
            shown (the overlay `d` opens; Esc closes it, d shows it again, } and { switch documents). \
            It needs a terminal on stdin and stdout and cannot be combined with --format json. It \
            opens A and B as `explore` does, validated (signature, chain, time; --root, --device-id, \
            --bundle-id, --app-version and --at as for `explore`; --no-validate decodes only), so the \
            summary shows each document's verdict. The printed diff compares decoded content and \
            reports no verdict, so it skips the OpenSSL steps.

            Exit status: 0 = equivalent; 1 = different; 2 = usage or I/O problem (one line on stderr). \
            With --explore: 0 when the explorer was closed normally.
            """
    )

    @Argument(help: ArgumentHelp("The first input: \(InputForms.list); '-' reads standard input."))
    var a: String

    @Argument(help: "The second input.")
    var b: String

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Colour the text: auto, always or never.")
    var color: ColorChoice = .auto

    @Option(name: .customLong("structural-limit"), help: ArgumentHelp("Structural entries to list; the rest are counted.", valueName: "N"))
    var structuralLimit: Int = DocumentDiff.defaultStructuralLimit

    @Flag(help: "Open the explorer on A and B with the diff list shown, instead of printing it.")
    var explore = false

    @OptionGroup var opening: OpenOptions

    func validate() throws {
        if a == "-" && b == "-" { throw ValidationError("only one of A and B can be '-' (standard input)") }
        if structuralLimit < 0 { throw ValidationError("--structural-limit must be 0 or more") }
    }

    func run() throws {
        let started = ContinuousClock.now
        if explore { try refuseExploreUnlessInteractive() }
        let (documentA, documentB) = try documents()
        if explore {
            // The explorer computes the same list `d` shows; its own exit status is the explorer's.
            return try ExploreCommand.explore([documentA, documentB], color: color, ascii: false, mouse: true,
                                              started: started, phases: [("load", ContinuousClock.now - started)],
                                              prepare: Self.prepareExplorer)
        }
        let (nameA, nameB, kindA, kindB) = (documentA.source.name, documentB.source.name, Self.kind(documentA), Self.kind(documentB))
        // Handed over: the diff keeps what its entries are made from, as they are written (two
        // 50 MB receipts' 162,897 entries were 86 MB kept whole beside the documents; issue 32).
        let diff = DocumentDiff.compare(consume documentA, consume documentB, structuralLimit: structuralLimit)
        let out = OutputWriter(.standardOutput)
        switch format {
        case .text:
            let colored = color.enabled(outputIsTerminal: isatty(1) != 0, environment: ProcessInfo.processInfo.environment)
            DiffText.write(diff, nameA: nameA, nameB: nameB, kindA: kindA, kindB: kindB, color: colored) { out.write($0) }
        case .json:
            var doc = DiffJSON.document(diff)
            doc["a"] = ["name": nameA, "kind": kindA]
            doc["b"] = ["name": nameB, "kind": kindB]
            ReceiptJSON.stream(doc) { out.write(raw: $0) }
        }
        out.flush()
        if !diff.isEquivalent { throw ExitCode(1) }
    }

    /// A and B opened: with --explore as `explore` opens its files (its verdicts are shown); the
    /// printed diff reads decoded content only, so it skips the OpenSSL steps (the options are
    /// still read, so that an unreadable --root is reported either way).
    func documents() throws -> (Document, Document) {
        var options = try opening.analysisOptions()
        if !explore, let option = opening.given.sorted().first {
            CommandSupport.complain("\(option.flag) applies to `diff --explore` only: the printed diff compares the decoded content, unverified")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        if !explore { options.validate = false }
        let documents = (try CommandSupport.open(a, options: options), try CommandSupport.open(b, options: options))
        for document in [documents.0, documents.1] { try CommandSupport.refuseInapplicable(opening.given, for: document) }
        return documents
    }

    /// The explorer opens with the diff list shown.
    static func prepareExplorer(_ state: inout AppState) { state.openDiffOverlay() }

    /// `--explore` draws on the terminal: refuse, before loading, where it cannot.
    func refuseExploreUnlessInteractive() throws {
        try CommandSupport.refuseExploreUnlessInteractive(withJSONFormat: format == .json, readsStandardInput: a == "-" || b == "-",
                                                          inputs: "A or B", printed: "the diff")
    }

    /// What the input is, in the words every command's header uses.
    static func kind(_ document: Document) -> String { document.kind.summary }
}
