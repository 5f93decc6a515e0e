import Foundation
import Testing

/// `receipt-explorer timeline FILE… --explore` in the real binary: the whole screen with the
/// timeline view open, the cursor's entitlement in a gap, Enter to the event's node in its source
/// document, T back, and the terminal restored afterwards.
@Suite(.serialized, .enabled(if: tmuxPath != nil, "tmux is not installed: the end-to-end terminal tests are skipped"))
struct TmuxTimelineTests {
    static func trimmed(_ screen: String) -> [String] {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    @Test func timelineExploreScreenCursorAndEnter() throws {
        let tmux = try TmuxHarness(arguments: ["timeline", "samples/timeline/receipt.receipt", "samples/timeline/history.json",
                                               "samples/timeline/n06-billing-recovery.jws", "--explore"], width: 120, height: 40)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the timeline view") { $0.contains("Enter / 1…9: go to the node") && $0.statusBar.hasSuffix("INVALID") })
        #expect(Self.trimmed(screen) == [
            " receipt-explorer   1 Tree   2 Summary   3 Purchases (3)   doc 1/3                  8 events in 3 documents; 1 conflict",
            "┌─ Timeline: 3 documents · 8 events · 2 gaps · 1 conflict (T or Esc closes) ───────────────────────────────────────────┐",
            "│   subscription group 21400001 · original transaction 2000000700000000                                                │",
            "│ › 2024-01-05T12:00:00Z  purchase            [1,2]  com.example.receiptexplorer.monthly · transaction 20000007000000… │",
            "│   2024-01-05T12:00:00Z  offer-redeemed      [1,2]  com.example.receiptexplorer.monthly · transaction 20000007000000… │",
            "│   2024-02-05T12:00:00Z  renewal             [1,2]  com.example.receiptexplorer.monthly · transaction 20000007000000… │",
            "│   2024-03-05T12:00:00Z  renewal             [1,2]  com.example.receiptexplorer.monthly · transaction 20000007000000… │",
            "│   2024-04-05T12:00:00Z  gap                        no entitlement for 9 days (expired)                               │",
            "│   2024-04-14T12:00:00Z  renewal             [2,3]  com.example.receiptexplorer.monthly · transaction 20000007000000… │",
            "│   2024-04-20T12:00:00Z  upgrade             [2]    com.example.receiptexplorer.pro.monthly · transaction 2000000700… │",
            "│   2024-05-02T12:00:00Z  refund              [2]    com.example.receiptexplorer.pro.monthly · transaction 2000000700… │",
            "│   2024-05-02T12:00:00Z  gap                        no entitlement for 39 days (refunded)                             │",
            "│   2024-06-10T12:00:00Z  resubscribe         [2]    com.example.receiptexplorer.monthly · transaction 20000007000000… │",
            "│   conflicts                                                                                                          │",
            "│   receipt-missed-renewal: [1] receipt.receipt was created 2024-04-16T12:00:00Z and says original transaction 200000… │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│                                                                                                                      │",
            "│ 2024-01-05T12:00:00Z  purchase            [1,2]  com.example.receiptexplorer.monthly · transaction 2000000700000000  │",
            "│ from 1: [1] receipt.receipt in-app purchase 3 · 2: [2] history.json signedTransactions[0]                            │",
            "│ cursor 2024-01-05T12:00:00Z: entitled (com.example.receiptexplorer.monthly, transaction 2000000700000000) until      │",
            "│   2024-04-05T12:00:00Z (then expired)                                                                                │",
            "│ Enter / 1…9: go to the node in that source · f: find a transaction · T / Esc: close                                  │",
            "└──────────────────────────────────────────────────────────────────────────────────────────────────────────────────────┘",
            " receipt.receipt · 4,996 B · DER · @0x40 · 0 › 1 › 0 › 2 › 1 › 0 › 0        0 errors · 0 not DER · 0 warnings · INVALID",
        ])
        // Four events down: the gap, with the entitlement at its moment under the list.
        try tmux.send("j", "j", "j", "j")
        let gap = try #require(tmux.waitForScreen("the cursor on the gap") { $0.contains("cursor 2024-04-05T12:00:00Z") })
        #expect(Array(Self.trimmed(gap).suffix(7).prefix(5)) == [
            "│                                                                                                                      │",
            "│ 2024-04-05T12:00:00Z  gap                        no entitlement for 9 days (expired)                                 │",
            "│ no source document                                                                                                   │",
            "│ cursor 2024-04-05T12:00:00Z: not entitled: in a gap from 2024-04-05T12:00:00Z (expired) until 2024-04-14T12:00:00Z   │",
            "│ Enter / 1…9: go to the node in that source · f: find a transaction · T / Esc: close                                  │",
        ])
        // The first event, Enter: the receipt's in-app purchase 3 selected in the tree of document 1.
        try tmux.send("g", "Enter")
        let tree = tmux.waitForScreen("the purchase in the receipt") {
            !$0.contains("Timeline:") && $0.firstLine.contains("[1] receipt.receipt: in-app purchase 3; T returns")
        }
        #expect(tree != nil)
        // 2 from the timeline: the same event in the history (document 2).
        try tmux.send("T", "2")
        let history = tmux.waitForScreen("the transaction in the history") {
            $0.firstLine.contains(" doc 2/3 ") && $0.firstLine.contains("[2] history.json: signedTransactions[0]; T returns")
        }
        #expect(history != nil)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0, "stderr: \(tmux.stderr())")
        #expect(tmux.stderr() == "")
        #expect(tmux.sttyBefore == tmux.sttyAfter, "the terminal's modes were not restored")
    }
}
