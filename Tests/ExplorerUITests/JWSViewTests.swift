import ASN1Lenient
import DocumentCore
import DocumentFormats
import Foundation
import Testing
import TestSupport
@testable import ExplorerUI
import TextLoader

/// The detail pane's base64 groups (the very lines `explain --offset` prints), the summary's title
/// by document kind, and the snapshots of the JWS views not covered by JWSOutlineTests.
@Suite struct JWSViewTests {
    /// The group line `explain --offset` prints for file offset `offset` (after "base64url: ").
    static func explainGroup(_ s: AppState, _ offset: Int) throws -> String {
        let document = s.layered.document
        let text = try #require(JWSExplain(document).explain(fileOffset: offset))
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("base64url: ") })
        return String(line.dropFirst("base64url: ".count))
    }

    @Test func detailListsTheGroupsThatCarryAField() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        s.selectOutlineRow(try JWSOutlineTests.row(s, "transactionId"))
        let lines = OutlineDetail.unwrapped(s).map(\.text)
        let heading = try #require(lines.firstIndex(of: "base64url        every 4 characters carry 3 bytes (6 bits each):"))
        // Bytes 1..<35 are in groups 0…11 (characters 3639…3686): six lines, then the rest counted.
        for g in 0..<6 {
            #expect(lines[heading + 1 + g] == "  " + (try Self.explainGroup(s, 3639 + 4 * g)))
        }
        #expect(lines[heading + 1] == "  characters 3639-3642 \"eyJ0\" = 6-bit values 30 50 9 52 → payload bytes 0-2: 7b 22 74 \"{\\\"t\"")
        #expect(lines[heading + 7] == "  … 6 more groups")
    }

    @Test func detailOfACertificateNodeReadsItsX5cCharacters() throws {
        var s = try JWSOutlineTests.state("jws/transaction.jws")
        let leaf = try JWSNavigationTests.token(s).layers.certificates[0]
        s.selectOutlineRow(try #require(s.outline.row(of: NodeID(leaf, 1))))
        let lines = OutlineDetail.unwrapped(s).map(\.text)
        let heading = try #require(lines.firstIndex(of: "base64           every 4 characters carry 3 bytes (6 bits each):"))
        // DER bytes 4..<550 (30 82 02 97 | 30 82 …) are groups 1…183: the first is x5c characters
        // 4-7 "lzCC" (header bytes 27-30) → DER bytes 3-5 97 30 82; 183 - 6 = 177 more.
        #expect(lines[heading + 1] == "  characters 27-30 \"lzCC\" = 6-bit values 37 51 2 2 → DER bytes 3-5: 97 30 82")
        #expect(lines[heading + 7] == "  … 177 more groups")
    }

    @Test func summaryIsTitledByDocumentKind() throws {
        let size = GridSize(width: 120, height: 40)
        for (file, title) in [("jws/transaction.jws", " StoreKit 2 transaction summary "),
                              ("jws/notification.jws", " App Store Server Notification summary "),
                              ("jws/transaction-history.json", " Transaction history summary "),
                              ("jws/renewal-info.jws", " StoreKit 2 renewal info summary ")] {
            var s = try JWSOutlineTests.state(file, size: size)
            press(&s, .character("2"))
            let line = render(s, size: size).text.split(separator: "\n", omittingEmptySubsequences: false)[1]
            #expect(line.hasPrefix("┌" + title + "─"), "\(file): \(line)")
        }
        var receipt = Fixtures.sample(size: size)
        press(&receipt, .character("2"))
        #expect(render(receipt, size: size).text.split(separator: "\n", omittingEmptySubsequences: false)[1].hasPrefix("┌ Receipt summary ─"))
    }

    /// What was bought comes first in each token's block: the notification's headline, then (after
    /// its steps) each nested token's, indented under it.
    @Test func summaryShowsEachTokensHeadlineBeforeItsSteps() throws {
        let size = GridSize(width: 100, height: 80)
        var s = try JWSOutlineTests.state("jws/notification.jws", size: size)
        press(&s, .character("2"))
        let lines = render(s, size: size).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let top = try #require(lines.firstIndex { $0.hasPrefix("│ token: App Store Server Notification V2 (DID_RENEW) · ES256, 3 certificates ") })
        #expect(lines[(top + 1)...(top + 8)].map { $0.dropFirst().prefix(60).trimmingCharacters(in: .whitespaces) } == [
            "notificationType  DID_RENEW (the subscription renewed)",
            "notificationUUID  3f0c6b1e-8d2a-4c5b-9e7f-1a2b3c4d5e6f",
            "data.bundleId     com.example.receiptexplorer",
            "data.appAppleId   1450000001",
            "data.environment  Sandbox (the sandbox test environment)",
            "data.status       1 (active)",
            "",
            "Header algorithm (ES256): passed",
        ])
        let nested = try #require(lines.firstIndex { $0.hasPrefix("│   token data.signedTransactionInfo: StoreKit 2 transaction ") })
        #expect(lines[nested + 1].hasPrefix("│     productId  "))
    }

    /// A token's own row answers what it is made of, what it says and whether it verified.
    @Test func tokenRowDetailShowsPartsHeadlineAndVerdict() throws {
        let s = try JWSOutlineTests.state("jws/notification.jws")
        let lines = OutlineDetail.unwrapped(s).map(\.text)
        let parts = try #require(lines.firstIndex { $0.hasPrefix("parts ") })
        #expect(Array(lines[parts...]) == [
            "parts            header: characters 0-3637 → 2,728 bytes",
            "                 payload: characters 3639-15764 → 9,094 bytes",
            "                 signature: characters 15766-15851 → 64 bytes",
            "nested           2 tokens: data.signedTransactionInfo, data.signedRenewalInfo",
            "headline",
            "  notificationType  DID_RENEW (the subscription renewed)",
            "  notificationUUID  3f0c6b1e-8d2a-4c5b-9e7f-1a2b3c4d5e6f",
            "  data.bundleId     com.example.receiptexplorer",
            "  data.appAppleId   1450000001",
            "  data.environment  Sandbox (the sandbox test environment)",
            "  data.status       1 (active)",
            "verification     Verdict: VALID — valid, anchored at a root you supplied",
        ])
        // A header row has none of it.
        var header = s
        header.selectOutlineRow(try JWSOutlineTests.row(s, "header"))
        #expect(!OutlineDetail.unwrapped(header).contains { $0.text.hasPrefix("parts ") })
    }

    @Test func tokenRowDetailNamesTheFailedSteps() throws {
        let s = try JWSOutlineTests.state("jws/malformed-truncated-signature.jws")
        let lines = OutlineDetail.unwrapped(s)
        let verdict = try #require(lines.firstIndex { $0.text.hasPrefix("verification ") })
        #expect(lines[verdict].style == .fail)
        #expect(lines[verdict].text == "verification     Verdict: INVALID")
        #expect(lines[(verdict + 1)...].contains { $0.text.hasPrefix("                 ") && $0.text.contains(": failed") && $0.style == .fail })
    }

    /// The FuzzReceipt finding `receipt-jws-alg-control-characters.bin`: a header whose alg holds an
    /// escape sequence and a bidi override. The token row and the summary show it escaped, once.
    @Test func hostileAlgIsEscapedInTheTokenRowAndTheSummary() throws {
        let parts = try String(decoding: Paths.sample("jws/transaction.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").map(String.init)
        let header = JWSDocumentBase64.url(Array("{\"alg\":\"ES\\u001b[2J\u{202E}256\",\"x5c\":[]}".utf8))
        let input = try InputLoader.decode(Array([header, parts[1], parts[2]].joined(separator: ".").utf8), name: "t.jws")
        let size = GridSize(width: 120, height: 40)
        var s = AppState(document: Document.open(input, options: JWSOutlineTests.options), screen: size)
        let shown = #"StoreKit 2 transaction · ES\x1b[2J\u{202E}256, 0 certificates"#
        #expect(s.outline.rows[0].value == shown)
        press(&s, .character("2"))
        let summary = render(s, size: size).text
        #expect(summary.contains("token: " + shown))
        #expect(!summary.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
    }

    @Test func snapshots() throws {
        for size in [GridSize(width: 80, height: 24), GridSize(width: 120, height: 40)] {
            let tag = "\(size.width)x\(size.height)"
            // A certificate node in token-text view: its x5c characters in the header.
            var s = try JWSOutlineTests.state("jws/transaction.jws", size: size)
            let leaf = try JWSNavigationTests.token(s).layers.certificates[0]
            s.selectOutlineRow(try #require(s.outline.row(of: NodeID(leaf, 1))))
            press(&s, .character("b"))
            Snapshot.assert(render(s, size: size), named: "jws-x5c-token-text-\(tag)")
            // A search hit inside the certificate, with its status.
            var found = try JWSOutlineTests.state("jws/transaction.jws", size: size)
            JWSNavigationTests.search(&found, "storekit signing")
            Snapshot.assert(render(found, size: size), named: "jws-search-\(tag)")
            // A history response: tree, summary, purchases.
            var h = try JWSOutlineTests.state("jws/transaction-history.json", size: size)
            Snapshot.assert(render(h, size: size), named: "jws-history-tree-\(tag)")
            press(&h, .character("2"))
            Snapshot.assert(render(h, size: size), named: "jws-history-summary-\(tag)")
            press(&h, .character("3"))
            Snapshot.assert(render(h, size: size), named: "jws-history-purchases-\(tag)")
            var t = try JWSOutlineTests.state("jws/transaction.jws", size: size)
            press(&t, .character("3"))
            Snapshot.assert(render(t, size: size), named: "jws-purchases-\(tag)")
        }
    }
}

/// Base64url without padding, for hand-built token parts.
enum JWSDocumentBase64 {
    static func url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
