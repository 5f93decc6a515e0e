import Foundation
import Testing
import TestSupport

/// `receipt-explorer timeline` on the generated story of samples/timeline/ (Scripts/timeline_samples.py):
/// the exact events, merged across documents, the gaps, the conflict, --at, --transaction, JSON
/// and every exit status.
@Suite struct TimelineCommandTests {
    static let names = ["receipt.receipt", "history.json", "consumable.jws", "n01-subscribed.jws", "n02-did-renew.jws",
                        "n03-did-renew.jws", "n04-did-fail-to-renew.jws", "n05-grace-period-expired.jws",
                        "n06-billing-recovery.jws", "n07-upgrade.jws", "n08-auto-renew-disabled.jws", "n09-refund.jws",
                        "n10-expired.jws", "n11-resubscribe.jws"]
    static func path(_ name: String) -> String { Paths.samples.appendingPathComponent("timeline/\(name)").path }
    static var all: [String] { names.map(path) }

    static func manifest() throws -> [String: Any] {
        let data = try Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["timeline"] as? [String: Any])
    }

    @Test func everyEventOfTheStoryOnceWithAllItsSources() throws {
        let result = try runCLI(["timeline"] + Self.all)
        #expect(result.status == 1, "the receipt that missed the recovery is a conflict")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == Self.fullText + "\n")
    }

    static let fullText = """
        timeline of 14 documents: 2 groups, 14 events, 2 gaps, 1 conflict
          [1] receipt.receipt: a PKCS#7 App Store receipt
          [2] history.json: a transaction history response: 6 transactions
          [3] consumable.jws: a StoreKit 2 transaction (JWS, ES256, 3 certificates)
          [4] n01-subscribed.jws: an App Store Server Notification V2: SUBSCRIBED (INITIAL_BUY) (JWS, ES256, 3 certificates), with 2 nested tokens
          [5] n02-did-renew.jws: an App Store Server Notification V2: DID_RENEW (no subtype) (JWS, ES256, 3 certificates), with 2 nested tokens
          [6] n03-did-renew.jws: an App Store Server Notification V2: DID_RENEW (no subtype) (JWS, ES256, 3 certificates), with 2 nested tokens
          [7] n04-did-fail-to-renew.jws: an App Store Server Notification V2: DID_FAIL_TO_RENEW (GRACE_PERIOD) (JWS, ES256, 3 certificates), with 2 nested tokens
          [8] n05-grace-period-expired.jws: an App Store Server Notification V2: GRACE_PERIOD_EXPIRED (no subtype) (JWS, ES256, 3 certificates), with 2 nested tokens
          [9] n06-billing-recovery.jws: an App Store Server Notification V2: DID_RENEW (BILLING_RECOVERY) (JWS, ES256, 3 certificates), with 2 nested tokens
          [10] n07-upgrade.jws: an App Store Server Notification V2: DID_CHANGE_RENEWAL_PREF (UPGRADE) (JWS, ES256, 3 certificates), with 2 nested tokens
          [11] n08-auto-renew-disabled.jws: an App Store Server Notification V2: DID_CHANGE_RENEWAL_STATUS (AUTO_RENEW_DISABLED) (JWS, ES256, 3 certificates), with 2 nested tokens
          [12] n09-refund.jws: an App Store Server Notification V2: REFUND (no subtype) (JWS, ES256, 3 certificates), with 2 nested tokens
          [13] n10-expired.jws: an App Store Server Notification V2: EXPIRED (VOLUNTARY) (JWS, ES256, 3 certificates), with 2 nested tokens
          [14] n11-resubscribe.jws: an App Store Server Notification V2: SUBSCRIBED (RESUBSCRIBE) (JWS, ES256, 3 certificates), with 2 nested tokens

        subscription group 21400001 · original transaction 2000000700000000
          2024-01-05T12:00:00Z  purchase            com.example.receiptexplorer.monthly · transaction 2000000700000000
                                from [1] in-app purchase 3 · [2] signedTransactions[0] · [4] notification SUBSCRIBED/INITIAL_BUY
          2024-01-05T12:00:00Z  offer-redeemed      com.example.receiptexplorer.monthly · transaction 2000000700000000 · introductory offer (PAY_AS_YOU_GO, period P1M)
                                from [1] in-app purchase 3 · [2] signedTransactions[0] · [4] notification SUBSCRIBED/INITIAL_BUY
          2024-02-05T12:00:00Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000700000001
                                from [1] in-app purchase 1 · [2] signedTransactions[1] · [5] notification DID_RENEW
          2024-03-05T12:00:00Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000700000002
                                from [1] in-app purchase 2 · [2] signedTransactions[2] · [6] notification DID_RENEW
          2024-04-05T12:00:00Z  billing-retry       com.example.receiptexplorer.monthly · transaction 2000000700000002 · renewal failed: billing retry
                                from [7] notification DID_FAIL_TO_RENEW/GRACE_PERIOD
          2024-04-05T12:00:00Z  grace-period        com.example.receiptexplorer.monthly · transaction 2000000700000002 · until 2024-04-11T12:00:00Z
                                from [7] notification DID_FAIL_TO_RENEW/GRACE_PERIOD
          2024-04-11T12:00:00Z  grace-period-ended  com.example.receiptexplorer.monthly · transaction 2000000700000002 · billing retry continues
                                from [8] notification GRACE_PERIOD_EXPIRED
          2024-04-11T12:00:00Z  gap                 no entitlement for 3 days (grace period ended)
          2024-04-14T12:00:00Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000700000003 · billing recovery: renewed after a billing failure
                                from [2] signedTransactions[3] · [9] notification DID_RENEW/BILLING_RECOVERY
          2024-04-20T12:00:00Z  upgrade             com.example.receiptexplorer.pro.monthly · transaction 2000000700000004
                                from [2] signedTransactions[4] · [10] notification DID_CHANGE_RENEWAL_PREF/UPGRADE
          2024-04-28T12:00:00Z  renewal-status      com.example.receiptexplorer.pro.monthly · transaction 2000000700000004 · automatic renewal turned off
                                from [11] notification DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED
          2024-05-02T12:00:00Z  refund              com.example.receiptexplorer.pro.monthly · transaction 2000000700000004 · REFUND_PRORATED, 60% refunded, reason 0: refunded for another reason (e.g. accidental purchase)
                                from [2] signedTransactions[4] · [12] notification REFUND
          2024-05-02T12:00:00Z  gap                 no entitlement for 39 days (refunded)
          2024-05-20T12:00:00Z  expiry              com.example.receiptexplorer.pro.monthly · transaction 2000000700000004 · VOLUNTARY; expiration intent 1: the customer cancelled
                                from [13] notification EXPIRED/VOLUNTARY
          2024-06-10T12:00:00Z  resubscribe         com.example.receiptexplorer.monthly · transaction 2000000700000005
                                from [2] signedTransactions[5] · [14] notification SUBSCRIBED/RESUBSCRIBE

        original transaction 2000000700000010 (no subscription group)
          2024-03-10T12:00:00Z  purchase            com.example.receiptexplorer.coins100 · transaction 2000000700000010
                                from [3] transaction

        conflicts
          warning receipt-missed-renewal: [1] receipt.receipt was created 2024-04-16T12:00:00Z and says original transaction 2000000700000000 had expired (its last period ended 2024-04-05T12:00:00Z), but [2] history.json, [9] n06-billing-recovery.jws report transaction 2000000700000003 renewing it from 2024-04-14T12:00:00Z until 2024-05-14T12:00:00Z
        """

    /// The JSON events are the text's, with the gaps the generator wrote into manifest.json.
    @Test func jsonEventsAndGaps() throws {
        let result = try runCLI(["timeline", "--format", "json"] + Self.all)
        #expect(result.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let groups = try #require(doc["groups"] as? [[String: Any]])
        #expect(groups.map { $0["original_transaction_id"] as? String } == ["2000000700000000", "2000000700000010"])
        #expect(groups.map { $0["subscription_group"] as? String } == ["21400001", nil])
        let events = try #require(groups[0]["events"] as? [[String: Any]])
        let rows = events.map { e -> String in
            let sources = (e["sources"] as? [[String: Any]] ?? []).map { "\($0["document"] as? Int ?? 0)" }.joined(separator: ",")
            return "\(e["date"] as? String ?? "") \(e["kind"] as? String ?? "") \(e["transaction_id"] as? String ?? "-") [\(sources)]"
        }
        #expect(rows == [
            "2024-01-05T12:00:00Z purchase 2000000700000000 [1,2,4]",
            "2024-01-05T12:00:00Z offer-redeemed 2000000700000000 [1,2,4]",
            "2024-02-05T12:00:00Z renewal 2000000700000001 [1,2,5]",
            "2024-03-05T12:00:00Z renewal 2000000700000002 [1,2,6]",
            "2024-04-05T12:00:00Z billing-retry 2000000700000002 [7]",
            "2024-04-05T12:00:00Z grace-period 2000000700000002 [7]",
            "2024-04-11T12:00:00Z grace-period-ended 2000000700000002 [8]",
            "2024-04-11T12:00:00Z gap - []",
            "2024-04-14T12:00:00Z renewal 2000000700000003 [2,9]",
            "2024-04-20T12:00:00Z upgrade 2000000700000004 [2,10]",
            "2024-04-28T12:00:00Z renewal-status 2000000700000004 [11]",
            "2024-05-02T12:00:00Z refund 2000000700000004 [2,12]",
            "2024-05-02T12:00:00Z gap - []",
            "2024-05-20T12:00:00Z expiry 2000000700000004 [13]",
            "2024-06-10T12:00:00Z resubscribe 2000000700000005 [2,14]",
        ])
        let gaps = events.filter { $0["kind"] as? String == "gap" }.map { [$0["date"] as? String ?? "", $0["until"] as? String ?? ""] }
        #expect(gaps == (try Self.manifest()["gaps"] as? [[String]]))
        let refund = try #require(events.first { $0["kind"] as? String == "refund" })
        #expect(refund["detail"] as? String == "REFUND_PRORATED, 60% refunded, reason 0: refunded for another reason (e.g. accidental purchase)")
        let offer = try #require(events.first { $0["kind"] as? String == "offer-redeemed" })
        #expect(offer["detail"] as? String == "introductory offer (PAY_AS_YOU_GO, period P1M)")
        // Each source names its node: the receipt's purchase is its attribute 17 SEQUENCE in the file layer.
        let first = try #require((events[0]["sources"] as? [[String: Any]])?.first)
        #expect(first["place"] as? String == "in-app purchase 3")
        #expect(first["layer"] as? Int == 0)
        let receipt = try Data(contentsOf: URL(fileURLWithPath: Self.path("receipt.receipt")))
        let offset = try #require(first["file_offset"] as? Int)
        #expect(Array(receipt[offset..<offset + 1]) == [0x30], "an attribute SEQUENCE starts there")
        let findings = try #require(doc["findings"] as? [[String: Any]])
        #expect(findings.map { $0["code"] as? String } == ["receipt-missed-renewal"])
        #expect((findings[0]["sources"] as? [[String: Any]])?.map { $0["document"] as? Int } == [1, 2, 9])
    }

    @Test(arguments: [
        ("2024-01-01", "not entitled: the first period starts 2024-01-05T12:00:00Z", false),
        ("2024-04-08", "entitled in a billing grace period until 2024-04-11T12:00:00Z (after transaction 2000000700000002)", true),
        ("2024-04-12", "not entitled: in a gap from 2024-04-11T12:00:00Z (grace period ended) until 2024-04-14T12:00:00Z", false),
        ("2024-04-25", "entitled (com.example.receiptexplorer.pro.monthly, transaction 2000000700000004) until 2024-05-02T12:00:00Z (then refunded)", true),
        ("2024-05-10", "not entitled: in a gap from 2024-05-02T12:00:00Z (refunded) until 2024-06-10T12:00:00Z", false),
        ("2024-08-01", "not entitled since 2024-07-10T12:00:00Z (expired)", false),
    ])
    func entitlementAt(_ date: String, _ state: String, _ entitled: Bool) throws {
        let text = try runCLI(["timeline", "--at", date] + Self.all).stdout
        #expect(text.contains("\nat \(date)T00:00:00Z:\n  subscription group 21400001 · original transaction 2000000700000000: \(state)\n"
                              + "  original transaction 2000000700000010 (no subscription group): no subscription period in these documents\n"))
        let json = try runCLI(["timeline", "--format", "json", "--at", date] + Self.all).stdout
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let group = try #require(((doc["at"] as? [String: Any])?["groups"] as? [[String: Any]])?.first)
        #expect(group["state"] as? String == state)
        #expect(group["entitled"] as? Bool == entitled)
    }

    @Test func consumableMissingFromTheReceipt() throws {
        let result = try runCLI(["timeline", Self.path("receipt.receipt"), Self.path("history.json"), Self.path("consumable.jws"),
                                 "--transaction", "2000000700000010"])
        #expect(result.stdout == Self.consumableText + "\n")
        #expect(result.status == 1, "the conflict still counts")
    }

    static let consumableText = """
        timeline of 3 documents: 2 groups, 9 events, 2 gaps, 1 conflict
          [1] receipt.receipt: a PKCS#7 App Store receipt
          [2] history.json: a transaction history response: 6 transactions
          [3] consumable.jws: a StoreKit 2 transaction (JWS, ES256, 3 certificates)

        subscription group 21400001 · original transaction 2000000700000000
          2024-01-05T12:00:00Z  purchase            com.example.receiptexplorer.monthly · transaction 2000000700000000
                                from [1] in-app purchase 3 · [2] signedTransactions[0]
          2024-01-05T12:00:00Z  offer-redeemed      com.example.receiptexplorer.monthly · transaction 2000000700000000 · introductory offer (PAY_AS_YOU_GO, period P1M)
                                from [1] in-app purchase 3 · [2] signedTransactions[0]
          2024-02-05T12:00:00Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000700000001
                                from [1] in-app purchase 1 · [2] signedTransactions[1]
          2024-03-05T12:00:00Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000700000002
                                from [1] in-app purchase 2 · [2] signedTransactions[2]
          2024-04-05T12:00:00Z  gap                 no entitlement for 9 days (expired)
          2024-04-14T12:00:00Z  renewal             com.example.receiptexplorer.monthly · transaction 2000000700000003
                                from [2] signedTransactions[3]
          2024-04-20T12:00:00Z  upgrade             com.example.receiptexplorer.pro.monthly · transaction 2000000700000004
                                from [2] signedTransactions[4]
          2024-05-02T12:00:00Z  refund              com.example.receiptexplorer.pro.monthly · transaction 2000000700000004 · REFUND_PRORATED, 60% refunded, reason 0: refunded for another reason (e.g. accidental purchase)
                                from [2] signedTransactions[4]
          2024-05-02T12:00:00Z  gap                 no entitlement for 39 days (refunded)
          2024-06-10T12:00:00Z  resubscribe         com.example.receiptexplorer.monthly · transaction 2000000700000005
                                from [2] signedTransactions[5]

        original transaction 2000000700000010 (no subscription group)
          2024-03-10T12:00:00Z  purchase            com.example.receiptexplorer.coins100 · transaction 2000000700000010
                                from [3] transaction

        transaction 2000000700000010: 2 mentions in 1 document
          [3] consumable.jws: transactionId @3661
          [3] consumable.jws: originalTransactionId @3719
          [1] receipt.receipt: not in this receipt: a consumable (type Consumable in [3] consumable.jws): a receipt lists a consumable only until the app finishes the transaction, and it was bought 2024-03-10T12:00:00Z, before the receipt was created 2024-04-16T12:00:00Z

        conflicts
          warning receipt-missed-renewal: [1] receipt.receipt was created 2024-04-16T12:00:00Z and says original transaction 2000000700000000 had expired (its last period ended 2024-04-05T12:00:00Z), but [2] history.json reports transaction 2000000700000003 renewing it from 2024-04-14T12:00:00Z until 2024-05-14T12:00:00Z
        """

    @Test func transactionAfterTheReceiptAndOneWithoutAReason() throws {
        let files = [Self.path("receipt.receipt"), Self.path("history.json")]
        let upgrade = try runCLI(["timeline"] + files + ["--transaction", "2000000700000004"]).stdout
        #expect(upgrade.contains("""
            transaction 2000000700000004: 1 mention in 1 document
              [2] history.json: signedTransactions[4] · transactionId @22236
              [1] receipt.receipt: not in this receipt: the receipt was created 2024-04-16T12:00:00Z, before the purchase 2024-04-20T12:00:00Z ([2] history.json)

            """))
        // The recovery renewal was bought before the receipt was made: nothing here says why it is missing.
        let recovery = try runCLI(["timeline"] + files + ["--transaction", "2000000700000003"]).stdout
        #expect(recovery.contains("  [1] receipt.receipt: not in this receipt: no reason in these documents\n"))
        // By its original transaction id the receipt has it: every purchase names it.
        let original = try runCLI(["timeline"] + files + ["--transaction", "2000000700000000", "--format", "json"]).stdout
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(original.utf8)) as? [String: Any])
        let lookup = try #require(doc["transaction"] as? [String: Any])
        let mentions = try #require(lookup["mentions"] as? [[String: Any]])
        #expect(mentions.filter { $0["document"] as? Int == 1 }.map { $0["field"] as? String }
                == ["originalTransactionId", "originalTransactionId", "transactionId", "originalTransactionId"])
        #expect(mentions.filter { $0["document"] as? Int == 2 }.count == 7)
        #expect((lookup["absent_from_receipts"] as? [Any])?.isEmpty == true)
    }

    @Test func appTransactionIdIsFoundAndExplained() throws {
        let result = try runCLI(["timeline", Self.path("receipt.receipt"), Self.path("consumable.jws"), "--transaction", "704289123456789077"])
        #expect(result.stdout.contains("""
            transaction 704289123456789077: 1 mention in 1 document
              [2] consumable.jws: appTransactionId @
            """))
        #expect(result.stdout.contains("  [1] receipt.receipt: not in this receipt: the id is an appTransactionId, which receipts do not carry\n"))
        #expect(result.status == 0)
    }

    @Test func exitStatuses() throws {
        // Agreeing documents: 0.
        let agree = try runCLI(["timeline", Self.path("receipt.receipt"), Self.path("n01-subscribed.jws")])
        #expect(agree.status == 0)
        #expect(agree.stdout.hasPrefix("timeline of 2 documents: 1 group, 4 events, 0 gaps, 0 conflicts\n"))
        // An id in no input: 1, with the reason for the receipt.
        let missing = try runCLI(["timeline", Self.path("receipt.receipt"), "--transaction", "999"])
        #expect(missing.status == 1)
        #expect(missing.stdout.hasSuffix("transaction 999: 0 mentions in 0 documents\n  [1] receipt.receipt: not in this receipt: no reason in these documents (no document mentions the id)\n"))
        // An input with errors: 1.
        let broken = try runCLI(["timeline", Paths.samples.appendingPathComponent("malformed-truncated.receipt").path])
        #expect(broken.status == 1)
        // Usage and I/O: 2, one line on stderr.
        let nothing = try runCLI(["timeline"])
        #expect(nothing.status == 2)
        let absent = try runCLI(["timeline", "/nonexistent/x.receipt"])
        #expect(absent.status == 2)
        #expect(absent.stderr == "receipt-explorer: cannot read '/nonexistent/x.receipt': No such file or directory\n")
        let badDate = try runCLI(["timeline", Self.path("receipt.receipt"), "--at", "soon"])
        #expect(badDate.status == 2)
        #expect(badDate.stderr == "receipt-explorer: --at: 'soon' is not a date (use RFC 3339 like 2024-03-05T10:00:00Z, or YYYY-MM-DD, or now)\n")
        let exploreJSON = try runCLI(["timeline", Self.path("receipt.receipt"), "--explore", "--format", "json"])
        #expect(exploreJSON.status == 2)
        #expect(exploreJSON.stderr.contains("--explore cannot be combined with --format json"))
        let explorePiped = try runCLI(["timeline", Self.path("receipt.receipt"), "--explore"])
        #expect(explorePiped.status == 2)
        #expect(explorePiped.stderr == "receipt-explorer: --explore needs a terminal on stdin and stdout; drop --explore to print the timeline as text (or add --format json)\n")
    }

    /// The manual's example (docs/manual/timeline.md) is the command's output, word for word.
    @Test func manualExampleIsTheOutput() throws {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/timeline.md"), encoding: .utf8)
        let prompt = "$ cd samples/timeline && receipt-explorer timeline "
        let start = try #require(readme.range(of: prompt))
        let block = readme[start.upperBound...].prefix { $0 != "`" }
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        let arguments = lines[0].split(separator: " ").map { a in a.hasSuffix(".receipt") || a.hasSuffix(".json") || a.hasSuffix(".jws") ? Self.path(String(a)) : String(a) }
        let result = try runCLI(["timeline"] + arguments)
        #expect(result.status == 1)
        #expect(result.stdout == lines.dropFirst().joined(separator: "\n"))
    }

    /// Real documents (corpus/jws/MANIFEST.md): one Session subscription's renewal notification and
    /// transaction (one event, two sources), its resubscribe a day later after the 3-minute sandbox
    /// period lapsed, and a renewal info with automatic renewal off.
    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is missing"))
    func corpusSubscriptionAcrossFourDocuments() throws {
        let names = ["notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws",
                     "notification-sandbox-com.loki-project.loki-messenger-2025-10-02-SUBSCRIBED-RESUBSCRIBE.jws",
                     "renewal-sandbox-com.loki-project.loki-messenger-2025-10-02-autorenew-off.jws",
                     "transaction-sandbox-com.loki-project.loki-messenger-2025-10-01-RENEWAL.jws"]
        let result = try runCLI(["timeline"] + names.map { Paths.corpus.appendingPathComponent("jws/" + $0).path })
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("""
            subscription group 21752814 · original transaction 2000001024993299
              2025-10-01T07:09:12Z      renewal             com.getsession.org.pro_sub · transaction 2000001024998954
                                        from [1] notification DID_RENEW · [4] transaction
              2025-10-01T07:12:12Z      gap                 no entitlement for 23 hours (expired)
              2025-10-02T07:06:07Z      resubscribe         com.getsession.org.pro_sub · transaction 2000001025686313
                                        from [2] notification SUBSCRIBED/RESUBSCRIBE
              2025-10-02T07:07:35.473Z  renewal-status      com.getsession.org.pro_sub · automatic renewal off, renews with com.getsession.org.pro_sub
                                        from [3] renewal info

            """))
    }

    /// Every corpus receipt and token at once: ids repeat across apps (Xcode numbers transactions
    /// from 0), so chains are per app and no two apps' transactions conflict.
    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is missing"))
    func corpusAppsStayApart() throws {
        let files = try ["receipts", "jws"].flatMap { dir in
            try FileManager.default.contentsOfDirectory(atPath: Paths.corpus.appendingPathComponent(dir).path)
                .filter { $0.hasSuffix(".receipt") || $0.hasSuffix(".jws") }.sorted()
                .map { Paths.corpus.appendingPathComponent("\(dir)/\($0)").path }
        }
        let result = try runCLI(["timeline"] + files)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(", 0 conflicts\n"))
        #expect(result.stdout.contains("\noriginal transaction 0 of ch.protonmail.protonmail (no subscription group)\n"))
        #expect(result.stdout.contains("\noriginal transaction 0 of net.zachariadis.cyclemaps (no subscription group)\n"))
    }

    /// A product id with ESC, an OSC title, a bidi override and NUL: escaped once, in text and JSON.
    @Test func hostileProductIdIsEscaped() throws {
        let file = Paths.samples.appendingPathComponent("malformed-hostile-strings.receipt").path
        let text = try runCLI(["timeline", file]).stdout
        #expect(text.contains("  2023-06-01T09:30:00Z  purchase            com.example.\\x1b]0;pwned\\x07.pro\\u{202E}\\x00 · transaction 2000000500000004\n"))
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x202E })
        let json = try runCLI(["timeline", file, "--format", "json"]).stdout
        #expect(json.contains(#""product_id": "com.example.\u001b]0;pwned\u0007.pro\u202e\u0000""#))
    }
}
