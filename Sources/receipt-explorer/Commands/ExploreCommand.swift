import ArgumentParser
import ASN1Lenient
import DocumentCore
import ExplorerUI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import TerminalAdapter
import TextLoader
import TextOutput

/// `receipt-explorer [explore] [FILE...] [--color auto|always|never] [--ascii] [--no-mouse]
/// [--root CERT]... [--device-id ID] [--bundle-id ID] [--app-version V] [--at DATE] [--no-validate]`:
/// the full-screen terminal UI, and the default command.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Browse FILE... (default: the embedded sample receipt) in a full-screen terminal UI.",
        discussion: """
            The tree of ASN.1 nodes is on the left, the selected node's bytes in the hex pane and its \
            explanation in the detail pane; `r` switches to the receipt views. Several files open \
            as several documents: } and { switch between them, each keeping its own selection. \
            Press ? for every key, q or Esc to quit.

            Needs a terminal on stdin and stdout (otherwise it points to `dump` / `json` and exits \
            2) and a TERM other than 'dumb'. Colour: --color auto (default) colours unless NO_COLOR \
            is set; --ascii draws without box-drawing characters; --no-mouse leaves the mouse to \
            the terminal (for selecting text). RECEIPT_EXPLORER_TIMING=PATH appends frame timings \
            to PATH.
            """
    )

    @Argument(help: ArgumentHelp("\(InputForms.list), one document per file; '-' is not supported here (stdin is the keyboard). Default: the embedded sample receipt."))
    var files: [String] = []

    @Option(help: "Colours: auto (unless NO_COLOR is set), always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "ASCII only: no box-drawing or other non-ASCII decorations.")
    var ascii = false

    @Flag(name: .customLong("no-mouse"), help: "Do not capture the mouse.")
    var noMouse = false

    @OptionGroup var opening: OpenOptions

    func run() throws {
        let started = ContinuousClock.now
        // Refuse before loading: `receipt-explorer FILE | less` should point to `dump` at once.
        if let refusal = TerminalPreflight.check() {
            OutputWriter.write(Self.message(refusal) + "\n", to: .standardError)
            throw ExitCode(ExitStatus.usageOrIO)
        }
        var inputs: [ReadInput] = []
        for file in files {
            guard file != "-" else {
                CommandSupport.complain("the explorer reads keys from standard input, so it cannot read the file from it; use `receipt-explorer dump -` or save the input to a file")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            inputs.append(try CommandSupport.read(.path(file)))
        }
        if inputs.isEmpty { inputs.append(try CommandSupport.read(EmbeddedSample.input)) }
        let loaded = ContinuousClock.now
        var analysisOptions = try opening.analysisOptions()
        if files.isEmpty {
            // The sample is signed by the project's TEST PKI: trust its root for the sample alone,
            // as `--root samples/pki/test-root.cer` would, so the demo shows a whole validation.
            analysisOptions.roots.append(EmbeddedSample.testRootCertificate)
        }
        // Each input's bytes as read are handed over and go as it is opened (a 50 MB receipt as
        // base64 is 67 MB of text the explorer does not read; issue 32).
        var pending: [ReadInput?] = (consume inputs).map { $0 }
        var documents: [Document] = []
        for i in pending.indices {
            documents.append(Document.open(pending[i].take()!, DocumentCore.OpenOptions(analysis: analysisOptions)))
        }
        for document in documents { try CommandSupport.refuseInapplicable(opening.given, for: document) }
        try Self.explore(documents, color: color, ascii: ascii, mouse: !noMouse, started: started,
                         phases: [("load", loaded - started), ("analyse", ContinuousClock.now - loaded)])
    }

    /// The terminal UI on opened documents: the one terminal set-up, for `explore` and for
    /// `diff A B --explore` (whose `prepare` opens the diff overlay before the first frame). Each
    /// document carries the options it was opened with: the tamper lab re-opens edits with them.
    static func explore(_ documents: [Document], color: ColorChoice, ascii: Bool, mouse: Bool,
                        started: ContinuousClock.Instant, phases: [(name: String, duration: Duration)],
                        prepare: (inout AppState) -> Void = { _ in }) throws {
        let before = ContinuousClock.now
        var state = Self.state(documents, ascii: ascii, mouse: mouse, prepare: prepare)
        let built = ContinuousClock.now
        let environment = ProcessInfo.processInfo.environment
        var options = TerminalOptions(
            color: ColorMode(rawValue: color.rawValue) ?? .auto,
            mouse: mouse,
            timingLogPath: TerminalOptions.timingLogPath(environment: environment["RECEIPT_EXPLORER_TIMING"]),
            startedAt: started)
        options.setupPhases = phases + [("state", built - before)]
        do {
            try TerminalUI.run(options: options, state: &state,
                               reduce: { state, message in ExplorerUI.reduce(&state, message) },
                               render: { state, size in ExplorerUI.render(state, size: size) })
        } catch let refusal as TerminalUnavailable {
            OutputWriter.write(Self.message(refusal) + "\n", to: .standardError)
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    /// The explorer's state before its first frame (tests build it as the command does).
    static func state(_ documents: [Document], ascii: Bool, mouse: Bool,
                      prepare: (inout AppState) -> Void = { _ in }) -> AppState {
        var state = AppState.opening(documents, ascii: ascii, mouse: mouse)
        prepare(&state)
        return state
    }

    /// The adapter's refusal in the tool's words, pointing to the text commands.
    static func message(_ refusal: TerminalUnavailable) -> String {
        switch refusal.reason {
        case .notATerminal:
            return "receipt-explorer: the explorer needs a terminal on stdin and stdout; for text output use `receipt-explorer dump FILE` or `receipt-explorer json FILE`"
        case .termNotSet:
            return "receipt-explorer: TERM is not set, so the explorer cannot draw; set TERM (e.g. xterm-256color) or use `receipt-explorer dump FILE`"
        case .dumbTerminal:
            return "receipt-explorer: TERM=dumb cannot show the full-screen explorer; use `receipt-explorer dump FILE` or `receipt-explorer json FILE`, or run it in a real terminal"
        case .unknownTerminal(let term):
            return "receipt-explorer: the terminal type '\(term)' is unknown to curses; set TERM (e.g. xterm-256color) or use `receipt-explorer dump FILE`"
        case .cursesUnavailable(let problem):
            return "receipt-explorer: the explorer cannot start: \(problem); the text commands (`dump`, `json`, `verify`) work without it"
        }
    }
}
