import ArgumentParser
import ASN1Lenient
import DocumentCore
import ReceiptKit
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import TextOutput

/// `receipt-explorer dump FILE [--format tree|openssl|json] [--color auto|always|never]`
struct DumpCommand: ParsableCommand {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case tree, openssl, json
    }

    static let configuration = CommandConfiguration(
        commandName: "dump",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Print the ASN.1 tree (or a JWS token's layers) with offsets, lengths, decoded values and every diagnostic.",
        discussion: """
            Formats: 'tree' (default) is an indented tree with each diagnostic under the element it \
            concerns and, after ' · ', what the element is (PKCS#7 and certificate parts by their \
            RFC 5652 / RFC 5280 names with decoded details, receipt attributes by name); 'openssl' \
            has the line shape of `openssl asn1parse -inform DER -i` (diagnostics go to stderr); \
            'json' is {"input", "nodes", "diagnostics", "summary"} with snake_case keys, a named \
            node carrying "name" and "detail".

            StoreKit 2 JWS (a compact token, or a JSON body carrying tokens): 'tree' shows the token, \
            its header (each x5c certificate as its ASN.1 tree), payload (dates, enumerations and \
            prices decoded; nested tokens expanded) and signature (r, s and the DER ECDSA-Sig-Value), \
            each field with its token characters and decoded-JSON bytes; 'json' is the `json` \
            command's document plus "layers"; 'openssl' is DER-only and exits 2.

            Colour: --color auto (default) colours when stdout is a terminal and NO_COLOR is unset.

            \(ExitStatus.discussion)
            """
    )

    @Argument(help: InputForms.fileHelp)
    var file: String

    @Option(help: "Output format: tree, openssl or json.")
    var format: Format = .tree

    @Option(help: "Colour the tree: auto, always or never.")
    var color: ColorChoice = .auto

    @OptionGroup var expectation: ExpectOption

    static let stderrDiagnosticLimit = 20

    func run() throws {
        let document = try CommandSupport.open(file, options: AnalysisOptions(validate: false))
        try CommandSupport.refuseInapplicable(expectation.given, for: document)
        try expectation.check(document)
        if CommandSupport.isLayered(document) { return try dumpStoreKit(document) }
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
            TreeDump.write(tree, input: described, options: TreeDump.Options(color: colored, names: document.names(for: .file)), to: out)
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
            JSONDump.write(tree, input: input, names: document.names(for: .file), to: out)
        }
        out.flush()
        try CommandSupport.finish(CommandSupport.status(document))
    }

    func dumpStoreKit(_ document: Document) throws {
        let out = OutputWriter(.standardOutput)
        switch format {
        case .tree:
            let colored = color.enabled(outputIsTerminal: isatty(1) != 0, environment: ProcessInfo.processInfo.environment)
            _ = document.format.layersDump(document, color: colored) { out.write($0) }
        case .openssl:
            CommandSupport.complain("--format openssl prints DER only, and this input is \(document.summary): use --format tree (each x5c certificate is an ASN.1 tree there) or json")
            throw ExitCode(ExitStatus.usageOrIO)
        case .json:
            var object = document.format.layersJSON(document) ?? [:]
            let layers = document.layers
            object["layers"] = JSONLazyArray(count: layers.count) { index -> Any in
                let layer = layers[index]
                var o: [String: Any] = ["index": layer.id.index, "name": layer.name, "size": layer.bytes.count]
                if let parent = layer.parent {
                    o["parent"] = parent.index
                    let range = document.fileRange(0..<layer.bytes.count, in: layer.id)
                    o["file_range"] = ["offset": range.lowerBound, "length": range.count]
                }
                return o
            }
            ReceiptJSON.stream(object) { out.write(raw: $0) }
        }
        out.flush()
        try CommandSupport.finish(CommandSupport.status(document))
    }
}
