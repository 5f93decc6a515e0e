import ArgumentParser
import ASN1Lenient
import DocumentCore
import DocumentTimeline
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import ReceiptKit
import ExplorerUI
import TerminalAdapter
import TextOutput

/// `receipt-explorer timeline FILE... [--at DATE] [--transaction ID] [--format text|json] [--explore]`
struct TimelineCommand: ParsableCommand {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    static let configuration = CommandConfiguration(
        commandName: "timeline",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Every purchase, renewal, offer, billing retry, expiry and refund of every input on one time line.",
        discussion: """
            Reads app receipts (each in-app purchase: its start, intro offer or trial, cancellation \
            date and reason), StoreKit 2 transactions (alone, in a transaction history or \
            subscription statuses response, or nested in a notification: start, offer type and \
            period, family sharing, revocation type, percentage and reason), renewal infos and \
            App Store Server Notifications (type and subtype: billing retry, grace period, \
            expiry with its intent, refund, upgrade, downgrade, renewal status…). Events are \
            grouped by original transaction and subscription group; an event two documents \
            report is printed once, with both sources ([n] place). Gaps with no entitlement are \
            printed as gap events. Conflicts between documents (a receipt that says expired \
            where a later notification renewed; dates that differ; a refund a later document \
            does not show) are listed last.

            --at DATE adds the entitlement of each group at that moment. --transaction ID adds \
            every document and node that mentions the id (as transactionId, \
            originalTransactionId, webOrderLineItemId or appTransactionId) and, for each \
            receipt that does not, the reason the documents' dates and types give, or "no \
            reason in these documents".

            --format json prints one JSON object {"documents", "groups", "findings"} (and "at", \
            "transaction" when asked). --explore opens the explorer on the inputs with the \
            timeline view shown (the view T opens).

            Exit status: 0 = the timeline was printed and the documents agree; 1 = an input has \
            errors, documents conflict, or the --transaction id is in no input; 2 = usage or \
            I/O problem (one line on stderr). With --explore: 0 when the explorer was closed normally.
            """
    )

    @Argument(help: ArgumentHelp("The inputs: \(InputForms.list); '-' reads standard input."))
    var files: [String] = []

    @Option(help: ArgumentHelp("Also print each group's entitlement at this moment (RFC 3339, YYYY-MM-DD, or now).", valueName: "DATE"))
    var at: String?

    @Option(help: ArgumentHelp("Also print where this id is (any of transactionId, originalTransactionId, webOrderLineItemId, appTransactionId) and why a receipt lacks it.",
                               valueName: "ID"))
    var transaction: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Flag(help: "Open the explorer on the inputs with the timeline view shown, instead of printing.")
    var explore = false

    func validate() throws {
        try InputForms.requireFiles(files)
        if explore && format == .json { throw ValidationError("--explore cannot be combined with --format json") }
        if explore && (at != nil || transaction != nil) {
            throw ValidationError("--at and --transaction print a report: with --explore, move the cursor (the entitlement at its date is shown) and press f for a transaction")
        }
        if let transaction, transaction.isEmpty { throw ValidationError("--transaction needs an id") }
    }

    func run() throws {
        let started = ContinuousClock.now
        var moment: Int64?
        if let at {
            guard let date = ReceiptDate.parseUserDate(at) else {
                CommandSupport.complain("--at: '\(at)' is not a date (use RFC 3339 like 2024-03-05T10:00:00Z, or YYYY-MM-DD, or now)")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            moment = date.epochMilliseconds
        }
        if explore { try refuseExploreUnlessInteractive() }
        // The timeline reads decoded content; the signature checks are the explorer's (and verify's).
        var options = AnalysisOptions()
        options.validate = explore
        let documents = try files.map { try CommandSupport.open($0, options: options) }
        if explore {
            return try ExploreCommand.explore(documents, color: .auto, ascii: false, mouse: true, started: started,
                                              phases: [("load", ContinuousClock.now - started)]) { $0.openTimelineOverlay() }
        }
        let lookup = transaction.map { TransactionLookup.find($0, in: documents) }
        let inputHasErrors = documents.contains { CommandSupport.status($0) != ExitStatus.ok }
        // Handed over: the documents go once read, before the events are made (issue 32).
        let timeline = Timeline.build(consume documents)
        let out = OutputWriter(.standardOutput)
        switch format {
        // Written as made, never held whole (issue 32).
        case .text: TimelineText.render(timeline, at: moment, lookup: lookup) { out.write($0) }
        case .json: TimelineJSON.write(timeline, at: moment, lookup: lookup) { out.write(bytes: $0) }
        }
        out.flush()
        let failed = inputHasErrors || !timeline.findings.isEmpty
            || lookup.map { $0.mentions.isEmpty } == true
        try CommandSupport.finish(failed ? ExitStatus.inputHasErrors : ExitStatus.ok)
    }

    /// `--explore` draws on the terminal: refuse, before loading, where it cannot (`--format json` is refused in `validate`).
    func refuseExploreUnlessInteractive() throws {
        try CommandSupport.refuseExploreUnlessInteractive(withJSONFormat: false, readsStandardInput: files.contains("-"),
                                                          inputs: "an input", printed: "the timeline")
    }
}
