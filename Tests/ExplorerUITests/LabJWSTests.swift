import ASN1Lenient
import DocumentCore
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The tamper lab on StoreKit 2 documents: every edit re-opens the document with the options it
/// was opened with, so every token's verification runs again; text panes take the character
/// itself; a refusal always says why.
@Suite struct LabJWSTests {
    /// The state the explore command builds: the documents and the options they were opened with.
    static func state(_ file: String, size: GridSize = GridSize(width: 120, height: 40)) throws -> AppState {
        let input = try InputLoader.decode(try Paths.sample(file), name: (file as NSString).lastPathComponent)
        return AppState.opening([Document.open(input, options: JWSOutlineTests.options)], screen: size)
    }

    static func summary(_ s: AppState) -> [String] { SummaryContent.lines(s).map(\.text) }

    /// A character typed in place of `current`: any other printable one.
    static func other(_ current: UInt8) -> Character { current == UInt8(ascii: "A") ? "B" : "A" }

    @Test func aSignatureCharacterFailsES256AndUndoMakesItValidAgain() throws {
        var s = try Self.state("jws/transaction.jws")
        let original = s.layered.document.fileLayer.bytes.array
        #expect(Self.summary(s).contains("  ES256 signature: passed"))
        // The signature's r, shown as the token characters that encode it, the cursor on its first.
        s.selectOutlineRow(try JWSOutlineTests.row(s, "r"))
        press(&s, .character("b"), .tab)
        #expect(s.shownLayer == .file && s.outlineView.cursor == 4470)
        press(&s, .character("e"))
        #expect(s.prompt?.kind == .editCharacter && s.prompt?.label == "New character (type it): ")
        type(&s, String(Self.other(original[4470])))
        #expect(s.prompt == nil)
        #expect(s.teaching.lab?.bytes[4470] == UInt8(ascii: "A") || s.teaching.lab?.bytes[4470] == UInt8(ascii: "B"))
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
        let failed = Self.summary(s)
        #expect(failed.contains("  ES256 signature: failed — the signature does not match header.payload under x5c[0]'s key: the token was altered or signed by another key"))
        #expect(failed.contains("  Verdict: INVALID"))
        #expect(failed.last == "Verdict: INVALID (1 token)")
        // The panes stay on the same characters.
        #expect(s.shownLayer == .file && s.outlineView.cursor == 4470 && s.outlineRow?.label == "r")

        press(&s, .character("u"))
        #expect(s.teaching.lab?.bytes == original)
        #expect(s.status == StatusMessage("token: ES256 signature: failed → passed"))
        let valid = Self.summary(s)
        #expect(valid.contains("  ES256 signature: passed"))
        #expect(valid.last == "Verdict: VALID — valid, anchored at a root you supplied (1 token)")
    }

    @Test func typingInTheDecodedPayloadReencodesItsCharacters() throws {
        var s = try Self.state("jws/transaction.jws")
        let original = s.layered.document.fileLayer.bytes.array
        let payload = try #require(s.layered.document.jws?.tokens.first?.layers.payload)
        s.selectOutlineRow(try JWSOutlineTests.row(s, "transactionId"))
        press(&s, .tab)
        // The byte pane shows the decoded payload JSON, the cursor on the member's first byte:
        // `"transactionId":"2000000510000004"` at payload bytes 1..<35; the value's first digit is 18.
        #expect(s.shownLayer == payload && s.outlineRow?.value == "2000000510000004" && s.outlineView.cursor == 1)
        for _ in 0..<17 { press(&s, .character("l")) }
        let offset = s.outlineView.cursor
        #expect(offset == 18 && s.layered.document.layer(payload).bytes[offset] == UInt8(ascii: "2"))
        press(&s, .character("e"))
        #expect(s.prompt?.kind == .editCharacter)
        type(&s, "9")
        // Payload byte 18 is '9' now: its base64url group was encoded again into the token.
        let document = s.layered.document
        #expect(document.layer(payload).bytes[offset] == UInt8(ascii: "9"))
        let lab = try #require(s.teaching.lab)
        let changed = lab.bytes.indices.filter { lab.bytes[$0] != original[$0] }
        #expect(lab.bytes.count == original.count && !changed.isEmpty && changed.count <= 4)
        #expect(changed.last! - changed.first! < 4)  // one group of four characters
        // Same layer, same offset, same field; the signature no longer covers the payload.
        #expect(s.shownLayer == payload && s.outlineView.cursor == offset)
        #expect(s.outlineRow?.label == "transactionId" && s.outlineRow?.value == "9000000510000004")
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
        // One u undoes the one key press, whatever number of characters it changed.
        press(&s, .character("u"))
        #expect(s.teaching.lab?.bytes == original)
        #expect(s.outlineRow?.value == "2000000510000004")
        #expect(Self.summary(s).last == "Verdict: VALID — valid, anchored at a root you supplied (1 token)")
    }

    @Test func aSignatureByteInTheHexPaneIsReencodedToo() throws {
        var s = try Self.state("jws/transaction.jws")
        let signature = try #require(s.layered.document.jws?.tokens.first?.layers.signature)
        s.selectOutlineRow(try JWSOutlineTests.row(s, "s"))
        press(&s, .tab)
        #expect(s.shownLayer == signature && s.outlineView.cursor == 32)
        let old = s.layered.document.layer(signature).bytes[32]
        press(&s, .character("e"))
        #expect(s.prompt?.kind == .editByte)
        type(&s, old == 0 ? "01" : "00")
        #expect(s.layered.document.layer(signature).bytes[32] == (old == 0 ? 1 : 0))
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
        #expect(s.shownLayer == signature && s.outlineView.cursor == 32)
    }

    @Test func editsThatCannotBeMadeSayWhy() throws {
        var s = try Self.state("jws/transaction.jws")
        s.selectOutlineRow(try JWSOutlineTests.row(s, "transactionId"))
        press(&s, .tab, .character("i"))
        #expect(s.prompt == nil)
        #expect(s.status == StatusMessage("i inserts only in the file's own characters (b shows them): here a length change would re-encode the rest of the layer; e replaces this byte", isError: true))
        press(&s, .character("D"))
        #expect(s.status == StatusMessage("D deletes only in the file's own characters (b shows them): here a length change would re-encode the rest of the layer; e replaces this byte", isError: true))
        press(&s, .character("e"), .character("é"))
        #expect(s.prompt == nil && s.teaching.lab == nil)
        #expect(s.status == StatusMessage("not one character: \"é\" (type one printable ASCII character)", isError: true))
        // Typing the byte that is already there changes nothing, and says so.
        press(&s, .character("e"), .character("\""))
        #expect(s.status == StatusMessage("no change: that byte already has this value"))
        #expect(s.teaching.lab == nil)
    }

    /// A nested token's payload byte is carried through two encodings: the nested token's
    /// base64url characters, then the notification payload's characters that hold them. Both
    /// tokens' signatures fail, each named; one u restores the exact bytes.
    @Test func aNestedTokensFieldIsReencodedThroughBothTokens() throws {
        var s = try Self.state("jws/notification.jws")
        let nested = try JWSNavigationTests.token(s, path: "data.signedTransactionInfo")
        let payload = try #require(nested.layers.payload)
        let row = try #require(s.outline.rows.indices.first { s.outline.rows[$0].label == "productId" && s.outline.rows[$0].node.layer == payload })
        s.selectOutlineRow(row)
        press(&s, .tab)
        // `"productId":"com.example…`: the value's first character is 13 bytes into the member.
        for _ in 0..<13 { press(&s, .character("l")) }
        let offset = s.outlineView.cursor
        #expect(s.shownLayer == payload && s.layered.document.layer(payload).bytes[offset] == UInt8(ascii: "c"))
        press(&s, .character("e"), .character("C"))
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed; token data.signedTransactionInfo: ES256 signature: passed → failed", isError: true))
        #expect(s.outlineRow?.value == "Com.example.receiptexplorer.monthly" && s.shownLayer == payload && s.outlineView.cursor == offset)
        press(&s, .character("u"))
        #expect(s.status == StatusMessage("token: ES256 signature: failed → passed; token data.signedTransactionInfo: ES256 signature: failed → passed"))
        #expect(s.teaching.lab.map { $0.bytes == $0.original } == true)
    }

    /// A certificate's DER byte (hex pane) goes back into its `x5c` entry as standard base64: the
    /// chain no longer verifies.
    @Test func anX5cCertificateByteIsReencodedAsStandardBase64() throws {
        var s = try Self.state("jws/transaction.jws")
        let leaf = try JWSNavigationTests.token(s).layers.certificates[0]
        let original = s.layered.document.fileLayer.bytes.array
        s.selectOutlineRow(try #require(s.outline.row(of: NodeID(leaf, 0))))
        press(&s, .tab)
        // The last byte of the leaf's DER: a byte of its signature.
        press(&s, .character("G"))
        let offset = s.outlineView.cursor
        let old = s.layered.document.layer(leaf).bytes[offset]
        press(&s, .character("e"))
        type(&s, old == 0 ? "01" : "00")
        #expect(s.layered.document.layer(leaf).bytes[offset] == (old == 0 ? 1 : 0))
        let changed = try #require(s.teaching.lab).bytes.indices.filter { s.teaching.lab!.bytes[$0] != original[$0] }
        // The characters changed are base64 characters of the header's x5c entry, inside the header segment.
        #expect(!changed.isEmpty && changed.allSatisfy { $0 < 3638 })
        #expect(changed.allSatisfy { [UInt8](Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)).contains(s.teaching.lab!.bytes[$0]) })
        #expect(s.status == StatusMessage("token: x5c certificate chain: passed → failed; token: Trust anchor (root): passed → not checked (+3 more)", isError: true))
    }

    /// The re-open is an effect: the key press only asks for it (the document is untouched and
    /// the header says it is re-checking), the result comes back as a message and is shown; a
    /// result for an older request is dropped.
    @Test func theReopenIsAnEffectWhoseResultComesBackAsAMessage() throws {
        var s = try Self.state("jws/transaction.jws")
        let original = s.layered.document.fileLayer.bytes.array
        s.selectOutlineRow(try JWSOutlineTests.row(s, "r"))
        press(&s, .character("b"), .tab, .character("e"))
        let effect = reduce(&s, .character(Self.other(original[4470])))
        guard case .reopenLab(let job)? = effect else { Issue.record("no lab job: \(String(describing: effect))"); return }
        #expect(job.steps == [.replace(offset: 4470, byte: UInt8(ascii: original[4470] == UInt8(ascii: "A") ? "B" : "A"))])
        #expect(s.layered.document.fileLayer.bytes.array == original && s.status == StatusMessage("re-checking the edited bytes…"))
        // Another edit while the job runs is refused, never lost silently.
        press(&s, .character("D"))
        #expect(s.status == StatusMessage("still re-checking the last edit: try again when it is shown", isError: true))
        let result = job.run()
        var stale = s
        reduce(&stale, .labReopened(LabResult(id: job.id + 1, session: result.session, applied: 1)))
        #expect(stale.layered.document.fileLayer.bytes.array == original)
        reduce(&s, .labReopened(result))
        #expect(s.layered.document.fileLayer.bytes[4470] != original[4470])
        #expect(s.status == StatusMessage("token: ES256 signature: passed → failed", isError: true))
    }

    /// e / i / u outside the byte pane say where the lab works (they did nothing before).
    @Test func labKeysOutsideTheBytePaneSayWhereTheyWork() throws {
        var s = try Self.state("jws/transaction.jws")
        press(&s, .character("e"))
        #expect(s.prompt == nil && s.status == StatusMessage("e: the tamper lab edits in the byte pane (Tab to it, then e)", isError: true))
        press(&s, .character("2"), .character("u"))
        #expect(s.status == StatusMessage("u: the tamper lab edits in the byte pane (1 shows the tree, then Tab to it, then u)", isError: true))
        var r = Fixtures.sample()
        press(&r, .character("i"))
        #expect(r.status == StatusMessage("i: the tamper lab edits in the byte pane (Tab to it, then i)", isError: true))
    }
}
