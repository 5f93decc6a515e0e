import ASN1Lenient
import DocumentCore
import DocumentTour
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// `DocumentFormat.explorerAdditions`: what a kind adds beside the explorer's one outline, asked of
/// the document's format (issue 19: "a kind adds views, it does not fork the tree").
@Suite struct ExplorerAdditionsTests {
    /// The samples' TEST root trusted, "now" fixed at 2024-03-01T12:00:00Z (as the explorer tests).
    static let validating: AnalysisOptions = {
        let now = Date(timeIntervalSince1970: 1_709_294_400)
        return AnalysisOptions(roots: (try? Paths.sample("pki/test-root.cer")).map { [$0] } ?? [], at: now, now: now)
    }()

    static func open(_ name: String, options: AnalysisOptions = validating) throws -> Document {
        Document.open(try InputLoader.load(path: Paths.samples.appendingPathComponent(name).path), options: options)
    }

    @Test("a receipt adds its purchases, and the summary's steps are the verification report's")
    func receiptAddsPurchasesAndTheReportsSteps() throws {
        let document = try Self.open("typical.receipt")
        let additions = try #require(document.explorerAdditions)
        #expect(additions.rowsTitle == "In-app purchases")
        #expect(additions.purchases.count == 10)
        #expect(additions.purchases.map(\.number) == Array(1...10))
        let report = VerificationReport(verifying: document, now: Self.validating.now)
        #expect(!additions.steps.isEmpty)
        #expect(additions.steps == report.steps)
        // The words `verify --quiet` prints, then the verdict's other reasons.
        #expect(additions.verdict == "VALID" && !additions.verdictFailed)
        #expect(additions.verdictDetail == "VALID (sandbox receipt) — valid, anchored at a root you supplied · "
                + "the chain ends at receipt-explorer TEST Root CA (supplied as a root), not at an Apple root: not an App Store receipt")
        #expect(additions.verdictDetail.hasPrefix(VerificationText.quietLine(report)))
        // Every row targets the file-tree node of its purchase.
        for row in additions.purchases {
            guard case .node(let node, let members) = row.target else { Issue.record("purchase \(row.number) is not a node"); continue }
            #expect(node.layer == .file && members.contains(node.index))
        }
    }

    @Test("a tampered receipt's verdict names the first failed step of the report")
    func tamperedReceiptNamesItsFailedStep() throws {
        let document = try Self.open("malformed-tampered.receipt")
        let additions = try #require(document.explorerAdditions)
        let failure = try #require(VerificationReport(verifying: document, now: Self.validating.now).firstFailure)
        #expect(additions.verdict == "INVALID" && additions.verdictFailed)
        #expect(additions.verdictDetail.hasPrefix("INVALID (sandbox receipt): \(failure.title): "))
        #expect(additions.steps.first { $0.id == failure.id }?.status == .failed)
    }

    @Test("a receipt opened without validation leaves the signature steps unchecked and says so in the verdict")
    func unvalidatedReceiptLeavesSignatureStepsUnchecked() throws {
        let additions = try #require(try Self.open("typical.receipt", options: AnalysisOptions(validate: false)).explorerAdditions)
        for id in ["signature", "chain", "time", "receipt-signer"] {
            let step = try #require(additions.steps.first { $0.id == id })
            #expect(step.status == .notChecked && step.reason == "validation was not requested", "\(id)")
        }
        #expect(additions.steps.first { $0.id == "contents" }?.status == .passed)
        #expect(additions.verdict == "NOT VALIDATED" && !additions.verdictFailed)
    }

    @Test("a transaction history adds one row per transaction token, each targeting its token's layer")
    func historyAddsItsTransactions() throws {
        let document = try Self.open("jws/transaction-history.json")
        let additions = try #require(document.explorerAdditions)
        #expect(additions.rowsTitle == "Transactions")
        #expect(additions.purchases.count == 2)
        let layers = additions.purchases.compactMap { row -> String? in
            guard case .layer(let layer) = row.target else { return nil }
            return document.layer(layer).name
        }
        #expect(layers == ["signedTransactions[0]", "signedTransactions[1]"])
        #expect(additions.steps.isEmpty)
    }

    @Test("kinds that add no views have none: a certificate, prose")
    func kindsWithoutViews() throws {
        #expect(try Self.open("pki/test-root.cer").explorerAdditions == nil)
        let prose = Document.open(try InputLoader.decode(Array("<html><body>Hello, prose.</body></html>\n".utf8), name: "prose"))
        #expect(prose.kind == .text && prose.explorerAdditions == nil)
    }

    @Test("a document keeps the options it was opened with, and the tamper lab re-opens with them")
    func labReopensAsOpened() throws {
        let document = try Self.open("typical.receipt", options: AnalysisOptions(validate: false))
        #expect(document.openedWith.analysis.validate == false && document.openedWith.reading == .ifSignedData)
        var lab = LabSession(document: document)
        let last = document.fileLayer.bytes.count - 1
        let edited = lab.replace(at: last, with: document.fileLayer.bytes[last] ^ 0x01)
        #expect(edited)
        #expect(lab.document.openedWith.analysis.validate == false)
        #expect(lab.document.explorerAdditions?.verdict == "NOT VALIDATED")

        let validated = try Self.open("typical.receipt")
        var checked = LabSession(document: validated)
        let checkedEdit = checked.replace(at: last, with: validated.fileLayer.bytes[last] ^ 0x01)
        #expect(checkedEdit)
        #expect(checked.document.explorerAdditions?.verdict.hasPrefix("INVALID") == true)
    }
}
