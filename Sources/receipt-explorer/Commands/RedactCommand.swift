import ArgumentParser
import ASN1Lenient
import DocumentCore
import DocumentRedact
import ByteText
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Platform
import ReceiptKit
import TextLoader
import TextOutput

/// `receipt-explorer redact FILE... -o OUT [--keep FIELD]... [--seed TEXT] [--mapping FILE]`
struct RedactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redact",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Write copies with transaction ids, device values, app ids and other identifiers replaced, to share.",
        discussion: """
            Reads every input the other commands read (a file, standard input, a token given as \
            the argument, or data inside a log line, a JSON log object, a HAR capture, a form body). \
            Replaced, in receipts, StoreKit 2 documents (tokens, notifications, history and \
            statuses responses, nested tokens included), developer-signed tokens and external \
            purchase tokens: \(RedactCommand.fieldList). Also replaced: every other value that \
            contains one of these (a product id starting with the bundle id, a history's revision, \
            an id in a URL), and in the text around the data, each value named like one of these \
            fields (a verifyReceipt body's or a form's password, "transaction_id": … in a log) and \
            each mention of a replaced value. --keep FIELD keeps one.

            Each value gets a stand-in of the same length and kind (digits for digit ids, a UUID for \
            a UUID, letters and digits in place, bytes for the opaque value and hash), the same one \
            for the same value in every file of the run, drawn from a random key (or --seed) and \
            never derived from the value. The copy is written in the input's form (DER, base64 with \
            the same line breaks, PEM, a verifyReceipt body, a token, a JSON body; data found in \
            pasted text is written back into that text, in the same encoding, the text around it \
            kept) and parses to the same tree, offsets and diagnostics as the original: every copy \
            is re-opened and checked before it is written. Its signatures no longer verify, since \
            the signed bytes changed: the summary says which.

            -o - writes the copy (one input) to standard output, the summary to standard error: \
            the same bytes -o FILE writes with the same --seed.

            The mapping from stand-ins to originals is written only with --mapping FILE (JSON, \
            readable by you only); never to the terminal.

            Exit status: 0 = every copy written; 1 = an input has errors (its copy is still written) \
            or a file could not be redacted (no copy, the reason on stderr); 2 = usage or I/O problem \
            (nothing written).
            """
    )

    static let fieldList = RedactField.allCases.map { "\($0.rawValue) (\($0.source))" }.joined(separator: ", ")

    @Argument(help: ArgumentHelp("The inputs: \(InputForms.list); '-' reads standard input."))
    var files: [String] = []

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Where to write: a file for one input, a directory for several (created when missing), '-' for standard output (one input).",
                               valueName: "OUT"))
    var output: String?

    @Option(help: ArgumentHelp("Leave this field as it is (repeatable): \(RedactField.names).", valueName: "FIELD"))
    var keep: [String] = []

    @Flag(name: .customLong("bundle-id"), help: "Replace the bundle id: the default (accepted for scripts written when it was not).")
    var bundleID = false

    @Option(help: ArgumentHelp("Draw the stand-ins from this text instead of a random key: the same seed gives the same copies.",
                               valueName: "TEXT"))
    var seed: String?

    @Option(help: ArgumentHelp("Write the stand-in → original mapping to this JSON file (private: it undoes the redaction).",
                               valueName: "FILE"))
    var mapping: String?

    /// `-o -`: the copy goes to standard output.
    var toStandardOutput: Bool { output == "-" }

    func validate() throws {
        if files.isEmpty { throw ValidationError("redact needs at least one FILE") }
        guard output != nil else {
            throw ValidationError("-o OUT is missing: give the file (one input), directory (several) or '-' (standard output) to write the copies to")
        }
        if toStandardOutput && files.count > 1 {
            throw ValidationError("-o - writes one copy to standard output; with \(files.count) inputs give a directory")
        }
        if mapping == "-" { throw ValidationError("--mapping - : the mapping undoes the redaction and is never written to the terminal; give a FILE") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input ('-') can be read only once") }
        _ = try keptFields()
    }

    /// `--keep`, checked against the redactable fields.
    func keptFields() throws -> Set<RedactField> {
        var kept = Set<RedactField>()
        for name in keep {
            guard let field = RedactField(rawValue: name) else {
                throw ValidationError("--keep: '\(TerminalSafe.escape(name))' is not a redactable field; the fields are \(RedactField.names)")
            }
            if field == .bundleID && bundleID { throw ValidationError("--keep bundle-id contradicts --bundle-id: drop one of them") }
            kept.insert(field)
        }
        return kept
    }

    func run() throws {
        // The copy of a pasted text is read as the input was: a second large read (Platform).
        FreedHeap.returnLargeBlocksWhenFreed()
        let inputs = try files.map(Self.load)
        let destinations = toStandardOutput ? ["-"] : try outputPaths(names: inputs.map(\.loaded.name))
        try refuseOverwritingInputs(destinations.filter { $0 != "-" } + (mapping.map { [$0] } ?? []))
        if let mapping, destinations.contains(where: { Self.samePath($0, mapping) }) {
            CommandSupport.complain("--mapping \(mapping) is also where a copy would be written")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        let options = RedactOptions(keep: try keptFields(), key: seed.map(StandInKey.seeded) ?? .random(), mapping: mapping != nil)
        let run: RedactRun
        do {
            // The run lets each input go once its copy is made (issue 32): nothing here keeps it.
            run = try Redactor.run(consume inputs, options: options)
        } catch let error as StandInError {
            CommandSupport.complain("cannot redact: \(error.description)")
            throw ExitCode(ExitStatus.inputHasErrors)
        }
        try createOutputDirectory()
        var status = ExitStatus.ok
        var written = 0
        var report = ""
        for (copy, path) in zip(run.copies, destinations) {
            report += RedactSummary.text(copy, destination: path == "-" ? "standard output" : path)
            guard let bytes = copy.bytes else {
                // The failure is terminal-safe as built; the name is escaped by `complain` with it.
                CommandSupport.complain(InputError("\(InputError.quoted(copy.name)): not redacted: \(copy.failure ?? "unknown reason")"))
                status = ExitStatus.inputHasErrors
                continue
            }
            if path == "-" {
                OutputWriter.write(bytes: bytes, to: .standardOutput)
            } else {
                do {
                    try Self.writeAtomically(bytes, to: path)
                } catch {
                    CommandSupport.complain("cannot write \(path): \(CommandSupport.describe(error))")
                    throw ExitCode(ExitStatus.usageOrIO)
                }
            }
            written += 1
            if copy.inputHasErrors { status = ExitStatus.inputHasErrors }
        }
        report += RedactSummary.footer(written: written, of: run.copies.count, mapping: mapping, kept: options.keep)
        if let mapping {
            let files = zip(run.copies, destinations).map { (input: $0.name, copy: $1) }
            // Readable by the user only: it undoes the redaction.
            let opened = POSIX.createPrivateFile(mapping)
            guard let fd = opened.fd else {
                CommandSupport.complain("cannot write --mapping \(mapping): \(opened.error ?? "")")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            let writer = OutputWriter(.fileDescriptor(fd))
            RedactMapping.write(run, files: files) { writer.write(raw: $0) }
            writer.flush()
            let closeError = POSIX.close(fd)
            guard !writer.failed, closeError == nil else {
                CommandSupport.complain("cannot write --mapping \(mapping)\(closeError.map { ": \($0)" } ?? "")")
                throw ExitCode(ExitStatus.usageOrIO)
            }
        }
        // With the copy on standard output, the words go to standard error.
        OutputWriter.write(report, to: toStandardOutput ? .standardError : .standardOutput)
        try CommandSupport.finish(status)
    }

    // MARK: - Files

    /// The file's bytes as stored and as the loader decodes them, through the one way in; exit 2 with the loader's reason.
    static func load(_ path: String) throws -> RedactInput {
        let input = try CommandSupport.read(.path(path))
        return RedactInput(raw: input.raw, loaded: input.loaded)
    }

    /// Written from the copy's own storage: `Data(bytes)` was a second copy of it (48 MiB for a
    /// 50 MB history) at the command's peak (issue 32).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            let data = buffer.baseAddress.map {
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: buffer.count, deallocator: .none)
            } ?? Data()
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// One path per input: OUT itself for one input (OUT/name when OUT is a directory), OUT/name for several.
    func outputPaths(names: [String]) throws -> [String] {
        let out = output ?? ""
        let isDirectory = CommandSupport.isDirectory(out)
        if files.count == 1 {
            return [isDirectory == true ? Self.path(out, appending: names[0]) : out]
        }
        if isDirectory == false {
            CommandSupport.complain("-o \(out) is a file; with \(files.count) inputs OUT must be a directory")
            throw ExitCode(ExitStatus.usageOrIO)
        }
        var seen: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            if let first = seen[name] {
                CommandSupport.complain("\(files[first]) and \(files[i]) would both be written to \(out)/\(name); redact them in two runs")
                throw ExitCode(ExitStatus.usageOrIO)
            }
            seen[name] = i
        }
        return names.map { Self.path(out, appending: $0) }
    }

    /// `(directory as NSString).appendingPathComponent(name)` for the paths this command builds.
    static func path(_ directory: String, appending name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Creates OUT for several inputs when it is missing, once every refusal has been checked.
    func createOutputDirectory() throws {
        guard files.count > 1, let out = output, !FileManager.default.fileExists(atPath: out) else { return }
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        } catch {
            CommandSupport.complain("cannot create the directory \(out): \(CommandSupport.describe(error))")
            throw ExitCode(ExitStatus.usageOrIO)
        }
    }

    /// Refuses (exit 2) when a path to write is one of the inputs, by name or by file identity
    /// (a link, another spelling of the path).
    func refuseOverwritingInputs(_ paths: [String]) throws {
        for path in paths {
            for input in files where input != "-" && Self.samePath(input, path) {
                CommandSupport.complain("refusing to overwrite the input \(input) (with \(path)): write the copy elsewhere")
                throw ExitCode(ExitStatus.usageOrIO)
            }
        }
    }

    static func samePath(_ a: String, _ b: String) -> Bool {
        if URL(fileURLWithPath: a).standardizedFileURL.path == URL(fileURLWithPath: b).standardizedFileURL.path { return true }
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}

/// The words `redact` prints on stdout (never a value or a stand-in).
enum RedactSummary {
    /// Broken signatures named one by one before the rest are counted.
    static let signaturesNamed = 10

    static func text(_ copy: RedactedCopy, destination: String) -> String {
        var lines = ["\(TerminalSafe.escape(copy.name)) → \(TerminalSafe.escape(destination)): \(copy.summary)"]
        if copy.bytes == nil {
            lines.append("  not written: \(copy.failure ?? "unknown reason")")
            return lines.joined(separator: "\n") + "\n"
        }
        let total = copy.replaced.values.reduce(0, +)
        if total == 0 && copy.mentions == 0 {
            lines.append("  nothing to replace: the copy is the input, byte for byte, and its signatures are unchanged")
        } else {
            let counts = copy.replaced.sorted { $0.key < $1.key }.map { "\(NumberText.grouped($0.value)) \($0.key.rawValue)" }
            lines.append("  replaced \(NumberText.grouped(total)) value\(total == 1 ? "" : "s"): \(counts.joined(separator: ", "))")
            if copy.mentions > 0 {
                lines.append("  and \(NumberText.grouped(copy.mentions)) mention\(copy.mentions == 1 ? "" : "s") of them inside other values")
            }
        }
        for note in copy.notReplaced { lines.append("  left as it is: \(note)") }
        lines.append("  same shape as the original (checked by re-opening the copy): \(NumberText.grouped(copy.nodeCount)) nodes in "
                     + "\(copy.layerCount) layer\(copy.layerCount == 1 ? "" : "s"), \(NumberText.grouped(copy.diagnosticCount)) "
                     + "diagnostic\(copy.diagnosticCount == 1 ? "" : "s") at the same offsets")
        // A history of 10,000 tokens broke 10,000 signatures: the first few are named, the rest counted.
        for note in copy.signatures.prefix(signaturesNamed) { lines.append("  \(note)") }
        if copy.signatures.count > signaturesNamed {
            let more = copy.signatures.count - signaturesNamed
            lines.append("  and \(NumberText.grouped(more)) more signature\(more == 1 ? "" : "s") that no longer verif\(more == 1 ? "ies" : "y") (`verify` of the copy names each)")
        }
        if copy.inputHasErrors { lines.append("  the input has errors; so does the copy, at the same offsets") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func footer(written: Int, of count: Int, mapping: String?, kept: Set<RedactField>) -> String {
        var lines = ["wrote \(written) of \(count) cop\(count == 1 ? "y" : "ies"); the same value has the same stand-in in every copy of this run"]
        if !kept.isEmpty { lines.append("kept as they are (--keep): \(kept.sorted().map(\.rawValue).joined(separator: ", "))") }
        lines.append(mapping.map { "mapping from stand-ins to originals written to \(TerminalSafe.escape($0)) (private)" }
                     ?? "no mapping written (--mapping FILE writes one)")
        return lines.joined(separator: "\n") + "\n"
    }
}
