import ASN1Lenient
import DocumentCore
import ReceiptKit
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The outline is built from `Document.layers` for any kind (issue 19, item 3): an ASN.1 layer's
/// rows are its arena's nodes, made when read; a token's layers are the same rows as before; what
/// a kind adds is its format's wording, never a branch on the kind in ExplorerUI.
@Suite struct GenericOutlineTests {
    static func open(_ file: String, validate: Bool = false) throws -> Document {
        var options = JWSOutlineTests.options
        options.validate = validate
        return Document.open(try InputLoader.decode(try Paths.sample(file), name: (file as NSString).lastPathComponent), options: options)
    }

    /// A receipt's outline: row i is node i of the file layer, with no row built up front (one
    /// run), named as `dump` names it, and found back by node and by offset.
    @Test func aReceiptsRowsAreItsNodesMadeWhenRead() throws {
        let document = try Self.open("typical.receipt")
        let tree = document.fileTree
        let outline = LayerOutline(document: document)
        #expect(outline.count == tree.count && tree.count == 1320)
        #expect(outline.eager.rows.isEmpty && outline.blocks.isEmpty)
        #expect(outline.eager.runs.count == 1 && outline.eager.runs[0].count == tree.count)
        let payload = outline.row(12)
        #expect(payload.node == NodeID(.file, 12) && payload.label == "SET (4138)" && payload.range == 64..<4206)
        #expect(payload.name?.text.hasPrefix("receipt payload") == true)
        #expect(payload.subtreeEnd == Int(tree.nodes[12].subtreeEnd) && payload.parent == tree.nodes.parentIndex(12))
        #expect(outline.row(of: NodeID(.file, 500)) == 500)
        #expect(outline.deepestRow(in: .file, containing: 0x40) == tree.deepestNode(containing: 0x40))
    }

    /// Searching a receipt through the outline finds a field once: each product id's UTF8String,
    /// not the attribute SEQUENCE, the OCTET STRING and the string (10 purchases, 10 hits).
    @Test func searchOnAReceiptFindsEachProductIDOnce() throws {
        let document = try Self.open("typical.receipt")
        let outline = LayerOutline(document: document)
        let hits = outline.search("com.example.receiptexplorer.")
        #expect(hits.count == document.receipt?.receipt?.inApp.count && hits.count == 10)
        #expect(hits.allSatisfy { outline.row($0).name?.text == "product id" && outline.row($0).label.hasPrefix("UTF8String") })
    }

    /// A token goes through the same type: its rows come from its layers, named by its format's
    /// wording (the token's kind and header, a payload field's meaning), and an x5c certificate's
    /// rows are a run of its DER nodes, not rows built one by one.
    @Test func aTokensLayersAreWordedByItsFormat() throws {
        let document = try Self.open("jws/transaction.jws")
        let wording = document.outlineWording
        #expect(wording.heading(of: .file, in: document) == LayerHeading("token", value: "StoreKit 2 transaction · ES256, 3 certificates"))
        let model = try #require(document.jws)
        let ids = model.tokens[0].layers
        #expect(wording.heading(of: try #require(ids.signature), in: document) == LayerHeading("signature", value: "64 bytes r‖s"))
        #expect(wording.parts(of: try #require(ids.signature), in: document) == [LayerPart("r", 0..<32), LayerPart("s", 32..<64)])
        let fields = wording.fields(of: try #require(ids.payload), in: document)
        #expect(fields.values.contains { $0.display == "2000000510000004" })
        #expect(wording.fields(of: try #require(ids.header), in: document).isEmpty)

        let outline = LayerOutline(document: document)
        #expect(outline.count == 270)
        let leaf = ids.certificates[0]
        let first = try #require(outline.row(of: NodeID(leaf, 0)))
        let block = try #require(outline.block(containing: first))
        let run = try #require(outline.built(block).runs.first { $0.layer == leaf })
        let certificate = try #require(document.layer(leaf).tree)
        #expect(run.first == first && run.count == certificate.count)
        #expect(outline.built(block).rows.allSatisfy { $0.node.layer != leaf })
        #expect(outline.row(first + 5).node == NodeID(leaf, 5))
    }

    /// A kind whose format adds no wording still gets every layer's rows: a certificate's DER, by
    /// node, named by RFC 5280.
    @Test func aCertificateNeedsNoWording() throws {
        let document = try Self.open("pki/test-root.pem")
        #expect(document.outlineWording is LayerNameWording)
        let outline = LayerOutline(document: document)
        #expect(outline.count == document.fileTree.count && outline.row(0).name?.text.hasPrefix("Certificate") == true)
        // The name is in the issuer and the subject: two strings, each found once.
        let hits = outline.search("receipt-explorer TEST Root CA")
        #expect(hits.count == 2 && hits.allSatisfy { outline.row($0).label == "UTF8String (29)" })
    }
}

/// A certificate opens in the same outline as a token, and reads as the tree pane read it: the
/// first three levels open, a DER row's detail is the node's `explain` lines, the status bar
/// names its offset and path, and `]` jumps to a diagnostic of a malformed DER file.
@Suite struct CertificateOutlineTests {
    @Test func aCertificateIsAnOutlineThatReadsAsTheTree() throws {
        let document = try GenericOutlineTests.open("pki/test-root.pem")
        var s = AppState(document: document, screen: GridSize(width: 120, height: 40))
        let outline = s.outline
        #expect(outline.count == 79)
        #expect(s.outlineVisibleRows(count: 5).map { outline.row($0).label } == ["SEQUENCE (979)", "SEQUENCE (699)", "[0] (3)", "INTEGER (1)", "INTEGER (12)"])
        press(&s, .character("j"), .character("j"))
        #expect(s.outlineRow?.node == NodeID(.file, 2))
        let screen = render(s, size: GridSize(width: 120, height: 40)).text
        #expect(screen.contains("node 2 · path 0 › 0 › 0"))
        #expect(screen.contains("@0x8 · 0 › 0 › 0"))
        #expect(screen.contains("Hex: 16 bytes/row, offsets in hex"))
    }

    @Test func diagnosticsOfAMalformedDERFileAreJumpedTo() throws {
        // A SEQUENCE whose length runs past the input: the parser's error is pinned to node 0.
        let bytes: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x05]
        var s = AppState(document: Document.open(LoadedInput(bytes: bytes, name: "short.der", encoding: .binary, note: ""),
                                                 options: Fixtures.options))
        let outline = s.outline
        #expect(!outline.diagnosticStops.isEmpty)
        press(&s, .character("]"))
        #expect(s.outlineView.selection == outline.diagnosticStops[0].row)
        #expect(outline.diagnosticStops.map(\.diagnostic.message) == ["the length claims 6 content octets but the input ends after 3"])
        #expect(s.status == StatusMessage("diagnostic 1 of 1: error truncated-content (wrapped to the first)", isError: true))
    }
}
