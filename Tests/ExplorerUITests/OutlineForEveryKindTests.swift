import ASN1Lenient
import DocumentCore
import ReceiptKit
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// One explorer over `Document.layers` (issue 19, item 3): every kind, receipts included, is shown
/// as the layer outline; no kind keeps a tree of its own.
@Suite struct OutlineForEveryKindTests {
    static func open(_ file: String) throws -> Document {
        Document.open(try InputLoader.decode(try Paths.sample(file), name: (file as NSString).lastPathComponent),
                      options: AnalysisOptions(validate: false))
    }

    /// Every kind opens in the one outline (receipts too: no kind keeps a tree of its own), its
    /// file layer's rows first.
    @Test(arguments: ["jws/transaction.jws", "jws/notification.jws", "jws/transaction-history.json", "pki/test-root.pem",
                      "pki/test-storekit.cer", "typical.receipt", "typical.b64", "xcode-ber.receipt", "malformed-truncated.receipt"])
    func everyDocumentOpensInTheOutline(file: String) throws {
        let document = try Self.open(file)
        let state = AppState(document: document)
        let outline = state.layered.outline
        #expect(outline.count > 0 && outline.row(0).node.layer == .file)
    }

    /// A receipt's explorer state and a token's hold the same outline type, built from their layers.
    @Test func aReceiptAndATokenShareTheOutline() throws {
        let receipt = AppState(document: try Self.open("typical.receipt"))
        let token = AppState(document: try Self.open("jws/transaction.jws"))
        let outlines: [LayerOutline?] = [receipt.outline, token.outline]
        #expect(outlines.allSatisfy { $0 != nil })
        // The receipt's rows are its file tree's nodes, one row a node.
        #expect(receipt.outline.count == receipt.tree.count)
        #expect(receipt.outline.row(of: NodeID(.file, 12)) == 12)
    }
}
