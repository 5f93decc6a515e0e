import DocumentCore
import ReceiptKit
import Testing
import TestSupport
@testable import ExplorerUI

/// The timeline view (`T`) over every open document: its rows, the cursor's entitlement, Enter to
/// an event's node in its source document, `f` for where a transaction is.
@Suite struct TimelineViewTests {
    static func open(_ names: [String]) throws -> AppState {
        let documents = try names.map { name in
            Document.open(try DocumentInput.path(Paths.samples.appendingPathComponent("timeline/" + name).path).read().loaded,
                          options: AnalysisOptions(validate: false))
        }
        return AppState.opening(documents, screen: GridSize(width: 120, height: 40))
    }

    @Test func rowsCursorAndEnter() throws {
        var s = try Self.open(["receipt.receipt", "history.json", "n06-billing-recovery.jws"])
        press(&s, .character("T"))
        let view = try #require(s.timelineView)
        #expect(view.rows.map(\.text).prefix(3) == [
            "subscription group 21400001 · original transaction 2000000700000000",
            "2024-01-05T12:00:00Z  purchase            [1,2]  com.example.receiptexplorer.monthly · transaction 2000000700000000",
            "2024-01-05T12:00:00Z  offer-redeemed      [1,2]  com.example.receiptexplorer.monthly · transaction 2000000700000000 · introductory offer (PAY_AS_YOU_GO, period P1M)",
        ])
        #expect(view.row == 1, "the cursor starts on the first event")
        #expect(s.status == StatusMessage("8 events in 3 documents; 1 conflict"))
        // The gap row: the cursor line says not entitled there.
        let gap = try #require(view.rows.firstIndex { $0.text.contains("  gap  ") })
        press(&s, .character("j"), .character("j"), .character("j"), .character("j"))
        #expect(s.timelineView?.row == gap)
        #expect(s.timelineView?.cursorState == "cursor 2024-04-05T12:00:00Z: not entitled: in a gap from 2024-04-05T12:00:00Z (expired) until 2024-04-14T12:00:00Z")
        // Enter on the first event: the receipt's purchase (document 1), its attribute 17 SEQUENCE selected.
        press(&s, .character("g"), .enter)
        #expect(s.timelineView == nil)
        let purchase = try #require(s.document.receipt?.receipt?.inApp[2])
        #expect(s.selectedFileNode == purchase.attributeNode)
        #expect(s.status == StatusMessage("[1] receipt.receipt: in-app purchase 3; T returns to the timeline"))
        // 2 goes to the same event in the history (document 2); T comes back on the same row.
        press(&s, .character("T"), .character("2"))
        #expect(s.documents.current == 1)
        #expect(s.status == StatusMessage("[2] history.json: signedTransactions[0]; T returns to the timeline"))
        press(&s, .character("T"))
        #expect(s.timelineView?.row == 1)
        press(&s, .character("q"))
        #expect(s.timelineView == nil)
    }

    /// A notification Apple did not deliver (its last send attempt failed) is marked on its row.
    @Test func undeliveredNotificationIsMarked() throws {
        let documents = try ["refund-history.json", "notification-history.json"].map { name in
            Document.open(try DocumentInput.path(Paths.samples.appendingPathComponent("apple/" + name).path).read().loaded,
                          options: AnalysisOptions(validate: false))
        }
        var s = AppState.opening(documents, screen: GridSize(width: 120, height: 40))
        press(&s, .character("T"))
        let view = try #require(s.timelineView)
        #expect(view.rows.map(\.text).last
                == "2024-03-01T12:00:00.002Z  renewal-status      [2]  com.example.receiptexplorer.monthly · transaction 2000000800000005 · automatic renewal turned off · ⚠ not delivered: last attempt UNSUCCESSFUL_HTTP_RESPONSE_CODE (2 attempts)")
        #expect(view.rows.filter { $0.text.contains("not delivered") }.count == 1)
    }

    @Test func findATransaction() throws {
        var s = try Self.open(["receipt.receipt", "history.json"])
        press(&s, .character("T"), .character("f"))
        #expect(s.prompt?.kind == .findTransaction)
        type(&s, "2000000700000004")
        press(&s, .enter)
        let view = try #require(s.timelineView)
        #expect(view.rows.map(\.text) == [
            "transaction 2000000700000004: 1 mention in 1 document",
            "[2] history.json: signedTransactions[4] · transactionId",
            "[1] receipt.receipt: not in this receipt: the receipt was created 2024-04-16T12:00:00Z, before the purchase 2024-04-20T12:00:00Z ([2] history.json)",
        ])
        #expect(view.row == 1)
        #expect(s.status == StatusMessage("1 mention of 2000000700000004"))
        // Esc: back to the events; Esc again closes.
        press(&s, .escape)
        #expect(s.timelineView?.lookup == nil)
        #expect(s.timelineView?.rows.first?.text == "subscription group 21400001 · original transaction 2000000700000000")
        press(&s, .escape)
        #expect(s.timelineView == nil)
    }

    /// The timeline of one document that has no purchases says so, and the keys still work.
    @Test func noEvents() {
        var s = Fixtures.small()
        press(&s, .character("T"))
        #expect(s.timelineView?.rows.map(\.text) == ["no events in these documents"])
        press(&s, .character("j"), .enter)
        #expect(s.status == StatusMessage("this line has no source document", isError: true))
    }

    /// The hostile product id shows escaped once (not `\\x1b`), with no control character in a row.
    @Test func hostileProductIdShowsEscapedOnce() throws {
        let document = Document.open(try DocumentInput.path(Paths.samples.appendingPathComponent("malformed-hostile-strings.receipt").path).read().loaded,
                                     options: AnalysisOptions(validate: false))
        var s = AppState.opening([document], screen: GridSize(width: 120, height: 40))
        press(&s, .character("T"))
        let rows = try #require(s.timelineView?.rows)
        #expect(rows[1].text == "2023-06-01T09:30:00Z  purchase            [1]  com.example.\\x1b]0;pwned\\x07.pro\\u{202E}\\x00 · transaction 2000000500000004")
        #expect(rows.allSatisfy { !$0.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E } })
    }
}
