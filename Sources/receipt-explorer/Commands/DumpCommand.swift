import ArgumentParser
import ASN1Lenient
import DocumentModel
import ReceiptKit
import Foundation

/// `receipt-explorer dump FILE [--format tree|openssl|json] [--color auto|always|never]`
struct DumpCommand: ParsableCommand {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case tree, openssl, json
    }

    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print the ASN.1 tree with offsets, lengths, decoded values and every diagnostic.",
        discussion: """
            Formats: 'tree' (default) is an indented tree with each diagnostic under the element it \
            concerns; 'openssl' has the line shape of `openssl asn1parse -inform DER -i` (diagnostics \
            go to stderr); 'json' is {"input", "nodes", "diagnostics", "summary"} with snake_case keys.

            Colour: --color auto (default) colours when stdout is a terminal and NO_COLOR is unset.

            \(ExitStatus.discussion)
            """
    )

    @Argument(help: "DER/BER, base64, PEM or verifyReceipt JSON; '-' reads standard input.")
    var file: String

    @Option(help: "Output format: tree, openssl or json.")
    var format: Format = .tree

    @Option(help: "Colour the tree: auto, always or never.")
    var color: ColorChoice = .auto

    static let stderrDiagnosticLimit = 20

    func run() throws {
        let document = try CommandSupport.open(file, options: AnalysisOptions(validate: false))
        let tree = document.fileTree
        let input = document.input
        let out = OutputWriter(.standardOutput)
        switch format {
        case .tree:
            let colored = color.enabled(outputIsTerminal: isatty(1) != 0,
                                        environment: ProcessInfo.processInfo.environment)
            // The header line says what the input is besides how it was stored.
            var described = input
            described.note = document.note
            TreeDump.write(tree, input: described, options: TreeDump.Options(color: colored), to: out)
        case .openssl:
            OpenSSLDump.write(tree, to: out)
            // stdout keeps openssl's exact shape; the diagnostics go to stderr, the first few in
            // full (a big BER file can have thousands of "der" notes).
            let all = tree.diagnostics
            if !all.isEmpty {
                let err = OutputWriter(.standardError)
                let name = TerminalSafe.escape(input.name)
                for d in all.prefix(Self.stderrDiagnosticLimit) {
                    err.write("\(name): \(d.severity) \(TerminalSafe.escape(d.code.rawValue)) \(TreeDump.rangeText(d)): \(TerminalSafe.escape(d.message))\n")
                }
                if all.count > Self.stderrDiagnosticLimit {
                    let errors = all.filter { $0.severity == .error }.count
                    err.write("\(name): … \(NumberText.grouped(all.count - Self.stderrDiagnosticLimit)) more diagnostics (\(NumberText.grouped(all.count)) in all, \(NumberText.grouped(errors)) errors); --format tree or json lists every one\n")
                }
                err.flush()
            }
        case .json:
            JSONDump.write(tree, input: input, to: out)
        }
        out.flush()
        try CommandSupport.finish(CommandSupport.status(document))
    }
}
