import DocumentCore
import ExplorerUI
import Foundation
import ReceiptKit
import Testing
import TestSupport
@testable import receipt_explorer

/// `diff A B --explore` opens A and B as `explore` opens its files (`OpenOptions`: --root,
/// --no-validate and the other validation inputs), so the explorer it starts shows verdicts; the
/// printed diff opens them decoded only. Parsed and run in process, up to the state before the
/// first frame (the terminal part is `TmuxDiffTests`').
@Suite struct DiffExploreOpeningTests {
    static let base = DiffCommandTests.path("base.receipt")
    static let refund = DiffCommandTests.path("refund.receipt")
    static let root = Paths.samples.appendingPathComponent("pki/test-root.cer").path
    static let openSSLSteps = StepID.openSSL

    @Test func exploreValidatesBothDocumentsWithTheGivenRoot() throws {
        let diff = try DiffCommand.parse([Self.base, Self.refund, "--explore", "--root", Self.root, "--at", "2024-03-01"])
        let (a, b) = try diff.documents()
        // The same options `explore` makes from the same flags.
        let explore = try ExploreCommand.parse([Self.base, "--root", Self.root, "--at", "2024-03-01"])
        let expected = try explore.opening.analysisOptions()
        let rootBytes = Array(try Paths.sample("pki/test-root.cer"))
        for document in [a, b] {
            let analysis = try #require(document.receipt)
            #expect(analysis.options.validate && expected.validate)
            #expect(analysis.options.roots == expected.roots && analysis.options.roots == [rootBytes])
            #expect(analysis.options.at == expected.at)
            // The OpenSSL steps ran and passed with the TEST root; none failed.
            let openSSL = analysis.validationSteps.filter { Self.openSSLSteps.contains($0.id) }
            #expect(openSSL.map(\.id) == Self.openSSLSteps && openSSL.allSatisfy { $0.status == .passed })
            #expect(analysis.validationSteps.allSatisfy { !$0.status.isFailed }, "\(document.source.name): \(analysis.validationSteps)")
        }

        // The explorer state the command starts: the diff list shown, and behind it each
        // document's summary with its validation steps and verdict (not "(not validated)").
        var state = ExploreCommand.state([a, b], ascii: false, mouse: true, prepare: DiffCommand.prepareExplorer)
        #expect(state.diffView != nil)
        #expect(state.diffView?.entries.first?.title.hasPrefix("refund com.example.receiptexplorer.pro [2000000600000002]") == true)
        reduce(&state, .escape)  // the overlay closes; } then switches documents
        for name in ["base.receipt", "refund.receipt"] {
            #expect(state.file.name == name)
            #expect(state.additions?.verdict == "VALID" && state.additions?.verdictFailed == false)
            #expect(SummaryContent.lines(state).map(\.text).contains("  ✓   PKCS#7 signature             passed"))
            reduce(&state, .character("}"))
        }
    }

    @Test func noValidateAndThePrintedDiffDecodeOnly() throws {
        let skipped = try DiffCommand.parse([Self.base, Self.refund, "--explore", "--no-validate"]).documents()
        // The printed diff verifies nothing: a verification option is refused there, not ignored.
        let refused = try runCLI(["diff", Self.base, Self.refund, "--root", Self.root])
        #expect(refused.status == 2 && refused.stdout.isEmpty)
        #expect(refused.stderr == "receipt-explorer: --root applies to `diff --explore` only: the printed diff compares the decoded content, unverified\n")
        let printed = try DiffCommand.parse([Self.base, Self.refund]).documents()
        for document in [skipped.0, skipped.1, printed.0, printed.1] {
            let analysis = try #require(document.receipt)
            #expect(!analysis.options.validate)
            let openSSL = analysis.validationSteps.filter { Self.openSSLSteps.contains($0.id) }
            #expect(openSSL.map(\.id) == Self.openSSLSteps && openSSL.allSatisfy { $0.status == .notChecked(.validationNotRequested) })
        }
        let state = ExploreCommand.state([skipped.0, skipped.1], ascii: false, mouse: true, prepare: DiffCommand.prepareExplorer)
        #expect(state.additions?.verdict == "NOT VALIDATED")
        #expect(SummaryContent.lines(state).last?.text == "Verdict: NOT VALIDATED (sandbox receipt): validation was not requested")
    }
}
