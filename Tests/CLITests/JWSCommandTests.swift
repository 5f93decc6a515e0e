import Foundation
import Testing
import TestSupport

/// dump / explain / json on StoreKit 2 JWS: the note line, exit statuses, exact snippets.
@Suite struct JWSCommandTests {
    static func sample(_ name: String) -> String { Paths.samples.appendingPathComponent("jws/" + name).path }

    @Test func dumpTreeOfATransaction() throws {
        let result = try runCLI(["dump", Self.sample("transaction.jws"), "--color", "never"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "# transaction.jws: a compact JWS, 4,556 characters; a StoreKit 2 transaction (JWS, ES256, 3 certificates)")
        #expect(lines[1] == "token StoreKit 2 transaction, 4,556 characters  file bytes 0-4555 (layer 0)")
        #expect(lines[2] == "  header: chars 0-3637 → 2,728 bytes of JSON (layer 1)")
        #expect(lines[3] == "    alg \"ES256\"  chars 1-18, bytes 1-13")
        #expect(lines.contains("      x5c[0] receipt-explorer TEST ECC StoreKit Signing: chars 30-1217, header bytes 23-912 → 667 bytes of DER (layer 4)"))
        #expect(lines.contains("  payload: chars 3639-4468 → 622 bytes of JSON (layer 2) JWSTransactionDecodedPayload"))
        #expect(lines.contains("    transactionId \"2000000510000004\"  chars 3640-3685, bytes 1-34"))
        #expect(lines.contains("    purchaseDate 2024-02-20T12:00:00.000Z (1708430400000)  chars 3973-4010, bytes 251-278"))
        #expect(lines.contains("    price 4990 milliunits = 4.990 USD  chars 4375-4390, bytes 552-563"))
        #expect(lines.contains("  signature: chars 4470-4555 → 64 bytes of signature (layer 3)"))
        #expect(lines.contains("# 1 token, 7 layers; 0 errors, 0 der, 0 warnings, 0 info"))
    }

    @Test func dumpPutsTheSignatureDiagnosticUnderTheSignature() throws {
        let result = try runCLI(["dump", Self.sample("malformed-truncated-signature.jws"), "--color", "never"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("""
              signature: chars 4470-4553 → 63 bytes of signature (layer 3)
                error jws-signature-length bytes 0-62: an ES256 signature is 64 bytes (r‖s), this one is 63
            """))
    }

    @Test func noteLineForEachKind() throws {
        let cases: [(String, String)] = [
            ("notification.jws", "# notification.jws: a compact JWS, 15,852 characters; an App Store Server Notification V2: DID_RENEW (no subtype) (JWS, ES256, 3 certificates), with 2 nested tokens"),
            ("transaction-history.json", "# transaction-history.json: JSON carrying StoreKit tokens, 9,330 bytes; a transaction history response: 2 transactions"),
            ("xcode-transaction.jws", "# xcode-transaction.jws: a compact JWS, 2,001 characters; a StoreKit 2 transaction (JWS, ES256, 1 certificate)"),
        ]
        for (name, note) in cases {
            for command in ["dump", "explain"] {
                let result = try runCLI([command, Self.sample(name), "--color", "never"].filter { command == "dump" || $0 != "--color" && $0 != "never" })
                #expect(result.status == 0, "\(command) \(name)")
                #expect(result.stdout.split(separator: "\n").first.map(String.init) == note, "\(command) \(name)")
            }
        }
    }

    @Test func expectMismatchIsASentenceAndExitOne() throws {
        let result = try runCLI(["dump", Self.sample("renewal-info.jws"), "--expect", "transaction"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "receipt-explorer: this is a renewal info token (JWSRenewalInfoDecodedPayload), not a transaction: a notification's data carries both, signedTransactionInfo (the transaction) and signedRenewalInfo (the renewal info); decode each with its own type\n")
        let receipt = try runCLI(["json", Paths.samples.appendingPathComponent("typical.b64").path, "--expect", "notification"])
        #expect(receipt.status == 1)
        #expect(receipt.stderr.hasPrefix("receipt-explorer: this is a PKCS#7 App Store receipt, not a notification: "))
        let match = try runCLI(["explain", Self.sample("notification.jws"), "--expect", "notification"])
        #expect(match.status == 0)
    }

    @Test func dumpJSONListsTheLayersWithTheirFileRanges() throws {
        let result = try runCLI(["dump", Self.sample("transaction.jws"), "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let layers = try #require(object["layers"] as? [[String: Any]])
        #expect(layers.map { $0["name"] as? String } == ["file", "header", "payload", "signature", "x5c[0]", "x5c[1]", "x5c[2]"])
        #expect(layers[4]["parent"] as? Int == 1)
        #expect(layers[4]["size"] as? Int == 667)
        #expect(layers[4]["file_range"] as? [String: Int] == ["offset": 30, "length": 1188])
    }

    @Test func opensslFormatIsRefusedForJWS() throws {
        let result = try runCLI(["dump", Self.sample("transaction.jws"), "--format", "openssl"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("receipt-explorer: --format openssl prints DER only, and this input is a StoreKit 2 transaction"))
    }

    @Test func jsonSourceRangesAreExact() throws {
        let result = try runCLI(["json", Self.sample("transaction.jws")])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["kind"] as? String == "transaction")
        let token = try #require(object["token"] as? [String: Any])
        let payload = try #require(token["payload"] as? [String: Any])
        #expect(payload["transactionId"] as? String == "2000000510000004")
        #expect((payload["_decoded"] as? [String: Any])?["purchaseDate"] as? String == "2024-02-20T12:00:00.000Z")
        let source = try #require((payload["_source"] as? [String: Any])?["transactionId"] as? [String: Any])
        #expect(source["json_bytes"] as? [String: Int] == ["offset": 1, "length": 34])
        #expect(source["token_characters"] as? [String: Int] == ["offset": 3640, "length": 46])
        let steps = try #require(token["verification"] as? [[String: Any]])
        #expect(steps.first?["id"] as? String == "algorithm")
        #expect(steps.first?["status"] as? String == "passed")
    }

    @Test func jsonNestsTokensInPlaceAndListsHistory() throws {
        let notification = try runCLI(["json", Self.sample("notification.jws"), "--no-validate"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(notification.stdout.utf8)) as? [String: Any])
        let data = try #require(((object["token"] as? [String: Any])?["payload"] as? [String: Any])?["data"] as? [String: Any])
        let nested = try #require(data["signedTransactionInfo"] as? [String: Any])
        #expect(nested["type"] as? String == "JWSTransactionDecodedPayload")
        #expect((nested["payload"] as? [String: Any])?["transactionId"] as? String == "2000000510000004")
        let history = try runCLI(["json", Self.sample("transaction-history.json"), "--no-validate"])
        let h = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])
        let transactions = try #require(h["transactions"] as? [[String: Any]])
        #expect(transactions.map { ($0["payload"] as? [String: Any])?["transactionId"] as? String } == ["2000000510000003", "2000000510000004"])
        #expect((h["body"] as? [String: Any])?["hasMore"] as? Bool == false)
    }

    @Test func explainAnOffsetInThePayload() throws {
        let result = try runCLI(["explain", Self.sample("transaction.jws"), "--offset", "3700"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            # transaction.jws: a compact JWS, 4,556 characters; a StoreKit 2 transaction (JWS, ES256, 3 certificates)
            token, character 3700: in the payload segment (characters 3639-4468)
            base64url: characters 3699-3702 "VHJh" = 6-bit values 21 7 9 33 → payload bytes 45-47: 54 72 61 "Tra"
            JSON member "originalTransactionId" (bytes 36-77): "2000000510000000"
            meaning: 2000000510000000

            """)
    }

    @Test func explainFallsThroughIntoTheCertificateDER() throws {
        let result = try runCLI(["explain", Self.sample("transaction.jws"), "--offset", "100"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("x5c[0] base64 character 52 → DER byte 39 of the certificate (layer 4)\npath: SEQUENCE at 0 (Certificate) > SEQUENCE at 4 (tbsCertificate) > SEQUENCE at 39 (issuer)\n"))
    }

    @Test func legacyTransactionReceiptSaysWhatToUse() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-\(UUID().uuidString).txt")
        try Data("{\n\t\"signature\" = \"AkFb\";\n\t\"purchase-info\" = \"ewoJ\";\n}\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try runCLI(["dump", url.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("an iOS 6 style transaction receipt (SKPaymentTransaction.transactionReceipt, deprecated since iOS 7): not readable here; use the app receipt, or StoreKit 2's Transaction.jwsRepresentation / the App Store Server API"))
    }

    @Test(.enabled(if: Paths.jwsCorpusAvailable))
    func corpusTokensDumpWithoutErrors() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.jws.path).filter { $0.hasSuffix(".jws") }
        #expect(names.count == 12)
        for name in names {
            let result = try runCLI(["dump", Paths.jws.appendingPathComponent(name).path, "--color", "never"])
            #expect(result.status == 0, "\(name): \(result.stdout.suffix(300))")
        }
    }
}
