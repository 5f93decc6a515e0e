import Testing
import ASN1Lenient
@testable import DocumentCore
import TestSupport
@testable import ExplorerUI

/// The explorer's set-up shortcuts (issue 12) against the plain definitions they replace.
@Suite struct OpenCostTests {
    /// The subtree severity climbed from each diagnostic's owner equals the minimum over every
    /// node of the subtree, computed here the slow way; sibling positions count the earlier siblings.
    @Test(arguments: [
        "malformed-length-past-parent.receipt", "malformed-truncated.receipt", "malformed-bad-date.receipt",
        "malformed-non-minimal-length.receipt", "malformed-indefinite-in-payload.receipt", "xcode-ber.receipt",
        "typical.receipt",
    ])
    func factsMatchTheirDefinition(_ name: String) throws {
        let state = try #require(Fixtures.sampleState(name), "samples/\(name) missing")
        let tree = state.tree, facts = state.facts
        for node in 0..<tree.count {
            var worst: Severity?
            for inside in node..<Int(tree.nodes[node].subtreeEnd) {
                if let own = facts.severity(ofNode: inside), worst == nil || own.rawValue < worst!.rawValue { worst = own }
            }
            #expect(facts.severity(ofSubtree: node) == worst, "node \(node)")
        }
        for node in 0..<tree.count {
            let parent = tree.nodes.parentIndex(node)
            let siblings = parent >= 0 ? Array(tree.children(of: parent)) : tree.roots
            #expect(tree.siblingPosition(of: node) == siblings.firstIndex(of: node), "node \(node)")
        }
    }

    @Test func severityClimbsToEveryAncestor() {
        let s = defects()
        // Node 2 (the INTEGER with a leading zero) carries an error, node 3 (BOOLEAN 01) a not-DER.
        #expect(s.facts.severity(ofNode: 2) == .error)
        #expect(s.facts.severity(ofSubtree: 0) == .error)
        #expect(s.facts.severity(ofSubtree: 3) == .notDER)
        #expect(s.facts.severity(ofSubtree: 1) == nil)
    }

    /// Column widths count Unicode scalars, and a number's digits, without building the texts.
    @Test func widthsCountScalars() {
        for text in ["", "abc", "–", "caf\u{E9}", "\u{1F600}x", "\\xc3"] {
            #expect(ExplorerAdditions.scalarCount(text) == text.unicodeScalars.count, "\(text)")
        }
        for n in [0, 9, 10, 99, 100, 10_000, 123_456_789, -1, -10] {
            #expect(ExplorerAdditions.decimalWidth(n) == String(n).count, "\(n)")
        }
        let row = { (n: Int, product: String) in
            PurchaseRow(number: n, target: .node(NodeID(.file, n), members: n..<(n + 1)), productID: product, transactionID: "1",
                        originalTransactionID: "1", purchaseDate: "–", expiresDate: "", quantity: "1", flags: "sub trial")
        }
        let overlay = ExplorerAdditions(purchases: [row(1, "caf\u{E9}.pro"), row(12_345, "a")])
        // #, product id, transaction, original tx, purchased, expires, qty, flags: the widest cell or title + 1.
        #expect(overlay.columnWidths == [5, 11, 12, 12, 10, 8, 4, 9])
    }
}
