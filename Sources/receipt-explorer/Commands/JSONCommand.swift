import ArgumentParser
import ASN1Lenient
import DocumentCore
import DocumentBatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReceiptKit
import TextOutput

/// `receipt-explorer json FILE [--no-validate] [--root CERT]... [--device-id ID] [--bundle-id ID] [--app-version V] [--at DATE]
/// [--environment ENV] [--app-apple-id ID]`
struct JSONCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "json",
        _superCommandName: ReceiptExplorer.toolName,
        abstract: "Print the decoded receipt (verifyReceipt's shape) or StoreKit 2 token as JSON, with each field's source bytes.",
        discussion: """
            The top-level object holds "receipt" (verifyReceipt's field names and conventions: numbers \
            as strings, *_ms epoch-millisecond strings, dates as "2015-05-23 12:18:09 Etc/GMT" with \
            *_pst forms, flags "true"/"false", absent fields omitted), "validation" (each step with \
            status passed / failed / not-checked, reason and details), "verdict", \
            "unlisted_attributes" (Apple-private attributes with their raw value as hex and, where it \
            parses, the inner ASN.1 value), "findings" (every diagnostic: severity, code, message, \
            offset, length), "source" (input offset and length of each field's value bytes, keyed \
            bundle_id, in_app[0], in_app[0].product_id, …) and "input". Keys are sorted.

            Exit status: 0 = decoded without error diagnostics; 1 = the input has errors or is not a \
            receipt (the JSON is still printed); 2 = usage or I/O problem. Validation failures do not \
            change the status: use `verify` for a verdict.

            StoreKit 2 JWS: {"input", "kind", "token" (or "tokens", or "transactions" for a history \
            response), "body", "findings"}; each token has "header", "payload" (the decoded JSON as \
            written, nested tokens decoded in place, "_decoded" meanings of dates, enumerations and \
            prices, and in every object a "_source" giving each member's "json_bytes" and \
            "token_characters" as offset and length), "signature", "verification" and "valid".

            \(BatchOptions.discussion) An input counts as valid when it decodes without error \
            diagnostics (the single-input exit rule); --expect is checked per input.
            """
    )

    @Argument(help: InputForms.filesHelp)
    var files: [String] = []

    @OptionGroup var batch: BatchOptions

    @OptionGroup var opening: OpenOptions

    @OptionGroup var tokenChecks: TokenCheckOptions

    @OptionGroup var expectation: ExpectOption

    func validate() throws { try InputForms.requireFiles(files) }

    /// The reading options given (`OptionTable`).
    var given: Set<ReadingOption> { opening.given.union(tokenChecks.given).union(expectation.given) }

    func run() throws {
        var options = try opening.analysisOptions()
        let jws = try tokenChecks.options(applyingTo: &options)
        if batch.isBatch(fileCount: files.count) {
            let check = BatchCheck(format: .json, options: options, jws: jws, words: .commandLine, expect: expectation.expect,
                                   given: given)
            return try CommandSupport.finish(BatchRunner.run(files: files, options: batch, check: check))
        }
        let document = try CommandSupport.open(files[0], options: options, reading: .always, jws: jws)
        try CommandSupport.refuseInapplicable(given, for: document)
        try expectation.check(document)
        guard let reading = document.format.json(document, words: .commandLine) else {
            throw ExitCode(ExitStatus.inputHasErrors)  // `.always` reads every ASN.1 input as a receipt
        }
        let out = OutputWriter(.standardOutput)
        reading.write { out.write(raw: $0) }
        out.flush()
        if reading.firstError != nil { throw ExitCode(ExitStatus.inputHasErrors) }
    }
}
