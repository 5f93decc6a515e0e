import ASN1Lenient
import DocumentCore
import DocumentFormats
import Foundation
import JSONLenient
import Testing
import TestSupport
@testable import ExplorerUI

/// The keys that land on a node, on a StoreKit 2 outline: `/` and `n` / `N` over every layer (x5c
/// certificates and nested tokens included), `:` with a FILE offset, `]` / `[` over every layer's
/// diagnostics, `y` / `w` on the selected row's own bytes, `p` back to the purchase table.
/// samples/jws/transaction.jws: header segment = characters 0..<3638, payload = 3639..<4469; the
/// payload's bytes 1..<35 are `"transactionId":"2000000510000004"`. Its x5c[0] is the TEST leaf
/// whose subject CN is "receipt-explorer TEST ECC StoreKit Signing" (no other certificate has it).
@Suite struct JWSNavigationTests {
    static func token(_ s: AppState, path: String? = nil) throws -> JWSToken {
        try #require(s.layered.document.jws?.tokens.first { $0.path == path })
    }

    /// The DER node of `certificate` holding the UTF8String `text`, found in the parser's tree.
    static func derNode(_ s: AppState, _ certificate: LayerID, string text: String) throws -> NodeID {
        let tree = try #require(s.layered.document.layer(certificate).tree)
        let index = try #require(tree.nodes.indices.first {
            if case .string(let value, _)? = tree.value(of: $0) { return value == text }
            return false
        })
        return NodeID(certificate, index)
    }

    static func search(_ s: inout AppState, _ text: String) {
        press(&s, .character("/"))
        type(&s, text)
        press(&s, .enter)
    }

    @Test func searchFindsACertificateStringAndOpensItsAncestors() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        let leaf = try Self.token(s).layers.certificates[0]
        let node = try Self.derNode(s, leaf, string: "receipt-explorer TEST ECC StoreKit Signing")
        let row = try #require(s.outline.row(of: node))
        #expect(!s.outlineIsOpen(3), "x5c starts closed")
        Self.search(&s, "storekit signing")
        #expect(s.search.hits == [row])
        #expect(s.outlineView.selection == row && s.outlineRow?.node == node)
        #expect(s.status == StatusMessage("match 1 of 1 for \"storekit signing\""))
        // Every ancestor is open, so the row is on screen.
        var parent = s.outlineParent(row)
        while let p = parent { #expect(s.outlineIsOpen(p)); parent = s.outlineParent(p) }
        #expect(s.outlineVisibleRows(count: 38).contains(row))
        press(&s, .character("n"))
        #expect(s.outlineView.selection == row && s.status == StatusMessage("match 1 of 1 for \"storekit signing\""))
    }

    @Test func searchReachesNestedTokensAndNWalksInOutlineOrder() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws")
        let nested = try Self.token(s, path: "data.signedTransactionInfo")
        let renewal = try Self.token(s, path: "data.signedRenewalInfo")
        let outline = s.outline
        // The transaction id is in the nested transaction only; its original id in both nested tokens.
        Self.search(&s, "2000000510000004")
        let id = try #require(outline.rows.firstIndex { $0.node.layer == nested.layers.payload && $0.label == "transactionId" })
        #expect(s.search.hits == [id])
        #expect(s.outlineRow?.label == "transactionId" && s.status == StatusMessage("match 1 of 1 for \"2000000510000004\""))
        Self.search(&s, "2000000510000000")
        let first = try #require(outline.rows.firstIndex { $0.node.layer == nested.layers.payload && $0.label == "originalTransactionId" })
        let second = try #require(outline.rows.firstIndex { $0.node.layer == renewal.layers.payload && $0.label == "originalTransactionId" })
        #expect(s.search.hits == [first, second])
        // The search started after the previous hit: the next hit in outline order is `first`.
        #expect(s.outlineView.selection == first && s.status == StatusMessage("match 1 of 2 for \"2000000510000000\""))
        press(&s, .character("n"))
        #expect(s.outlineView.selection == second && s.status == StatusMessage("match 2 of 2 for \"2000000510000000\""))
        press(&s, .character("n"))
        #expect(s.outlineView.selection == first && s.status == StatusMessage("match 1 of 2 for \"2000000510000000\" (wrapped to the first)"))
        press(&s, .character("N"))
        #expect(s.outlineView.selection == second && s.status == StatusMessage("match 2 of 2 for \"2000000510000000\" (wrapped to the last)"))
        Self.search(&s, "no such text")
        #expect(s.search.hits.isEmpty && s.status == StatusMessage("no match for \"no such text\"", isError: true))
    }

    @Test func goToTakesAFileOffsetAndSelectsTheInnermostRow() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        let token = try Self.token(s).layers
        // Character 3641 decodes into payload byte (3641 - 3639) * 6 / 8 = 1: transactionId.
        press(&s, .character(":"))
        type(&s, "3641")
        press(&s, .enter)
        #expect(s.outlineRow?.label == "transactionId" && s.outlineRow?.node.layer == token.payload)
        #expect(s.outlineView.cursor == 1)
        #expect(s.status == StatusMessage("file offset 0xE39 (3641): transactionId (payload byte 1)"))
        // Character 40 → header byte 30 → x5c[0]'s base64 character 30 - 23 = 7 → DER byte 5.
        press(&s, .character(":"))
        type(&s, "0x28")
        press(&s, .enter)
        let certificate = try #require(s.layered.document.layer(token.certificates[0]).tree)
        let der = try #require(certificate.deepestNode(containing: 5))
        #expect(s.outlineRow?.node == NodeID(token.certificates[0], der))
        #expect(s.status == StatusMessage("file offset 0x28 (40): \(s.outlineRow?.label ?? "") (x5c[0] byte 5)"))
        press(&s, .character(":"))
        type(&s, "4556")
        press(&s, .enter)
        #expect(s.status == StatusMessage("offset 4556 is past the end (4556 bytes)", isError: true))
        press(&s, .character(":"))
        type(&s, "zz")
        press(&s, .enter)
        #expect(s.status == StatusMessage("not an offset: \"zz\" (use decimal or 0x hex)", isError: true))
    }

    @Test func goToOutsideEveryValueSaysSo() throws {
        var s = try JWSOutlineTests.state("jws/transaction-history.json")
        let bytes = s.layered.document.fileLayer.bytes
        #expect(bytes[0] == UInt8(ascii: "{") && bytes[bytes.count - 1] == UInt8(ascii: "\n"))
        press(&s, .character(":"))
        type(&s, "\(bytes.count - 1)")
        press(&s, .enter)
        let offset = bytes.count - 1
        #expect(s.status == StatusMessage("no node at file offset 0x\(String(offset, radix: 16, uppercase: true)) (\(offset)): outside every value", isError: true))
    }

    @Test func diagnosticJumpsWalkEveryLayerInOutlineOrder() throws {
        var s = try JWSOutlineTests.state("jws/malformed-duplicate-keys.jws")
        let payload = try #require(Self.token(s).layers.payload)
        let stops = s.outline.diagnosticStops
        // The second "bundleId" key sits at byte 622 of the decoded payload.
        let duplicate = try #require(stops.first { $0.diagnostic.code == DiagnosticCode(JSONCode.duplicateKey) })
        #expect(duplicate.layer == payload && duplicate.diagnostic.range.lowerBound == 622)
        let row = s.outline.row(duplicate.row)
        #expect(row.label == "bundleId" && row.range.lowerBound == 622)
        #expect(stops.map(\.row) == stops.map(\.row).sorted() && Set(stops.map(\.row)).count == stops.count)
        let position = try #require(stops.firstIndex { $0.row == duplicate.row })
        // From the first row, `]` walks the stops in order up to the duplicate key.
        for _ in 0...position { press(&s, .character("]")) }
        #expect(s.outlineView.selection == duplicate.row)
        #expect(s.status?.text == "diagnostic \(position + 1) of \(stops.count): \(duplicate.diagnostic.severity) \(duplicate.diagnostic.code)")
        press(&s, .character("g"), .character("["))
        #expect(s.outlineView.selection == stops[stops.count - 1].row)
        #expect(s.status?.text.hasSuffix(" (wrapped to the last)") == true)
    }

    @Test func diagnosticsOfAnEmptyListSaySo() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        #expect(s.outline.diagnosticStops.isEmpty == true)
        press(&s, .character("]"))
        #expect(s.status == StatusMessage("no diagnostics: nothing to jump to"))
    }

    @Test func copyAndWriteTakeTheRowsOwnBytes() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        s.selectOutlineRow(try JWSOutlineTests.row(s, "transactionId"))
        let effect = press(&s, .character("y"))
        let text = Array("\"transactionId\":\"2000000510000004\"".utf8).map { String(format: "%02x", $0) }.joined()
        #expect(effect == .copyToClipboard(text: text, byteCount: 34, totalBytes: 34))
        press(&s, .character("w"))
        #expect(s.prompt == Prompt(kind: .writeFile, text: "layer-2-node-1-1.json"))
        let write = press(&s, .enter)
        #expect(write == .writeFile(path: "layer-2-node-1-1.json", bytes: Array("\"transactionId\":\"2000000510000004\"".utf8)))
    }

    @Test func pGoesFromAFieldToItsTransactionInTheTable() throws {
        var s = try JWSOutlineTests.state("jws/notification.jws")
        let nested = try Self.token(s, path: "data.signedTransactionInfo")
        let row = try #require(s.outline.rows.firstIndex { $0.node.layer == nested.layers.payload && $0.label == "productId" })
        s.selectOutlineRow(row)
        press(&s, .character("p"))
        #expect(s.mode == .purchases && s.table.row == 0 && s.status == StatusMessage("transaction #1"))
        press(&s, .character("1"), .character("g"))
        press(&s, .character("p"))
        #expect(s.mode == .tree && s.status == StatusMessage("this row is not inside a transaction token", isError: true))
    }

    /// A transaction row's target is its token, never a node: the history's rows name the
    /// transaction tokens in order, and no tree node counts as "inside" one (an Int that meant a
    /// node here and a token there used to make node 1 a member of the row of token 1).
    @Test func transactionRowsTargetTheirTokens() throws {
        let s = try JWSOutlineTests.state("jws/transaction-history.json")
        let model = try #require(s.document.jws)
        let transactions = model.tokens.indices.filter { model.tokens[$0].kind == .transaction }
        let receipt = try #require(s.additions)
        #expect(!transactions.isEmpty)
        #expect(receipt.purchases.map(\.target) == transactions.map { .layer(model.tokens[$0].layers.token) })
        #expect(transactions.allSatisfy { receipt.purchaseIndex(containing: $0) == nil })
    }

    /// What a key can change, for "did it do anything".
    struct Fingerprint: Equatable {
        var selection: Int, cursor: Int, expanded: NodeBitSet, tokenText: Bool, mode: ViewMode, focus: Focus
        var prompt: Bool, help: Bool, status: StatusMessage?, hex: Bool, decimal: Bool, tour: Bool

        init(_ s: AppState) {
            selection = s.outlineView.selection
            cursor = s.outlineView.cursor
            expanded = s.outlineView.expanded
            tokenText = s.outlineView.showTokenText
            mode = s.mode
            focus = s.focus
            prompt = s.prompt != nil
            help = s.help.visible
            status = s.status
            hex = s.hexView.visible
            decimal = s.preferences.offsetBase == .decimal
            tour = s.teaching.tour?.active == true
        }
    }

    /// Every key of the tree and hex panes and every global key, on a row in the middle of a
    /// token's outline: each changes something or says in the status line why it cannot. Left
    /// out: the quit keys, and `1`, which asks for the view already shown.
    @Test func everyKeyOnAnOutlineDoesSomethingOrSaysWhy() throws {
        var base = try JWSOutlineTests.state("jws/transaction.jws")
        base.selectOutlineRow(try JWSOutlineTests.row(base, "alg"))
        for (context, focus) in [(KeyContext.tree, Focus.tree), (.hex, .hex)] {
            var start = base
            start.focus = focus
            if focus == .hex { start.setOutlineCursor(5) }
            for binding in Keymap.bindings where binding.context == context || binding.context == .global {
                guard case .key(let event)? = binding.triggers.first,
                      ![.quit, .escape, .showTree].contains(binding.action) else { continue }
                var s = start
                let effect = reduce(&s, event)
                #expect(effect != nil || Fingerprint(s) != Fingerprint(start), "\(context) \(binding.keys) did nothing")
            }
        }
    }
}

/// The tour, the tamper lab, the wheel and a resize on a StoreKit 2 outline.
@Suite struct JWSTeachingAndMouseTests {
    @Test func theTourSelectsEachStepsRow() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        let document = s.layered.document
        let steps = document.tour.steps
        try #require(steps.count > 1)
        press(&s, .character("t"))
        let row = try #require(s.outline.row(of: steps[0].node))
        #expect(s.outlineView.selection == row)
        #expect(s.status == StatusMessage("tour 1/\(steps.count): \(steps[0].title)"))
        press(&s, .character("n"))
        #expect(s.outlineView.selection == s.outline.row(of: steps[1].node))
        #expect(s.status == StatusMessage("tour 2/\(steps.count): \(steps[1].title)"))
    }

    @Test func theLabEditsTheTokenCharactersAsText() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        s.selectOutlineRow(try JWSOutlineTests.row(s, "transactionId"))
        // On the decoded JSON, e asks for the character itself (LabJWSTests carries such an edit on).
        press(&s, .tab, .character("e"))
        #expect(s.prompt?.kind == .editCharacter)
        press(&s, .escape)
        // On the token characters it edits the file. Characters 3663-3666 "MjAw" carry payload
        // bytes 18-20 "200" (the id's first digits); 'j' (35) → 'k' (36) makes them "2@0".
        press(&s, .character("b"))
        #expect(s.shownLayer == .file && s.outlineView.cursor == 3640)
        for _ in 0..<24 { press(&s, .character("l")) }
        press(&s, .character("e"))
        #expect(s.prompt?.kind == .editCharacter)
        type(&s, "k")
        let lab = try #require(s.teaching.lab)
        #expect(lab.bytes[3664] == UInt8(ascii: "k") && lab.bytes.count == 4556)
        #expect(s.layered.document.fileLayer.bytes[3664] == UInt8(ascii: "k"))
        // The rebuilt outline keeps the characters on screen and selects the field they decode into.
        #expect(s.outlineView.showTokenText && s.shownLayer == .file && s.outlineView.cursor == 3664)
        #expect(s.outlineRow?.label == "transactionId" && s.outlineRow?.value == "2@00000510000004")
        #expect(s.outlineRow?.node.layer == s.layered.document.jws?.tokens.first?.layers.payload)
    }

    @Test func theWheelScrollsTheOutlineAndResizeKeepsTheSelection() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws", size: GridSize(width: 120, height: 40))
        let tree = try #require(s.viewport.tree)
        press(&s, .character("E"))
        reduce(&s, .wheelDown(x: tree.x + 1, y: tree.y + 1))
        #expect(s.outlineView.top == 3 && s.outlineView.selection == 0)
        reduce(&s, .wheelUp(x: tree.x + 1, y: tree.y + 1))
        #expect(s.outlineView.top == 0)
        press(&s, .character("G"))
        let last = s.outlineView.selection
        #expect(s.outlineRow?.label == "s")
        reduce(&s, .resize(GridSize(width: 80, height: 24)))
        let height = try #require(s.viewport.tree?.height)
        #expect(s.outlineView.selection == last && s.outlineVisibleRows(count: height).last == last)
    }
}
