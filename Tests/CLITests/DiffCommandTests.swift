import Foundation
import Testing
import TestSupport

/// `receipt-explorer diff`: exit statuses, the exact text of one pair, the JSON shape, colour.
@Suite struct DiffCommandTests {
    static func path(_ name: String) -> String { Paths.samples.appendingPathComponent("diff").appendingPathComponent(name).path }

    @Test
    func purchaseAddedTextExactly() throws {
        let r = try runCLI(["diff", Self.path("base.receipt"), Self.path("purchase-added.receipt"), "--color", "never"])
        #expect(r.status == 1)
        #expect(r.stderr == "")
        #expect(r.stdout == """
            A base.receipt: a PKCS#7 App Store receipt
            B purchase-added.receipt: a PKCS#7 App Store receipt
            comparing two receipts (attributes, purchases by transaction id, signing, then structure)

            semantic: 2 differences
              + purchase-added com.example.receiptexplorer.coins500 [2000000600000003]
                  B node 246 of layer 0, bytes 1029-1393: "com.example.receiptexplorer.coins500"
              ~ signature-changed signature
                  "256 bytes 4b8e84d5155f27d7…" → "256 bytes bf839a4e2534ed28…"
                  A node 709 of layer 0, bytes 5033-5288
                  B node 804 of layer 0, bytes 5398-5653
            certificates: same (3); signature: different

            structure: 2 differences
              + node-added SEQUENCE > [0][1] > SEQUENCE > SEQUENCE[2] > [0][1] > OCTET STRING > SET > SEQUENCE[11]
                  B node 246 of layer 0, bytes 1029-1393
              ~ content-changed SEQUENCE > [0][1] > SEQUENCE > SET[4] > SEQUENCE > OCTET STRING[4]
                  (256 bytes) 4B8E84D5155F27D76DCFB36D… → (256 bytes) BF839A4E2534ED28BB65B7A7…
                  A node 709 of layer 0, bytes 5029-5288
                  B node 804 of layer 0, bytes 5394-5653

            different

            """)
    }

    @Test
    func exitStatuses() throws {
        #expect(try runCLI(["diff", Self.path("base.receipt"), Self.path("base.receipt")]).status == 0)
        #expect(try runCLI(["diff", Self.path("base.receipt"), Self.path("base-ber.receipt")]).status == 0)
        #expect(try runCLI(["diff", Self.path("base.receipt"), Self.path("history.json")]).status == 0)
        #expect(try runCLI(["diff", Self.path("base.receipt"), Self.path("resigned.receipt")]).status == 1)
        #expect(try runCLI(["diff", Self.path("transaction-a.jws"), Self.path("transaction-b.jws")]).status == 1)
        let missing = try runCLI(["diff", Self.path("base.receipt"), "/nonexistent/x.receipt"])
        #expect(missing.status == 2)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "receipt-explorer: cannot read '/nonexistent/x.receipt': No such file or directory\n")
        #expect(try runCLI(["diff", Self.path("base.receipt")]).status == 2)
        #expect(try runCLI(["diff", "-", "-"]).status == 2)
        #expect(try runCLI(["diff", Self.path("base.receipt"), Self.path("base.receipt"), "--format", "yaml"]).status == 2)
    }

    @Test
    func jsonShape() throws {
        let r = try runCLI(["diff", Self.path("base.receipt"), Self.path("refund.receipt"), "--format", "json"])
        #expect(r.status == 1)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(Set(doc.keys) == ["a", "b", "comparison", "equivalent", "semantic", "structural", "structural_omitted",
                                  "structural_content_changes", "signatures"])
        #expect(doc["comparison"] as? String == "receipts")
        #expect(doc["equivalent"] as? Bool == false)
        #expect((doc["b"] as? [String: Any])?["name"] as? String == "refund.receipt")
        let semantic = try #require(doc["semantic"] as? [[String: Any]])
        #expect(semantic.map { $0["kind"] as? String } == ["refund", "signature-changed"])
        let refund = semantic[0]
        #expect(refund["key"] as? String == "2000000600000002")
        let b = try #require(refund["b"] as? [String: Any])
        #expect(b["layer"] as? Int == 0)
        #expect(b["node"] as? Int == 341)
        #expect(b["file_range"] as? [Int] == [1449, 1843])
        let fields = try #require(refund["fields"] as? [[String: Any]])
        #expect(fields.map { $0["subject"] as? String } == ["cancellation date (in-app 1712)", "cancellation reason (in-app 1720)"])
        #expect((fields[0]["b"] as? [String: Any])?["value"] as? String == "2024-02-28T10:00:00Z")
        let signatures = try #require(doc["signatures"] as? [String: Any])
        #expect(signatures["same_certificates"] as? Bool == true)
        #expect(signatures["same_signature"] as? Bool == false)
        #expect((signatures["certificates_a"] as? [Any])?.count == 3)
    }

    @Test
    func colour() throws {
        let args = ["diff", Self.path("base.receipt"), Self.path("renewal.receipt")]
        let always = try runCLI(args + ["--color", "always"], environment: ["NO_COLOR": nil])
        #expect(always.stdout.contains("\u{1B}[32m+ renewal\u{1B}[0m com.example.receiptexplorer.monthly [2000000610000002]"))
        #expect(always.stdout.hasSuffix("\u{1B}[1;31mdifferent\u{1B}[0m\n"))
        // auto: not a terminal here, and NO_COLOR wins anyway.
        let auto = try runCLI(args, environment: ["NO_COLOR": "1"])
        #expect(!auto.stdout.contains("\u{1B}"))
        #expect(auto.stdout.contains("  + renewal com.example.receiptexplorer.monthly [2000000610000002] — continues subscription chain 2000000610000000\n"))
    }

    /// `--explore` draws on the terminal: it is refused (exit 2, one sentence, nothing on stdout)
    /// with --format json and when stdout is not a terminal (here it is a pipe).
    @Test
    func exploreRefusals() throws {
        let pair = [Self.path("base.receipt"), Self.path("refund.receipt")]
        let json = try runCLI(["diff"] + pair + ["--explore", "--format", "json"])
        #expect(json.status == 2)
        #expect(json.stdout == "")
        #expect(json.stderr == "receipt-explorer: --explore opens the explorer and prints nothing, so it cannot be combined with --format json; drop one of them\n")
        let piped = try runCLI(["diff"] + pair + ["--explore"])
        #expect(piped.status == 2)
        #expect(piped.stdout == "")
        #expect(piped.stderr == "receipt-explorer: --explore needs a terminal on stdin and stdout; drop --explore to print the diff as text (or add --format json)\n")
        let stdin = try runCLI(["diff", "-", Self.path("base.receipt"), "--explore"])
        #expect(stdin.status == 2)
        #expect(stdin.stderr == "receipt-explorer: --explore reads keys from standard input, so it cannot read A or B from it; save the input to a file\n")
    }
}
