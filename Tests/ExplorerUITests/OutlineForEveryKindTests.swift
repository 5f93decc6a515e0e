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

    /// The structure the tree pane walks without making rows' texts (`parent`, `extent`) is each
    /// row's own, and is the tree: a row's parent is the nearest row before it one level up whose
    /// subtree holds it. Every row of every kind: ASN.1 rows, JSON rows, text and raw layers' rows,
    /// nested tokens' rows, each read before its block is built and after.
    @Test(arguments: ["jws/transaction.jws", "jws/notification.jws", "jws/transaction-history.json", "pki/test-root.pem",
                      "typical.receipt", "typical.b64", "xcode-ber.receipt", "malformed-truncated.receipt", "external/external-purchase-token.txt"])
    func parentsAndExtentsAreTheRowsOwn(file: String) throws {
        let outline = LayerOutline(document: try Self.open(file))
        // Read through the structure first (blocks unbuilt), then through the rows.
        let structure = (0..<outline.count).map { (parent: outline.parent($0), extent: outline.extent($0)) }
        var innermost: [Int] = []  // the open ancestors of the row being read
        for i in 0..<outline.count {
            let row = outline.row(i)
            #expect(structure[i].parent == row.parent && structure[i].extent == (row.depth, row.subtreeEnd), "\(file) row \(i)")
            while let last = innermost.last, structure[last].extent.subtreeEnd <= i { innermost.removeLast() }
            #expect(row.parent == (innermost.last ?? -1), "\(file) row \(i)")
            #expect(row.depth == innermost.count && row.subtreeEnd > i && row.subtreeEnd <= (innermost.last.map { structure[$0].extent.subtreeEnd } ?? outline.count),
                    "\(file) row \(i)")
            innermost.append(i)
        }
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
