import ArgumentParser
import ASN1Lenient
import ReceiptKit
import Foundation

extension ColorChoice: ExpressibleByArgument {}

/// Helpers shared by the text commands.
enum CommandSupport {
    /// Prints `receipt-explorer: <message>` on stderr.
    static func complain(_ message: String) {
        FileHandle.standardError.write(Data(("receipt-explorer: " + TerminalSafe.escape(message) + "\n").utf8))
    }

    /// Loads FILE, or prints the one-line reason and exits with status 2.
    static func load(_ path: String) throws -> LoadedInput {
        do {
            return try InputLoader.load(path: path)
        } catch let error as InputError {
            complain(error.message)
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    /// Parses the input. The receipt module hooks in here: when the input looks like a receipt it
    /// re-parses the payload on purpose and returns its findings as `extra` diagnostics, which
    /// every output format prints merged with the parser's.
    static func analyze(_ input: LoadedInput) -> (tree: Tree, extra: [Diagnostic]) {
        // A PKCS#7 SignedData is read as a receipt, so its findings (already merged into the
        // analysis tree) show beside the parser's; anything else is plain ASN.1.
        var tree = ASN1Parser.parse(input.bytes)
        if ReceiptAnalyzer.isSignedData(tree) {
            tree = ReceiptAnalyzer.analyze(bytes: input.bytes, options: AnalysisOptions(validate: false), parsed: tree).tree
        }
        tree.append(input.diagnostics)  // the loader's findings count like the parser's
        return (tree, [])
    }

    /// Status 1 when any diagnostic (parser or extra) is an error, else 0.
    static func status(_ tree: Tree, extra: [Diagnostic]) -> Int32 {
        tree.hasErrors || extra.contains { $0.severity == .error } ? ExitStatus.inputHasErrors : ExitStatus.ok
    }

    static func finish(_ status: Int32) throws {
        if status != ExitStatus.ok { throw ExitCode(status) }
    }
}
