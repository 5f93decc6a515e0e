import ArgumentParser
import ASN1Lenient
import DocumentModel
import Foundation
import ReceiptKit

/// `receipt-explorer diff A B [--format text|json] [--color auto|always|never]`
struct DiffCommand: ParsableCommand {
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two receipts, two StoreKit 2 inputs, or a receipt with StoreKit 2 transactions.",
        discussion: """
            Semantic first. Two receipts: app-level attributes by type; in-app purchases matched by \
            transaction id (else original transaction id and purchase date), a cancellation date that \
            appeared named a refund and a later purchase in a subscription chain a renewal; certificates \
            by SHA-256 fingerprint and the signature (same payload, new signature: re-signed). Two \
            StoreKit 2 inputs (tokens, history responses, notifications): payload fields by JSON path, \
            x5c certificates and signature. A receipt with StoreKit 2 transactions: purchases matched by \
            transaction id, fields compared through the receipt ↔ JWS field map, dates as instants.

            Then, for two ASN.1 inputs, the structure node by node: each differing node with its path \
            and byte ranges on both sides; "same content, different encoding" where the decoded values \
            are equal but the bytes differ (DER vs BER, indefinite lengths, chunked OCTET STRINGs, a \
            SET in another order).

            Equivalent means the same decoded content: no semantic difference and no structural one \
            other than a re-encoding. A re-encoded receipt is equivalent (its signature still covers \
            the same payload); a re-signed one is not.

            Exit status: 0 = equivalent; 1 = different; 2 = usage or I/O problem (one line on stderr).
            """
    )

    @Argument(help: "The first input (receipt, JWS, JSON body, or any DER/BER); '-' reads standard input.")
    var a: String

    @Argument(help: "The second input.")
    var b: String

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    @Option(help: "Colour the text: auto, always or never.")
    var color: ColorChoice = .auto

    @Option(name: .customLong("structural-limit"), help: ArgumentHelp("Structural entries to list; the rest are counted.", valueName: "N"))
    var structuralLimit: Int = DocumentDiff.defaultStructuralLimit

    func validate() throws {
        if a == "-" && b == "-" { throw ValidationError("only one of A and B can be '-' (standard input)") }
        if structuralLimit < 0 { throw ValidationError("--structural-limit must be 0 or more") }
    }

    func run() throws {
        let options = AnalysisOptions(validate: false)
        let documentA = try CommandSupport.open(a, options: options)
        let documentB = try CommandSupport.open(b, options: options)
        let diff = DocumentDiff.compare(documentA, documentB, structuralLimit: structuralLimit)
        let out = OutputWriter(.standardOutput)
        switch format {
        case .text:
            let colored = color.enabled(outputIsTerminal: isatty(1) != 0, environment: ProcessInfo.processInfo.environment)
            out.write(DiffText.render(diff, nameA: documentA.source.name, nameB: documentB.source.name,
                                      kindA: Self.kind(documentA), kindB: Self.kind(documentB), color: colored))
        case .json:
            var doc = DiffJSON.document(diff)
            doc["a"] = ["name": documentA.source.name, "kind": Self.kind(documentA)]
            doc["b"] = ["name": documentB.source.name, "kind": Self.kind(documentB)]
            out.write(ReceiptJSON.serialize(doc))
        }
        out.flush()
        if !diff.isEquivalent { throw ExitCode(1) }
    }

    /// What the input is, in the words every command's header uses.
    static func kind(_ document: Document) -> String { document.kind.summary }
}
