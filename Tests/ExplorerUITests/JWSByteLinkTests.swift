import ASN1Lenient
import DocumentCore
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The byte pane ↔ tree link on a StoreKit 2 outline, both ways, beyond the plain JSON and DER
/// cases of JWSOutlineTests: token characters that encode an x5c certificate's DER (through two
/// base64 layers), a certificate node's x5c characters, and a nested token's characters inside
/// its notification. Expected ranges come from the document's own maps (`fileRange`, `jwsSpan`),
/// not from the outline. transaction.jws: header JSON `{"alg":"ES256","x5c":["` is 23 bytes, so
/// x5c[0]'s base64 (667 DER bytes → 890 characters and "==") is header bytes 23..<913.
@Suite struct JWSByteLinkTests {
    @Test func tokenCharactersSelectTheCertificateNodeTheyEncode() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        let document = s.layered.document
        let leaf = try JWSNavigationTests.token(s).layers.certificates[0]
        s.selectOutlineRow(try JWSOutlineTests.row(s, "header"))
        press(&s, .character("b"), .tab, .character("g"))
        #expect(s.shownLayer == .file && s.outlineView.cursor == 0)
        for _ in 0..<40 { press(&s, .character("l")) }
        // Character 40 → header byte 30 → x5c[0] character 7 → DER byte 5: the tbsCertificate.
        let tree = try #require(document.layer(leaf).tree)
        let node = try #require(tree.deepestNode(containing: 5))
        #expect(node == 1 && s.outlineRow?.node == NodeID(leaf, 1))
        // The pane still shows the token's characters, with the node's characters highlighted.
        #expect(s.shownLayer == .file && s.outlineView.cursor == 40)
        #expect(s.shownRange == document.fileRange(tree.nodes[1].byteRange, in: leaf))
    }

    @Test func aCertificateNodeHighlightsItsX5cCharacters() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        let token = try JWSNavigationTests.token(s).layers
        let header = try #require(token.header)
        let certificate = try #require(s.outline.row(of: NodeID(token.certificates[0], 0)))
        s.selectOutlineRow(certificate)
        press(&s, .character("b"))
        let bytes = s.layered.document.layer(header).bytes
        #expect(s.shownLayer == header && s.shownRange == 23..<913)
        // 667 = 3 · 222 + 1: the entry ends "…xx==\"", the padding carries no bits.
        #expect(bytes[22] == UInt8(ascii: "\"") && Array(bytes[913...915]) == Array("==\"".utf8))
        // And back: the cursor on x5c[0]'s character 7 selects DER byte 5's node.
        press(&s, .tab)
        for _ in 0..<7 { press(&s, .character("l")) }
        #expect(s.outlineView.cursor == 30 && s.outlineRow?.node == NodeID(token.certificates[0], 1))
        #expect(s.shownLayer == header)
    }

    @Test func aNestedFieldShowsItsCharactersInTheNestedToken() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws")
        let document = s.layered.document
        let nested = try JWSNavigationTests.token(s, path: "data.signedTransactionInfo")
        let payload = try #require(nested.layers.payload)
        let row = try #require(s.outline.rows.firstIndex { $0.node.layer == payload && $0.label == "transactionId" })
        s.selectOutlineRow(row)
        #expect(s.shownLayer == payload && s.shownRange == 1..<35)
        press(&s, .character("b"))
        #expect(s.shownLayer == nested.layers.token)
        #expect(s.shownRange == document.jwsSpan(1..<35, in: payload, token: nested).characters)
    }

    @Test func outerTokenCharactersSelectTheNestedTokensField() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws")
        let document = s.layered.document
        let nested = try JWSNavigationTests.token(s, path: "data.signedTransactionInfo")
        let payload = try #require(nested.layers.payload)
        // The file characters that encode the nested transactionId member (two base64 layers deep).
        let characters = document.fileRange(1..<35, in: payload)
        s.selectOutlineRow(try JWSOutlineTests.row(s, "payload"))
        press(&s, .character("b"), .tab)
        #expect(s.shownLayer == .file)
        s.setOutlineCursor(characters.lowerBound + 4)
        press(&s, .character("l"))
        #expect(s.outlineRow?.label == "transactionId" && s.outlineRow?.node.layer == payload)
        #expect(s.shownLayer == .file && s.outlineView.cursor == characters.lowerBound + 5)
        #expect(s.shownRange == characters)
    }

    @Test func clicksSelectRowsAndBytes() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws", size: GridSize(width: 120, height: 40))
        let tree = try #require(s.viewport.tree)
        // Row 2 of the pane is "alg" (token, header, alg).
        reduce(&s, .mouseClick(x: tree.x + 10, y: tree.y + 2))
        #expect(s.outlineRow?.label == "alg" && s.focus == .tree)
        // A click on x5c's ▸ (depth 2: column 2 + 4) opens it.
        reduce(&s, .mouseClick(x: tree.x + 6, y: tree.y + 3))
        #expect(s.outlineRow?.label == "x5c" && s.outlineIsOpen(3))
        s.selectOutlineRow(try JWSOutlineTests.row(s, "transactionId"))
        let hex = try #require(s.viewport.hex)
        // The JSON pane starts one row above the node's row (byte 1 is on row 0): column 40 of
        // row 0 is byte 40, inside originalTransactionId (36..<78).
        reduce(&s, .mouseClick(x: hex.x + 40, y: hex.y))
        #expect(s.focus == .hex && s.outlineView.cursor == 40 && s.outlineRow?.label == "originalTransactionId")
    }
}

/// A history-shaped document of 1,000 tokens: the outline opens without building any token's
/// rows, and keys build only the tokens they land in.
@Suite struct JWSHistoryOutlineTests {
    static let count = 1000

    /// `{"signedTransactions":["<transaction.jws>",…]}` and where each token's characters start.
    static func history() throws -> (bytes: [UInt8], starts: [Int]) {
        let token = Array(try Paths.sample("jws/transaction.jws")).filter { $0 > 0x20 }
        var bytes = Array("{\"signedTransactions\":[".utf8)
        var starts: [Int] = []
        for i in 0..<count {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            starts.append(bytes.count)
            bytes += token
            bytes.append(UInt8(ascii: "\""))
        }
        bytes += Array("]}".utf8)
        return (bytes, starts)
    }

    /// Opened once for the suite (reading 1,000 tokens is the slow part, not the explorer), not
    /// verified; each test makes its own state, so each starts with no token built.
    static let opened: (Document, [Int])? = {
        guard let (bytes, starts) = try? history(), let input = try? InputLoader.decode(bytes, name: "history.json") else { return nil }
        var options = JWSOutlineTests.options
        options.validate = false
        return (Document.open(input, options: options), starts)
    }()

    static func state(size: GridSize = GridSize(width: 120, height: 40)) throws -> (AppState, [Int]) {
        let (document, starts) = try #require(opened)
        return (AppState(document: document, screen: size), starts)
    }

    @Test func opensWithoutBuildingTokensAndGoesToAnOffsetDeepInside() throws {
        var (s, starts) = try Self.state()
        let outline = s.outline
        #expect(s.layered.document.kind == .transactionHistory(transactions: Self.count))
        // body, signedTransactions, 1,000 elements, and each token's 270 rows (as when it is alone).
        let alone = try JWSOutlineTests.state("jws/transaction.jws").outline.count
        #expect(alone == 270)
        #expect(outline.count == 2 + Self.count + Self.count * alone)
        // Built at open: the body's rows and one head row per token.
        #expect(outline.eager.count == 2 + 2 * Self.count)
        _ = render(s, size: GridSize(width: 120, height: 40))
        #expect(outline.store.builtCount == 0)
        #expect(s.additions?.purchases.count == Self.count)

        // Character 3641 of token 700 decodes into its payload's byte 1: transactionId.
        let offset = starts[700] + 3641
        press(&s, .character(":"))
        type(&s, "\(offset)")
        press(&s, .enter)
        let token = try #require(s.layered.document.jws?.tokens[700])
        #expect(s.outlineRow?.label == "transactionId" && s.outlineRow?.node.layer == token.layers.payload)
        #expect(s.status == StatusMessage("file offset 0x\(String(offset, radix: 16, uppercase: true)) (\(offset)): transactionId (signedTransactions[700] payload byte 1)"))
        _ = render(s, size: GridSize(width: 120, height: 40))
        #expect(outline.store.builtCount == 1)

        // Walking, the last row and the first build no other token.
        press(&s, .character("j"), .character("k"), .character("k"), .character("G"), .character("g"))
        #expect(s.outlineView.selection == 0)
        press(&s, .character("G"))
        #expect(s.outlineRow?.label == "[999]")
        #expect(outline.store.builtCount == 1)
    }

    @Test func searchReadsEveryTokenAndKeepsNone() throws {
        var (s, _) = try Self.state()
        let outline = s.outline
        JWSNavigationTests.search(&s, "storekit signing")
        #expect(s.search.hits.count == Self.count)
        // The first hit is in token 0's x5c[0]; only the token jumped to is kept built.
        let first = try #require(s.layered.document.jws?.tokens[0].layers.certificates[0])
        #expect(s.outlineRow?.node.layer == first)
        #expect(outline.store.builtCount == 1)
    }

    @Test func expandAllThenWalkBackIntoAnUnbuiltToken() throws {
        var (s, _) = try Self.state()
        let outline = s.outline
        let tokens = try #require(s.layered.document.jws?.tokens)
        press(&s, .character("E"))
        s.selectOutlineRow(try #require(outline.row(of: NodeID(tokens[701].layers.token, 0))))
        // Token 701, and token 700 whose last rows (all open) are on screen above it.
        #expect(outline.store.builtCount == 2)
        // Up: the element holding token 701, then the last row of token 700.
        press(&s, .character("k"))
        #expect(s.outlineRow?.label == "[701]")
        press(&s, .character("k"))
        #expect(s.outlineRow?.label == "s" && s.outlineRow?.node.layer == tokens[700].layers.signature)
        #expect(outline.store.builtCount == 2)
    }

    @Test func theTableJumpsToTheLastTransaction() throws {
        var (s, _) = try Self.state()
        press(&s, .character("3"), .character("G"), .enter)
        let token = try #require(s.layered.document.jws?.tokens[Self.count - 1])
        #expect(s.mode == .tree && s.outlineRow?.node == NodeID(token.layers.token, 0))
        #expect(s.outlineRow?.label == "token signedTransactions[999]")
        #expect(s.status == StatusMessage("transaction #1000 in the tree (p goes back)"))
    }
}
