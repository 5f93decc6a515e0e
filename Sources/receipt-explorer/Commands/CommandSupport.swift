import ArgumentParser
import ASN1Lenient
import DocumentModel
import ReceiptKit
import Foundation

extension ColorChoice: ExpressibleByArgument {}
extension ExpectedKind: ExpressibleByArgument {}

/// `--expect KIND`, shared by the commands that read a document (dump, explain, json; verify may
/// take it too): passing one kind where another was meant is explained, with exit status 1.
struct ExpectOption: ParsableArguments {
    @Option(help: ArgumentHelp("Fail with a sentence unless the input is this: transaction, renewal, app-transaction, notification, history or receipt.",
                               valueName: "kind"))
    var expect: ExpectedKind?

    /// Prints why and exits 1 when the document is not what `--expect` said.
    func check(_ document: Document) throws {
        guard let expect, let why = expect.mismatch(document.kind) else { return }
        CommandSupport.complain(why)
        throw ExitCode(ExitStatus.inputHasErrors)
    }
}

/// The input forms every command's FILE argument accepts, in one sentence (the loader detects them).
enum InputForms {
    static let list = "DER/BER, base64, PEM, verifyReceipt JSON, a StoreKit 2 JWS or JSON carrying tokens, or text with one of these in it (a log line, JSON, a HAR capture, a form body)"
    /// The FILE help of commands that read standard input for '-'.
    static let fileHelp = ArgumentHelp("\(list); '-' reads standard input.")
    /// The FILE help of the commands that take many (`verify`, `json`).
    static let filesHelp = ArgumentHelp("\(list); '-' reads standard input. Several FILEs, or --lines, run in batch mode.",
                                        valueName: "file")

    static func requireFiles(_ files: [String]) throws {
        if files.isEmpty { throw ValidationError("Missing expected argument '<file> ...' (use '-' for standard input)") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given once") }
    }
}

/// Helpers shared by the text commands.
enum CommandSupport {
    /// Prints `receipt-explorer: <message>` on stderr.
    static func complain(_ message: String) {
        write(TerminalSafe.escape(message))
    }

    /// `--device-id` as every command reads it: absent, parsed, or refused with exit 2.
    static func deviceID(_ text: String?) throws -> DeviceIdentifier? {
        guard let text else { return nil }
        do {
            return try DeviceIdentifier.parse(text)
        } catch {
            complain("--device-id: \(error)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    /// A loader refusal: its message is terminal-safe already (`InputError`'s contract), so it is
    /// printed as it is; escaping it again would double every backslash.
    static func complain(_ error: InputError) {
        write(error.message)
    }

    private static func write(_ safeMessage: String) {
        FileHandle.standardError.write(Data(("receipt-explorer: " + safeMessage + "\n").utf8))
    }

    /// Loads FILE, or prints the one-line reason and exits with status 2.
    static func load(_ path: String) throws -> LoadedInput {
        do {
            return try PasteLoader.load(path: path)
        } catch let error as InputError {
            complain(error)
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    /// Loads FILE and opens it once (parse, locate, decode and, when `options.validate`, validate);
    /// every command reads the one `Document` this returns.
    static func open(_ path: String, options: AnalysisOptions) throws -> Document {
        Document.open(try load(path), options: options)
    }

    /// Status 1 when any diagnostic of the file layer (where the receipt findings are merged) is
    /// an error, else 0. StoreKit documents have no ASN.1 file tree: any layer's error counts.
    static func status(_ document: Document) -> Int32 {
        let errors = isStoreKit(document) ? document.hasErrors : document.fileTree.hasErrors
        return errors ? ExitStatus.inputHasErrors : ExitStatus.ok
    }

    /// A JWS document, or StoreKit text this tool recognised but does not read (iOS 6 receipts).
    static func isStoreKit(_ document: Document) -> Bool {
        document.jws != nil || document.kind == .legacyTransactionReceipt || document.externalPurchase != nil
    }

    static func finish(_ status: Int32) throws {
        if status != ExitStatus.ok { throw ExitCode(status) }
    }
}
