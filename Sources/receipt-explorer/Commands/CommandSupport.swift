import ArgumentParser
import ASN1Lenient
import DocumentModel
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

    /// Loads FILE and opens it once (parse, locate, decode and, when `options.validate`, validate);
    /// every command reads the one `Document` this returns.
    static func open(_ path: String, options: AnalysisOptions) throws -> Document {
        Document.open(try load(path), options: options)
    }

    /// Status 1 when any diagnostic of the file layer (where the receipt findings are merged) is
    /// an error, else 0.
    static func status(_ document: Document) -> Int32 {
        document.fileTree.hasErrors ? ExitStatus.inputHasErrors : ExitStatus.ok
    }

    static func finish(_ status: Int32) throws {
        if status != ExitStatus.ok { throw ExitCode(status) }
    }
}
