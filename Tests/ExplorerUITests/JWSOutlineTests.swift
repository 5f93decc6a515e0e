import ASN1Lenient
import DocumentCore
import Foundation
import ReceiptKit
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// StoreKit 2 tokens in the explorer: the layer outline in the tree pane (token → header → x5c
/// certificates' ASN.1 → payload fields → signature r, s), the byte pane on the node's own layer
/// or on the token characters (`b`), and the byte cursor selecting the row there, both ways.
/// samples/jws/transaction.jws is TEST-ONLY signed; its payload starts
/// `{"transactionId":"2000000510000004","originalTransactionId":"2000000510000000",…` and its
/// header segment is 3,638 characters, so the payload's characters start at 3,639.
@Suite struct JWSOutlineTests {
    static func state(_ file: String, size: GridSize = GridSize(width: 120, height: 40)) throws -> AppState {
        let input = try InputLoader.decode(try Paths.sample(file), name: (file as NSString).lastPathComponent)
        return AppState(document: Document.open(input, options: Self.options), screen: size)
    }

    /// The samples' TEST EC root trusted, "now" the tokens' signedDate: verdicts never drift.
    static let options: AnalysisOptions = {
        var options = Fixtures.options
        options.roots = [try! Paths.sample("pki/test-ec-root.cer")]
        return options
    }()

    static func row(_ s: AppState, _ label: String) throws -> Int {
        try #require(s.outline.rows.firstIndex { $0.label == label })
    }

    @Test func outlineHasTheTokensLayers() throws {
        let s = try Self.state("jws/transaction.jws")
        let outline = s.outline
        let token = try #require(s.layered.document.jws?.tokens.first).layers
        #expect(outline.rows[0].label == "token" && outline.rows[0].node == NodeID(token.token, 0))
        #expect(outline.rows[0].range == 0..<4556)
        let header = try #require(token.header)
        #expect(outline.rows[1].label == "header" && outline.rows[1].node == NodeID(header, 0))
        #expect(outline.rows[2].label == "alg" && outline.rows[2].value == "\"ES256\"")
        #expect(outline.rows[3].label == "x5c" && outline.rows[3].value == "[3]")
        // x5c[0] holds its certificate's ASN.1 tree, one depth below.
        #expect(outline.rows[4].label == "[0]" && outline.rows[5].node == NodeID(token.certificates[0], 0))
        #expect(outline.rows[5].label == "SEQUENCE (663)" && outline.rows[5].depth == 4)
        let transactionID = try Self.row(s, "transactionId")
        #expect(outline.rows[transactionID].node.layer == token.payload)
        #expect(outline.rows[transactionID].range == 1..<35)
        #expect(outline.rows[transactionID].value == "2000000510000004")
        #expect(outline.rows[transactionID].raw == "\"2000000510000004\"")
        #expect(!outline.rows[transactionID].meaning.isEmpty)
        let purchaseDate = try Self.row(s, "purchaseDate")
        #expect(outline.rows[purchaseDate].value == "2024-02-20T12:00:00.000Z (1708430400000)")
        let signature = try Self.row(s, "signature")
        #expect(outline.rows[signature].value == "64 bytes r‖s")
        #expect(outline.rows[signature + 1].label == "r" && outline.rows[signature + 1].range == 0..<32)
        #expect(outline.rows[signature + 2].label == "s" && outline.rows[signature + 2].range == 32..<64)
    }

    @Test func selectingAFieldShowsItsJSONBytesThenItsTokenCharacters() throws {
        var s = try Self.state("jws/transaction.jws")
        let token = try #require(s.layered.document.jws?.tokens.first).layers
        s.selectOutlineRow(try Self.row(s, "transactionId"))
        #expect(s.shownLayer == token.payload && s.shownRange == 1..<35)
        press(&s, .character("b"))
        // Bytes 1..<35 are carried by characters 3639 + 1*8/6 ..< 3639 + ceil(35*8/6).
        #expect(s.shownLayer == .file && s.shownRange == 3640..<3686)
        #expect(s.outlineView.cursor == 3640)
    }

    @Test func jsonCursorSelectsTheFieldThere() throws {
        var s = try Self.state("jws/transaction.jws")
        s.selectOutlineRow(try Self.row(s, "transactionId"))
        press(&s, .tab)
        #expect(s.focus == .hex && s.outlineView.cursor == 1)
        for _ in 0..<35 { press(&s, .character("l")) }
        // Byte 36 starts `"originalTransactionId":…`.
        #expect(s.outlineView.cursor == 36)
        #expect(s.outlineRow?.label == "originalTransactionId" && s.outlineRow?.range == 36..<78)
    }

    @Test func tokenCursorSelectsTheFieldItEncodes() throws {
        var s = try Self.state("jws/transaction.jws")
        s.selectOutlineRow(try Self.row(s, "transactionId"))
        press(&s, .character("b"), .tab)
        for _ in 0..<46 { press(&s, .character("l")) }
        // Character 3686 decodes into byte 35 (the comma): the payload object itself.
        #expect(s.outlineView.cursor == 3686 && s.outlineRow?.label == "payload")
        press(&s, .character("l"))
        // Character 3687 decodes into byte 36: originalTransactionId.
        #expect(s.outlineView.cursor == 3687 && s.outlineRow?.label == "originalTransactionId")
    }

    @Test func derCursorSelectsTheDeepestCertificateNode() throws {
        var s = try Self.state("jws/transaction.jws")
        let token = try #require(s.layered.document.jws?.tokens.first).layers
        let certificate = try #require(s.outline.row(of: NodeID(token.certificates[0], 0)))
        s.selectOutlineRow(certificate)
        #expect(s.shownLayer == token.certificates[0] && s.shownRange == 0..<667)
        press(&s, .tab)
        for _ in 0..<4 { press(&s, .character("l")) }
        // Byte 4 is the tbsCertificate SEQUENCE's identifier: node 1, bytes 4..<550.
        #expect(s.outlineRow?.node == NodeID(token.certificates[0], 1) && s.outlineRow?.range == 4..<550)
    }

    @Test func treeKeysWalkTheOutline() throws {
        var s = try Self.state("jws/transaction.jws")
        #expect(s.outlineView.selection == 0)
        press(&s, .character("j"), .character("j"))
        #expect(s.outlineRow?.label == "alg")
        press(&s, .character("j"), .character("l"))           // x5c is closed: open it
        #expect(s.outlineRow?.label == "x5c" && s.outlineIsOpen(3))
        press(&s, .character("l"))                              // first child
        #expect(s.outlineRow?.label == "[0]")
        press(&s, .character("h"), .character("h"))             // to x5c, then close it
        #expect(s.outlineRow?.label == "x5c" && !s.outlineIsOpen(3))
        press(&s, .character("j"))
        #expect(s.outlineRow?.label == "payload")
        press(&s, .character("k"))
        #expect(s.outlineRow?.label == "x5c")
        press(&s, .character("G"))
        #expect(s.outlineRow?.label == "s")
    }

    @Test func snapshots() throws {
        for size in [GridSize(width: 80, height: 24), GridSize(width: 120, height: 40)] {
            var s = try Self.state("jws/transaction.jws", size: size)
            let tag = "\(size.width)x\(size.height)"
            Snapshot.assert(render(s, size: size), named: "jws-tree-\(tag)")
            s.selectOutlineRow(try Self.row(s, "transactionId"))
            Snapshot.assert(render(s, size: size), named: "jws-bytes-json-\(tag)")
            press(&s, .character("b"))
            Snapshot.assert(render(s, size: size), named: "jws-bytes-token-\(tag)")
        }
    }

    @Test func statusBarCountsEveryLayersDiagnostics() throws {
        let s = try Self.state("jws/malformed-bad-base64url.jws")
        let diagnostics = s.layered.document.diagnostics
        let errors = diagnostics.filter { $0.diagnostic.severity == .error }.count
        let warnings = diagnostics.filter { $0.diagnostic.severity == .warning }.count
        #expect(errors > 0)
        #expect(s.layered.counts.errors == errors && s.layered.counts.warnings == warnings)
        let status = render(s, size: GridSize(width: 120, height: 40)).text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(status.contains("\(errors) error\(errors == 1 ? "" : "s") · "))
    }

    @Test func everyKeyIsSafeOnAToken() throws {
        for file in ["jws/transaction.jws", "jws/notification.jws", "jws/transaction-history.json", "jws/malformed-bad-base64url.jws"] {
            var s = try Self.state(file, size: GridSize(width: 80, height: 24))
            for binding in Keymap.bindings {
                for case .key(let event) in binding.triggers where event != .character("q") && event != .control("c") && event != .escape {
                    reduce(&s, event)
                    _ = render(s, size: GridSize(width: 80, height: 24))
                    reduce(&s, .character("1"))
                    if s.prompt != nil { reduce(&s, .escape) }
                    if s.help.visible { reduce(&s, .character("?")) }
                }
            }
            #expect(s.outline.count > 0, "\(file) opens as a layer outline with rows")
        }
    }
}

/// The summary of a StoreKit 2 document: one block per token, nested tokens indented under their
/// notification, and the verdict.
@Suite struct JWSSummaryTests {
    @Test func notificationHasABlockPerToken() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws")
        press(&s, .character("2"))
        #expect(s.mode == .summary)
        let titles = SummaryContent.lines(s).filter { $0.style == .title }.map(\.text)
        #expect(titles.first == "StoreKit 2 document")
        #expect(titles.count == 4)
        #expect(titles.dropFirst().first?.hasPrefix("token: App Store Server Notification V2 (DID_RENEW)") == true)
        #expect(titles.dropFirst(2).allSatisfy { $0.hasPrefix("  token data.signed") })
        #expect(SummaryContent.lines(s).last?.text.hasPrefix("Verdict: ") == true)
    }

    @Test func purchaseTableJumpsToTheNestedTransaction() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws")
        press(&s, .character("3"))
        #expect(s.mode == .purchases && s.additions?.purchases.map(\.transactionID) == ["2000000510000004"])
        press(&s, .enter)
        #expect(s.mode == .tree && s.outlineRow?.label == "token data.signedTransactionInfo")
        let token = try #require(s.layered.document.jws?.tokens.first { $0.path == "data.signedTransactionInfo" })
        #expect(s.outlineRow?.node == NodeID(token.layers.token, 0))
        #expect(s.status == StatusMessage("transaction #1 in the tree (p goes back)"))
    }

    @Test func summarySnapshots() throws {
        for size in [GridSize(width: 80, height: 24), GridSize(width: 120, height: 40)] {
            var s = try JWSOutlineTests.state("jws/transaction.jws", size: size)
            press(&s, .character("2"))
            Snapshot.assert(render(s, size: size), named: "jws-summary-\(size.width)x\(size.height)")
            var n = try JWSOutlineTests.state("jws/notification.jws", size: size)
            press(&n, .character("2"))
            Snapshot.assert(render(n, size: size), named: "jws-notification-summary-\(size.width)x\(size.height)")
            press(&n, .character("3"))
            Snapshot.assert(render(n, size: size), named: "jws-notification-purchases-\(size.width)x\(size.height)")
        }
    }
}
