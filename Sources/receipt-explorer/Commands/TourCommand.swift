import ArgumentParser
import ASN1Lenient
import DocumentCore
import ExplorerUI
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import TerminalAdapter
import TextLoader
import TextOutput

/// `receipt-explorer tour [FILE] [--print]`: a guided walk through FILE, in the explorer or as text.
struct TourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "A guided tour of FILE's encoding, step by step (in the explorer, or as text with --print).",
        discussion: """
            The steps come from the document: a receipt is toured from its PKCS#7 ContentInfo through \
            the payload's attributes to the signature and the device hash; a StoreKit 2 token from \
            its base64url parts through the JSON, nested tokens and x5c chain to the ES256 signature; \
            a certificate by its RFC 5280 parts; other ASN.1 by its structure. At least every third \
            step asks a self-check (a-c answer it in the explorer; --print adds the answer key). In \
            the explorer, n / → is the next step, p / ← the previous, ↑ / ↓ scroll the lesson, \
            q / Esc leaves the tour at the current node and t resumes it. --print writes every \
            step's lesson as plain text.
            """
    )

    @Argument(help: ArgumentHelp("\(InputForms.list) ('-' reads standard input with --print). Default: the embedded sample receipt."))
    var file: String?

    @Flag(help: "Write the lessons as plain text instead of opening the explorer.")
    var print = false

    @Option(name: .customLong("device-id"),
            help: ArgumentHelp("A receipt's device: identifierForVendor UUID or MAC address; the device-hash step computes attribute 5 with it and says whether it matches.", valueName: "ID"))
    var deviceID: String?

    func run() throws {
        if !print, let refusal = TerminalPreflight.check() {
            OutputWriter.write(ExploreCommand.message(refusal) + "\n", to: .standardError)
            throw ExitCode(ExitStatus.usageOrIO)
        }
        let input = try CommandSupport.read(file.map(DocumentInput.path) ?? EmbeddedSample.input)
        // The lessons do not depend on validation; the lab's status line does (the sample's TEST root is trusted).
        var options = AnalysisOptions(validate: !print, roots: file == nil ? [EmbeddedSample.testRootCertificate] : [])
        if let parsed = try CommandSupport.deviceID(deviceID) { options.deviceID = parsed }
        let document = Document.open(consume input, DocumentCore.OpenOptions(analysis: options))
        try CommandSupport.refuseInapplicable(deviceID == nil ? [] : [.deviceID], for: document)
        if print {
            let out = OutputWriter(.standardOutput)
            out.write("# \(TerminalSafe.escape(document.source.name)): \(document.note)\n\n")
            out.write(document.tour.text(fileRange: document.fileRange(of:)))
            out.flush()
            return
        }
        var state = AppState(document: document)  // the lab re-opens edits as the document was opened
        state.startTour()
        do {
            try TerminalUI.run(options: TerminalOptions(color: .auto, mouse: true, timingLogPath: nil, startedAt: .now),
                               state: &state,
                               reduce: { state, message in ExplorerUI.reduce(&state, message) },
                               render: { state, size in ExplorerUI.render(state, size: size) })
        } catch let refusal as TerminalUnavailable {
            OutputWriter.write(ExploreCommand.message(refusal) + "\n", to: .standardError)
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }
}
