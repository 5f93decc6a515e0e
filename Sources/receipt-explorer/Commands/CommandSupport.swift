import ArgumentParser
import ASN1Lenient
import DocumentCore
// The kinds: linked into the tool here, and found by `FormatRegistry` through their module's list.
import DocumentFormats
import ReceiptKit
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import TextLoader
import TextOutput

extension ColorChoice: ExpressibleByArgument {}
extension ExpectedKind: ExpressibleByArgument {}

/// `--expect KIND`, shared by the commands that read a document (dump, explain, json; verify may
/// take it too): passing one kind where another was meant is explained, with exit status 1.
struct ExpectOption: ParsableArguments {
    @Option(help: ArgumentHelp("Fail with a sentence unless the input is this: transaction, renewal, app-transaction, notification, history or receipt.",
                               valueName: "kind"))
    var expect: ExpectedKind?

    var given: Set<ReadingOption> { expect == nil ? [] : [.expect] }

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

    /// Whether `path` is a directory (following links); nil when there is nothing there to stat.
    static func isDirectory(_ path: String) -> Bool? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT == S_IFDIR
    }

    /// A file-system error as full Foundation's `localizedDescription` worded it (FoundationEssentials
    /// has the errors but not their descriptions).
    static func describe(_ error: Error) -> String {
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        let reason: String? = switch cocoa.code.rawValue {
        case 4, 260: "The file doesn’t exist."
        case 255: "The file couldn’t be locked."
        case 257, 513: "You don’t have permission."
        case 258, 514: "The file name is invalid."
        case 259: "The file isn’t in the correct format."
        case 261, 517: "The specified text encoding isn’t applicable."
        case 262, 518: "The specified URL type isn’t supported."
        case 263: "The item is too large."
        case 264: "The text encoding of the contents couldn’t be determined."
        case 516: "A file with the same name already exists."
        case 640: "There isn’t enough space."
        case 642: "The volume is read only."
        case 3840: "The data is not in the correct format."
        default: nil
        }
        return "The operation could not be completed. " + (reason ?? "(NSCocoaErrorDomain error \(cocoa.code.rawValue).)")
    }

    private static func write(_ safeMessage: String) {
        OutputWriter.write("receipt-explorer: " + safeMessage + "\n", to: .standardError)
    }

    /// Reads FILE through the one way in (`DocumentInput`), or prints the one-line reason and exits with status 2.
    static func read(_ input: DocumentInput) throws -> ReadInput {
        do {
            return try input.read()
        } catch let error as InputError {
            complain(error)
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    /// Reads FILE and opens it once (parse, locate, decode and, when `options.validate`, validate);
    /// every command reads the one `Document` this returns.
    static func open(_ path: String, options: AnalysisOptions, reading: ReceiptReading = .ifSignedData,
                     jws: JWSOptions = JWSOptions()) throws -> Document {
        Document.open(try read(.path(path)), DocumentCore.OpenOptions(analysis: options, reading: reading, jws: jws))
    }

    /// The bytes of an option's file (`--root`, `--key`): the one way in's reading, no data search.
    static func optionFile(_ path: String, option: String) throws -> [UInt8] {
        guard path != "-", let bytes = try? DocumentInput.bytes(ofFile: path) else {
            complain("cannot read \(option) \(path)")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        return bytes
    }

    /// Refuses (one line naming the option and the kind, exit status 2) an option `document`'s kind
    /// cannot use (`OptionTable`): an option is applied or refused, never silently ignored.
    static func refuseInapplicable(_ given: Set<ReadingOption>, for document: Document) throws {
        guard let refusal = document.refusal(of: given) else { return }
        complain(refusal.message)
        throw ExitCode(ExitStatus.usageOrIO)
    }

    /// Status 1 when the layers the document's format shows have an error (for a receipt the file
    /// layer, where the receipt findings are merged), else 0.
    static func status(_ document: Document) -> Int32 {
        document.format.hasErrors(document) ? ExitStatus.inputHasErrors : ExitStatus.ok
    }

    /// A document shown layer by layer (tokens, bodies, an iOS 6 receipt) rather than as one ASN.1 tree.
    static func isLayered(_ document: Document) -> Bool {
        document.format.layout == .layers
    }

    static func finish(_ status: Int32) throws {
        if status != ExitStatus.ok { throw ExitCode(status) }
    }
}
