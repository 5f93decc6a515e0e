import ArgumentParser
import ASN1Lenient
import DocumentModel
import ExplorerUI
import Foundation
import ReceiptKit
import TerminalAdapter

/// `receipt-explorer tour [FILE] [--print]`: a guided walk through FILE, in the explorer or as text.
struct TourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "A guided tour of FILE's encoding, step by step (in the explorer, or as text with --print).",
        discussion: """
            The steps come from the document: a receipt is toured from its PKCS#7 ContentInfo through \
            the payload's attributes to the signature; other ASN.1 is toured by its structure. In the \
            explorer, n / → is the next step, p / ← the previous, q / Esc leaves the tour at the \
            current node and t resumes it. --print writes every step's lesson as plain text.
            """
    )

    @Argument(help: ArgumentHelp("\(InputForms.list) ('-' reads standard input with --print). Default: the embedded sample receipt."))
    var file: String?

    @Flag(help: "Write the lessons as plain text instead of opening the explorer.")
    var print = false

    func run() throws {
        if !print, let refusal = TerminalPreflight.check() {
            FileHandle.standardError.write(Data((ExploreCommand.message(refusal) + "\n").utf8))
            throw ExitCode(ExitStatus.usageOrIO)
        }
        let input: LoadedInput
        if let file {
            input = try CommandSupport.load(file)
        } else {
            input = LoadedInput(bytes: EmbeddedSample.bytes, name: "embedded sample: \(EmbeddedSample.name)",
                                encoding: .binary, note: "the sample receipt built into the tool, signed by the TEST root")
        }
        // The lessons do not depend on validation; the lab's status line does (the sample's TEST root is trusted).
        let options = AnalysisOptions(validate: !print, roots: file == nil ? [EmbeddedSample.testRootCertificate] : [])
        let document = Document.open(input, options: options)
        if print {
            let out = OutputWriter(.standardOutput)
            out.write("# \(TerminalSafe.escape(document.source.name)): \(document.note)\n\n")
            out.write(document.tour.text(fileRange: document.fileRange(of:)))
            out.flush()
            return
        }
        var state = AppState(document: document, options: options)  // the lab re-opens edits the same way
        state.startTour()
        do {
            try TerminalUI.run(options: TerminalOptions(color: .auto, mouse: true, timingLogPath: nil, startedAt: .now),
                               state: &state,
                               reduce: { state, message in ExplorerUI.reduce(&state, message) },
                               render: { state, size in ExplorerUI.render(state, size: size) })
        } catch let refusal as TerminalUnavailable {
            FileHandle.standardError.write(Data((ExploreCommand.message(refusal) + "\n").utf8))
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }
}
