import Foundation
import Testing

/// `api … --explore` in the real binary against the stand-in server: what was fetched opens in the
/// explorer — a history in the timeline view across its pages, a single transaction in the tree —
/// and the bearer token never reaches the screen.
@Suite(.serialized, .enabled(if: tmuxPath != nil && cliBinary != nil && StandInServer.available,
                             "needs tmux, the built binary and python3 with cryptography"))
struct TmuxAPITests {
    static let txn = APICommandTests.txn

    static func trimmed(_ screen: String) -> [String] {
        TmuxTimelineTests.trimmed(screen)
    }

    /// The bearer tokens the server saw appear nowhere on `screen`, nor their signatures.
    static func expectNoToken(_ server: StandInServer, on screen: String) throws {
        let tokens = try server.requests().compactMap(\.authorization).map { String($0.dropFirst("Bearer ".count)) }
        #expect(!tokens.isEmpty)
        for token in tokens {
            #expect(!screen.contains(String(token.prefix(40))))
            #expect(!screen.contains(String(token.split(separator: ".")[2].prefix(20))))
        }
    }

    @Test func historyOpensInTheTimelineAcrossItsPages() throws {
        let server = try StandInServer()
        let tmux = try TmuxHarness(arguments: ["api", "history", Self.txn, "--explore"] + server.options(), width: 120, height: 24)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the timeline of the fetched pages") {
            $0.contains("Timeline: 2 documents") && $0.statusBar.hasSuffix("VALID")
        })
        let lines = Self.trimmed(screen)
        #expect(Array(lines.prefix(6)) == [
            " receipt-explorer   1 Tree   2 Summary   3 Purchases (2)   doc 1/2                              3 events in 2 documents",
            "┌─ Timeline: 2 documents · 3 events · 0 gaps · 0 conflicts (T or Esc closes) ──────────────────────────────────────────┐",
            "│   subscription group 21000001 · original transaction 2000000000000001                                                │",
            "│ › 2024-12-01T12:00:00Z  purchase            [1]  com.example.standin.monthly · transaction 2000000000000001          │",
            "│   2024-12-31T12:00:00Z  renewal             [1]  com.example.standin.monthly · transaction 2000000000000002          │",
            "│   2025-01-30T12:00:00Z  renewal             [2]  com.example.standin.monthly · transaction 2000000000000003          │",
        ])
        #expect(lines.contains("│ from 1: [1] history-001.json signedTransactions[0]                                                                   │"))
        #expect(lines.last?.hasPrefix(" history-001.json · 9,228 B · StoreKit JSON · @0x0 · file ") == true)
        // The third event came from the second page: Enter opens it there, in the tree of document 2.
        try tmux.send("j", "j", "Enter")
        let tree = try #require(tmux.waitForScreen("the renewal in the second page") {
            !$0.contains("Timeline:") && $0.firstLine.contains("doc 2/2  [2] history-002.json: signedTr")
        })
        #expect(Self.trimmed(tree).last?.hasPrefix(" history-002.json · 4,690 B · StoreKit JSON · @0xED0 ") == true)
        #expect(tree.contains("revision  \"standin-revision-3\""))
        try Self.expectNoToken(server, on: screen + tree)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0)
        #expect(tmux.stderr() == "")
    }

    @Test func transactionOpensInTheTree() throws {
        let server = try StandInServer()
        let tmux = try TmuxHarness(arguments: ["api", "transaction", Self.txn, "--explore"] + server.options(), width: 100, height: 30)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForScreen("the fetched transaction") { $0.statusBar.hasSuffix("VALID") })
        let lines = Self.trimmed(screen)
        #expect(lines[0] == " receipt-explorer   1 Tree   2 Summary   3 Purchases (1)                            ? help · q quit")
        #expect(lines[2].hasPrefix("│  ▾ body  {1}  "))
        #expect(lines[3].hasPrefix("│    ▾ signedTransactionInfo  \"eyJhbGciOiJFUzI1Ni…│"))
        #expect(lines[4].hasPrefix("│      ▸ token signedTransactionInfo  StoreKit 2 …│"))
        #expect(lines.last == " transaction-001.json · 4,564 B · StoreKit JSON · @0x0    0 errors · 0 not DER · 0 warnings · VALID")
        try Self.expectNoToken(server, on: screen)
        // The summary names what was fetched as `verify` would.
        try tmux.send("2")
        // Its last row, not its title: a capture can catch the pane half redrawn.
        let summary = try #require(tmux.waitForText("ES256 signature: passed"))
        let rows = Self.trimmed(summary)
        #expect(rows.contains("│ token signedTransactionInfo: StoreKit 2 transaction · ES256, 3 certificates                      │"))
        #expect(rows.contains("│   transactionId          2000000000000001                                                        │"))
        #expect(rows.contains("│   ES256 signature: passed                                                                        │"))
        try Self.expectNoToken(server, on: summary)
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0)
    }
}
