import ArgumentParser
import ASN1Lenient
import DocumentModel
import ReceiptKit
import Foundation

/// `receipt-explorer explain FILE [--offset N]`
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Teach the encoding: every element's bytes, identifier bits, length octets and content.",
        discussion: """
            Without --offset every element is explained in file order, at most --max-elements of them \
            (default 1,000; a line then says how many were left out). With --offset N (decimal, or \
            hex with 0x) only the innermost element whose bytes contain offset N is explained, after \
            the path of elements that lead to it.

            \(ExitStatus.discussion)
            """
    )

    @Argument(help: "DER/BER, base64, PEM or verifyReceipt JSON; '-' reads standard input.")
    var file: String

    @Option(help: ArgumentHelp("Explain only the element containing this byte offset (decimal or 0x hex).",
                               valueName: "N"))
    var offset: ByteOffset?

    @Option(help: ArgumentHelp("Without --offset, explain at most N elements, then one line says how many were left out (0: no limit).",
                               valueName: "N"))
    var maxElements: Int = Explainer.defaultElementCap

    func validate() throws {
        guard maxElements >= 0 else { throw ValidationError("--max-elements must be 0 or more") }
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
        let tree = document.fileTree
        let out = OutputWriter(.standardOutput)
        out.write("# \(TerminalSafe.escape(document.source.name)): \(TerminalSafe.escape(document.note))\n")
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
            let path = tree.path(to: index).map { "\(tree.tagName(of: $0)) at \(NumberText.grouped(Int(tree[$0].offset)))" }
            out.write("path: " + path.joined(separator: " > ") + "\n\n")
            out.write(Explainer.render(Explainer.explain(tree, node: index)))
        } else {
            Explainer.writeAll(tree, cap: maxElements == 0 ? nil : maxElements, to: out)
        }
        out.flush()
        try CommandSupport.finish(CommandSupport.status(document))
    }
}
