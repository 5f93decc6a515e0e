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
import TextOutput

/// `receipt-explorer explain FILE [--offset N]`
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Teach the encoding: every element's bytes, identifier bits, length octets and content.",
        discussion: """
            Without --offset every element is explained in file order. With --offset N (decimal, or \
            hex with 0x) only the innermost element whose bytes contain offset N is explained, after \
            the path of elements that lead to it. Each element the tree dump names (certificate \
            and PKCS#7 parts, receipt attributes) is explained with its name and meaning. Without \
            --offset, at most --max-elements elements are explained (default 10,000; 0 means all): each explanation is a few hundred bytes of \
            text, so a million-element file would print hundreds of megabytes. The diagnostics of the \
            elements left out are still printed, one line each.

            StoreKit 2 JWS: --offset N is a character of the input; the explanation says which 4 \
            base64url characters make which 3 bytes, the JSON member there (key, value, meaning), and \
            goes on into the DER inside an x5c certificate or into a nested token. Without --offset, \
            a short overview of each token's segments.

            \(ExitStatus.discussion)
            """
    )

    @Argument(help: InputForms.fileHelp)
    var file: String

    @Option(help: ArgumentHelp("Explain only the element containing this byte offset (decimal or 0x hex).",
                               valueName: "N"))
    var offset: ByteOffset?

    @Option(help: ArgumentHelp("Without --offset, explain at most this many elements in file order (0: all).",
                               valueName: "N"))
    var maxElements: Int = Explainer.defaultElementCap

    @OptionGroup var expectation: ExpectOption

    func validate() throws {
        guard maxElements >= 0 else { throw ValidationError("--max-elements must be 0 (all) or more") }
    }

    struct ByteOffset: ExpressibleByArgument {
        var value: Int

        init?(argument: String) {
            let text = argument.lowercased()
            if text.hasPrefix("0x") {
                guard let v = Int(text.dropFirst(2), radix: 16), v >= 0 else { return nil }
                value = v
            } else {
                guard let v = Int(text), v >= 0 else { return nil }
                value = v
            }
        }
    }

    func run() throws {
        let document = try CommandSupport.open(file, options: AnalysisOptions(validate: false))
        try CommandSupport.refuseInapplicable(expectation.given, for: document)
        try expectation.check(document)
        let tree = document.fileTree
        let out = OutputWriter(.standardOutput)
        out.write("# \(TerminalSafe.escape(document.source.name)): \(document.note)\n")
        if CommandSupport.isLayered(document) { return try explainStoreKit(document, out) }
        if let offset {
            guard offset.value < tree.bytes.count else {
                out.flush()
                CommandSupport.complain("offset \(NumberText.grouped(offset.value)) is past the end of the input (\(NumberText.grouped(tree.bytes.count)) bytes; valid offsets are 0-\(NumberText.grouped(tree.bytes.count - 1)))")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            guard let index = tree.deepestNode(containing: offset.value) else {
                // Unreachable while the coverage invariant holds; say so rather than print nothing.
                CommandSupport.complain("no element contains offset \(NumberText.grouped(offset.value))")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            let names = document.names(for: .file)
            out.write("path: " + Explainer.pathText(tree, to: index, names: names) + "\n\n")
            out.write(Explainer.render(Explainer.explain(tree, node: index, name: names[index])))
        } else {
            Explainer.writeAll(tree, cap: maxElements == 0 ? nil : maxElements, names: document.names(for: .file), to: out)
        }
        out.flush()
        try CommandSupport.finish(CommandSupport.status(document))
    }

    func explainStoreKit(_ document: Document, _ out: OutputWriter) throws {
        if let offset {
            let size = document.fileLayer.bytes.count
            guard offset.value < size else {
                out.flush()
                CommandSupport.complain("offset \(NumberText.grouped(offset.value)) is past the end of the input (\(NumberText.grouped(size)) characters; valid offsets are 0-\(NumberText.grouped(size - 1)))")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            out.write(document.format.layersExplain(document, fileOffset: offset.value)
                      ?? "character \(NumberText.grouped(offset.value)) is part of the JSON body, not of a token\n")
        } else {
            _ = document.format.layersOverview(document) { out.write($0) }
        }
        for (layer, d) in document.diagnostics {
            out.write("\(d.severity) \(TerminalSafe.escape(d.code.rawValue)) \(TerminalSafe.escape(document.layer(layer).name)) \(TreeDump.rangeText(d)): \(TerminalSafe.escape(d.message))\n")
        }
        out.flush()
        try CommandSupport.finish(CommandSupport.status(document))
    }
}
