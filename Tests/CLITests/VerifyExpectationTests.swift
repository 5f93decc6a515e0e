import Foundation
import Testing
import TestSupport
@testable import receipt_explorer

/// `verify`'s expectations for receipts (`--environment` against attribute 0, `--app-apple-id`
/// against attribute 1), the verdict naming a sandbox or Xcode receipt, the expectations applied to
/// a notification's nested tokens, and the status Apple's verifier would return for each failing step.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct VerifyExpectationTests {
    static let typical = ["samples/typical.receipt", "--root", "samples/pki/test-root.cer", "--at", "2024-03-05"]
    static let tokenRoot = ["--root", "samples/pki/test-ec-root.cer"]

    /// The lines of `text` from the first line starting with `from` up to (not including) the first
    /// later line starting with `to` (the end when nil).
    static func lines(_ text: String, from: String, to: String?) -> String? {
        let all = text.components(separatedBy: "\n")
        guard let start = all.firstIndex(where: { $0.hasPrefix(from) }) else { return nil }
        let end = to.flatMap { prefix in all[(start + 1)...].firstIndex { $0.hasPrefix(prefix) } } ?? all.count
        return all[start..<end].joined(separator: "\n")
    }

    static func json(_ arguments: [String]) throws -> (status: Int32, doc: [String: Any], text: String) {
        let r = try Binary.run(["verify", "--format", "json"] + arguments)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        return (r.status, doc, r.stdout)
    }

    static func step(_ report: [String: Any], _ id: String) -> [String: Any]? {
        (report["steps"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    static func nested(_ report: [String: Any], _ path: String) -> [String: Any]? {
        (report["nested"] as? [[String: Any]])?.first { ($0["subject"] as? [String: Any])?["path"] as? String == path }
    }

    // MARK: - receipts: --environment

    /// samples/typical.receipt is a sandbox receipt: attribute 0 is "ProductionSandbox" (samples/README.md).
    @Test("a sandbox receipt with --environment absent, Production, Sandbox, sandbox, Xcode: the step, the verdict, the exit status", arguments: [nil, "Production", "Sandbox", "sandbox", "Xcode"] as [String?])
    func sandboxReceiptEnvironment(expected: String?) throws {
        let r = try Binary.run(["verify"] + Self.typical + (expected.map { ["--environment", $0] } ?? []))
        #expect(r.stderr.isEmpty)
        let step: String
        let verdict: String
        switch expected {
        case nil:
            step = "  – Environment: not checked — no expected environment given (--environment)"
            verdict = """
                Verdict: VALID (sandbox receipt) — valid, anchored at a root you supplied
                  • the chain ends at receipt-explorer TEST Root CA (supplied with --root), not at an Apple root: not an App Store receipt

                """
        case "Sandbox"?, "sandbox"?:
            step = """
                  ✓ Environment
                      receipt: "ProductionSandbox" (Sandbox)
                      expected: \(expected!)
                """
            verdict = """
                Verdict: VALID (sandbox receipt) — valid, anchored at a root you supplied
                  • the chain ends at receipt-explorer TEST Root CA (supplied with --root), not at an Apple root: not an App Store receipt

                """
        default:
            let wrong = expected!
            step = """
                  ✗ Environment: the receipt type (attribute 0) is "ProductionSandbox", a sandbox receipt, not \(wrong)
                      Apple's AppReceiptVerifier would return INVALID_ENVIRONMENT
                      receipt: "ProductionSandbox" (Sandbox)
                      expected: \(wrong)
                """
            verdict = """
                Verdict: INVALID (sandbox receipt)
                  • Environment: the receipt type (attribute 0) is "ProductionSandbox", a sandbox receipt, not \(wrong)

                """
        }
        #expect(Self.lines(r.stdout, from: "  ✓ Environment", to: "  – App Apple ID")
                ?? Self.lines(r.stdout, from: "  ✗ Environment", to: "  – App Apple ID")
                ?? Self.lines(r.stdout, from: "  – Environment", to: "  – App Apple ID") == step)
        #expect(Self.lines(r.stdout, from: "Verdict:", to: nil) == verdict)
        let valid = expected == nil || expected?.lowercased() == "sandbox"
        #expect(r.status == (valid ? 0 : 1))
        let quiet = try Binary.run(["verify", "--quiet"] + Self.typical + (expected.map { ["--environment", $0] } ?? []))
        // --quiet: the verdict with its first failing reason on one line.
        let quietLine = valid ? String(verdict.components(separatedBy: "\n")[0].dropFirst("Verdict: ".count))
            : "INVALID (sandbox receipt): Environment: the receipt type (attribute 0) is \"ProductionSandbox\", a sandbox receipt, not \(expected!)"
        #expect(quiet.stdout == quietLine + "\n")
        #expect(quiet.status == r.status)
    }

    @Test("the environment step in JSON: attribute 0's bytes, the reason code, Apple's status; the subject names the environment")
    func sandboxReceiptEnvironmentJSON() throws {
        let wrong = try Self.json(Self.typical + ["--environment", "Production"])
        #expect(wrong.status == 1)
        // Attribute 0's value (the UTF8String TLV) is at offset 182, 19 bytes (samples/manifest.json).
        #expect(VerifyJSONTests.stepBlock(wrong.text, id: "environment") == #"""
                {
                  "apple_status": "INVALID_ENVIRONMENT",
                  "certificates": [],
                  "decides": true,
                  "details": [
                    "receipt: \"ProductionSandbox\" (Sandbox)",
                    "expected: Production"
                  ],
                  "id": "environment",
                  "message": "failed — the receipt type (attribute 0) is \"ProductionSandbox\", a sandbox receipt, not Production",
                  "ranges": [
                    {
                      "length": 19,
                      "offset": 182,
                      "what": "attribute 0 value"
                    }
                  ],
                  "reason": "the receipt type (attribute 0) is \"ProductionSandbox\", a sandbox receipt, not Production",
                  "reason_code": "environment-mismatch",
                  "status": "failed",
                  "subject": {
                    "envelope": "pkcs7",
                    "part": "signed-data"
                  },
                  "title": "Environment"
                }
            """#)
        #expect((wrong.doc["subject"] as? [String: Any])?["environment"] as? String == "Sandbox")
        let verdict = try #require(wrong.doc["verdict"] as? [String: Any])
        #expect(verdict["valid"] as? Bool == false)
        #expect((verdict["reasons"] as? [[String: Any]])?.map { $0["code"] as? String } == ["environment-mismatch"])

        let none = try Self.json(Self.typical)
        #expect(none.status == 0)
        #expect(VerifyJSONTests.stepBlock(none.text, id: "environment") == #"""
                {
                  "certificates": [],
                  "decides": true,
                  "details": [],
                  "id": "environment",
                  "message": "not checked — no expected environment given (--environment)",
                  "ranges": [
                    {
                      "length": 19,
                      "offset": 182,
                      "what": "attribute 0 value"
                    }
                  ],
                  "reason": "no expected environment given (--environment)",
                  "reason_code": "not-given",
                  "status": "not-checked",
                  "subject": {
                    "envelope": "pkcs7",
                    "part": "signed-data"
                  },
                  "title": "Environment"
                }
            """#)
        let right = try Self.json(Self.typical + ["--environment", "Sandbox"])
        #expect(right.status == 0)
        #expect(Self.step(right.doc, "environment")?["status"] as? String == "passed")
        #expect(Self.step(right.doc, "environment")?["apple_status"] == nil)
    }

    @Test("the verdict line names an Xcode receipt, and says nothing more of a production one")
    func verdictNamesEnvironment() throws {
        // The sample's TEST StoreKit certificate is not Xcode's, so its signer fails; the verdict still names it.
        let xcode = try Binary.run(["verify", "--quiet", "samples/xcode-ber.receipt", "--root", "samples/pki/test-storekit.cer"])
        #expect(xcode.stdout == "INVALID (Xcode receipt): Receipt signing certificate: the signer certificate (receipt-explorer TEST StoreKit Testing) lacks the Apple receipt-signing extension 1.2.840.113635.100.6.11.1: this is not an App Store receipt\n")
        #expect(xcode.status == 1)
        let production = try Binary.run(["verify", "--quiet", "samples/minimal.receipt", "--root", "samples/pki/test-root.cer"])
        #expect(production.stdout == "VALID — valid, anchored at a root you supplied\n")
        let asSandbox = try Binary.run(["verify", "--quiet", "samples/minimal.receipt", "--root", "samples/pki/test-root.cer",
                                        "--environment", "Sandbox"])
        #expect(asSandbox.stdout == "INVALID: Environment: the receipt type (attribute 0) is \"Production\", a production receipt, not Sandbox\n")
        #expect(asSandbox.status == 1)
        let xcodeAsProduction = try Self.json(["samples/xcode-ber.receipt", "--root", "samples/pki/test-storekit.cer",
                                               "--environment", "Production"])
        #expect(xcodeAsProduction.status == 1)
        #expect(Self.step(xcodeAsProduction.doc, "environment")?["reason"] as? String
                == "the receipt type (attribute 0) is \"Xcode\", an Xcode receipt, not Production")
    }

    @Test("a real Xcode receipt accepted for local testing: the verdict names it", .enabled(if: Paths.corpusAvailable))
    func corpusXcodeVerdict() throws {
        // MANIFEST.md: env (attr 0) Xcode, signed by the StoreKit Testing certificate (certs/StoreKitTestCertificate.cer).
        let file = Paths.receipts.appendingPathComponent("xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt").path
        let root = Paths.certs.appendingPathComponent("StoreKitTestCertificate.cer").path
        let r = try Binary.run(["verify", "--quiet", file, "--root", root])
        #expect(r.stdout == "VALID (Xcode receipt) — valid for local testing only\n")
        #expect(r.status == 0)
        let production = try Binary.run(["verify", "--quiet", file, "--root", root, "--environment", "Production"])
        #expect(production.stdout == "INVALID (Xcode receipt): Environment: the receipt type (attribute 0) is \"Xcode\", an Xcode receipt, not Production\n")
        #expect(production.status == 1)
    }

    @Test("json applies --environment to a receipt's validation and a token's verification, as verify does")
    func jsonTakesTheExpectations() throws {
        let receipt = try Binary.run(["json", "samples/typical.receipt", "--root", "samples/pki/test-root.cer", "--environment", "production"])
        let receiptDoc = try #require(try JSONSerialization.jsonObject(with: Data(receipt.stdout.utf8)) as? [String: Any])
        let step = (receiptDoc["validation"] as? [[String: Any]])?.first { $0["id"] as? String == "environment" }
        #expect(step?["reason"] as? String == "the receipt type (attribute 0) is \"ProductionSandbox\", a sandbox receipt, not production")
        let token = try Binary.run(["json", "samples/jws/transaction.jws"] + Self.tokenRoot + ["--environment", "Production"])
        let tokenDoc = try #require(try JSONSerialization.jsonObject(with: Data(token.stdout.utf8)) as? [String: Any])
        let verification = (tokenDoc["token"] as? [String: Any])?["verification"] as? [[String: Any]]
        #expect(verification?.first { $0["id"] as? String == "environment" }?["reason"] as? String
                == "expected Production, the payload says Sandbox")
    }

    @Test("--environment that names no environment is a usage error (exit 2), for receipts and tokens alike")
    func unknownEnvironmentRefused() throws {
        for file in ["samples/typical.receipt", "samples/jws/transaction.jws"] {
            let r = try Binary.run(["verify", file, "--environment", "Prodution"])
            #expect(r.status == 2)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "receipt-explorer: --environment: 'Prodution' is not an environment (Production, Sandbox, Xcode or LocalTesting)\n")
        }
        let json = try Binary.run(["json", "samples/typical.receipt", "--environment", "ProductionSandbox"])
        #expect(json.status == 2)
        #expect(json.stderr == "receipt-explorer: --environment: 'ProductionSandbox' is not an environment (Production, Sandbox, Xcode or LocalTesting)\n")
    }

    // MARK: - receipts: --app-apple-id

    @Test("--app-apple-id against attribute 1: right, wrong, absent, and 0 in an Xcode receipt")
    func receiptAppAppleID() throws {
        // typical.receipt's attribute 1 is 1450000001 (samples/manifest.json).
        let right = try Binary.run(["verify"] + Self.typical + ["--app-apple-id", "1450000001"])
        #expect(right.status == 0)
        #expect(Self.lines(right.stdout, from: "  ✓ App Apple ID", to: "  ✓ Expiration") == """
              ✓ App Apple ID
                  receipt: 1450000001
                  expected: 1450000001
            """)
        let wrong = try Binary.run(["verify"] + Self.typical + ["--app-apple-id", "5"])
        #expect(wrong.status == 1)
        #expect(Self.lines(wrong.stdout, from: "  ✗ App Apple ID", to: "  ✓ Expiration") == """
              ✗ App Apple ID: the receipt's app item id (attribute 1) is 1450000001, not 5
                  Apple's AppReceiptVerifier would return INVALID_APP_IDENTIFIER
                  receipt: 1450000001
                  expected: 5
            """)
        #expect(Self.lines(wrong.stdout, from: "Verdict:", to: nil) == """
            Verdict: INVALID (sandbox receipt)
              • App Apple ID: the receipt's app item id (attribute 1) is 1450000001, not 5

            """)
        // minimal.receipt has no attribute 1 (samples/manifest.json: app_item_id null).
        let absent = try Self.json(["samples/minimal.receipt", "--root", "samples/pki/test-root.cer", "--app-apple-id", "5"])
        #expect(absent.status == 1)
        #expect(Self.step(absent.doc, "app-apple-id")?["reason"] as? String == "the receipt has no app item id (attribute 1)")
        #expect(Self.step(absent.doc, "app-apple-id")?["reason_code"] as? String == "attribute-missing")
        // xcode-ber.receipt's attribute 1 is 0, as in every Xcode receipt.
        let xcode = try Self.json(["samples/xcode-ber.receipt", "--root", "samples/pki/test-storekit.cer", "--app-apple-id", "1450000001"])
        #expect(xcode.status == 1)
        let step = try #require(Self.step(xcode.doc, "app-apple-id"))
        #expect(step["reason"] as? String
                == "the receipt's app item id (attribute 1) is 0, not 1450000001: it is 0 in every Xcode receipt; only production receipts carry the app's Apple ID")
        #expect(step["reason_code"] as? String == "app-item-id-mismatch")
        #expect(step["apple_status"] as? String == "INVALID_APP_IDENTIFIER")
        #expect(step["details"] as? [String] == ["receipt: 0", "expected: 1450000001"])
    }

    @Test("a real sandbox receipt: attribute 1 is 0 and the failing step says why; --environment Production fails",
          .enabled(if: Paths.corpusAvailable))
    func corpusSandboxReceipt() throws {
        // MANIFEST.md: env (attr 0) ProductionSandbox, bundle id com.hannesoid.PurchasingExperiments.
        let file = Paths.receipts.appendingPathComponent("sandbox-com.hannesoid.PurchasingExperiments-2023-02-22-2iap.receipt").path
        let r = try Self.json([file, "--app-apple-id", "1234", "--environment", "Production",
                               "--bundle-id", "com.hannesoid.PurchasingExperiments"])
        #expect(r.status == 1)
        #expect(Self.step(r.doc, "app-apple-id")?["reason"] as? String
                == "the receipt's app item id (attribute 1) is 0, not 1234: it is 0 in every sandbox receipt; only production receipts carry the app's Apple ID")
        #expect(Self.step(r.doc, "environment")?["reason"] as? String
                == "the receipt type (attribute 0) is \"ProductionSandbox\", a sandbox receipt, not Production")
        #expect(Self.step(r.doc, "bundle-id")?["status"] as? String == "passed")
        // Signed by Apple and valid at its creation date: only the expectations fail.
        let quiet = try Binary.run(["verify", "--quiet", file, "--environment", "sandbox"])
        #expect(quiet.stdout == "VALID (sandbox receipt) — valid App Store receipt\n")
        #expect(quiet.status == 0)
    }

    // MARK: - a notification's nested tokens

    @Test("the expectations reach a notification's nested tokens; a claim a kind never carries is not checked, with that reason")
    func nestedExpectations() throws {
        let all = ["samples/jws/notification.jws"] + Self.tokenRoot
            + ["--bundle-id", "com.example.receiptexplorer", "--environment", "Sandbox", "--app-apple-id", "1450000001"]
        let (status, doc, _) = try Self.json(all)
        #expect(status == 0)
        let transaction = try #require(Self.nested(doc, "data.signedTransactionInfo"))
        let renewal = try #require(Self.nested(doc, "data.signedRenewalInfo"))
        #expect(Self.step(transaction, "bundle-id")?["status"] as? String == "passed")
        #expect(Self.step(transaction, "environment")?["status"] as? String == "passed")
        #expect(Self.step(transaction, "app-apple-id")?["status"] as? String == "not-checked")
        #expect(Self.step(transaction, "app-apple-id")?["reason_code"] as? String == "claim-not-in-kind")
        #expect(Self.step(transaction, "app-apple-id")?["reason"] as? String
                == "a transaction has no appAppleId field (Apple's verifier does not check it either)")
        #expect(Self.step(renewal, "bundle-id")?["reason"] as? String
                == "a renewal info has no bundleId field (Apple's verifier does not check it either)")
        #expect(Self.step(renewal, "environment")?["status"] as? String == "passed")

        // A wrong bundle id fails the notification and its transaction, each with Apple's status.
        let wrong = try Binary.run(["verify"] + ["samples/jws/notification.jws"] + Self.tokenRoot + ["--bundle-id", "com.example.other"])
        #expect(wrong.status == 1)
        #expect(Self.lines(wrong.stdout, from: "Nested data.signedTransactionInfo", to: nil)?.contains("""
                ✗ Bundle identifier: expected com.example.other, the payload says com.example.receiptexplorer
                    Apple's SignedDataVerifier would return INVALID_APP_IDENTIFIER
                    payload bundleId: offset 
            """) == true)
        #expect(!wrong.stdout.contains("not checked — no expected value was given\n    – Environment"))
        #expect(Self.lines(wrong.stdout, from: "Verdict:", to: nil) == """
            Verdict: INVALID
              • Bundle identifier: expected com.example.other, the payload says com.example.receiptexplorer
              • data.signedTransactionInfo is invalid: Bundle identifier: expected com.example.other, the payload says com.example.receiptexplorer
              • Revocation (OCSP): asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here

            """)
    }

    @Test("a real DID_RENEW notification: the nested tokens meet its bundle id, environment and app Apple ID",
          .enabled(if: Paths.jwsCorpusAvailable))
    func corpusNotificationNested() throws {
        // MANIFEST.md: data.bundleId com.loki-project.loki-messenger, data.environment Sandbox,
        // data.appAppleId 1470168868; both nested tokens Sandbox, the transaction's bundleId the same.
        let file = Paths.jws.appendingPathComponent("notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws").path
        let (status, doc, _) = try Self.json([file, "--bundle-id", "com.loki-project.loki-messenger", "--environment", "Sandbox",
                                              "--app-apple-id", "1470168868"])
        #expect(status == 0)
        for id in ["bundle-id", "environment", "app-apple-id"] { #expect(Self.step(doc, id)?["status"] as? String == "passed", "\(id)") }
        let transaction = try #require(Self.nested(doc, "data.signedTransactionInfo"))
        let renewal = try #require(Self.nested(doc, "data.signedRenewalInfo"))
        #expect(Self.step(transaction, "bundle-id")?["status"] as? String == "passed")
        #expect(Self.step(transaction, "environment")?["status"] as? String == "passed")
        #expect(Self.step(renewal, "environment")?["status"] as? String == "passed")

        let production = try Self.json([file, "--environment", "Production"])
        #expect(production.status == 1)
        for report in [production.doc, try #require(Self.nested(production.doc, "data.signedTransactionInfo")),
                       try #require(Self.nested(production.doc, "data.signedRenewalInfo"))] {
            let step = try #require(Self.step(report, "environment"))
            #expect(step["reason"] as? String == "expected Production, the payload says Sandbox")
            #expect(step["apple_status"] as? String == "INVALID_ENVIRONMENT")
        }
    }

    // MARK: - Apple's status names for tokens

    @Test("a tampered token: VERIFICATION_FAILURE on the signature step, in text and JSON")
    func tamperedStatus() throws {
        let (status, doc, _) = try Self.json(["samples/jws/malformed-tampered-payload.jws"] + Self.tokenRoot)
        #expect(status == 1)
        let signature = try #require(Self.step(doc, "signature"))
        #expect(signature["status"] as? String == "failed")
        #expect(signature["apple_status"] as? String == "VERIFICATION_FAILURE")
        // Steps that passed or were not checked carry no status.
        #expect((doc["steps"] as? [[String: Any]])?.filter { $0["apple_status"] != nil }.map { $0["id"] as? String } == ["signature"])
        let text = try Binary.run(["verify", "samples/jws/malformed-tampered-payload.jws"] + Self.tokenRoot)
        #expect(text.stdout.contains("""
              ✗ ES256 signature: the signature does not match header.payload under x5c[0]'s key: the token was altered or signed by another key
                  Apple's SignedDataVerifier would return VERIFICATION_FAILURE

            """))
    }

    @Test("a wrong bundle id is INVALID_APP_IDENTIFIER, a wrong environment INVALID_ENVIRONMENT")
    func claimStatuses() throws {
        let (status, doc, _) = try Self.json(["samples/jws/transaction.jws"] + Self.tokenRoot
                                             + ["--bundle-id", "com.example.other", "--environment", "Production"])
        #expect(status == 1)
        #expect(Self.step(doc, "bundle-id")?["apple_status"] as? String == "INVALID_APP_IDENTIFIER")
        #expect(Self.step(doc, "environment")?["apple_status"] as? String == "INVALID_ENVIRONMENT")
        #expect(Self.step(doc, "environment")?["reason"] as? String == "expected Production, the payload says Sandbox")
    }

    /// samples/jws/transaction.jws with its header's x5c cut to two certificates (leaf, intermediate).
    static func twoCertificateToken() throws -> URL {
        let text = String(decoding: try Paths.sample("jws/transaction.jws"), as: UTF8.self)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        func decode(_ s: String) throws -> Data {
            var b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while b.count % 4 != 0 { b += "=" }
            return try #require(Data(base64Encoded: b))
        }
        var header = try #require(try JSONSerialization.jsonObject(with: decode(parts[0])) as? [String: Any])
        let x5c = try #require(header["x5c"] as? [String])
        #expect(x5c.count == 3)
        header["x5c"] = Array(x5c.prefix(2))
        let encoded = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("two-certificates-\(UUID().uuidString).jws")
        try Data(([encoded] + parts.dropFirst()).joined(separator: ".").utf8).write(to: url)
        return url
    }

    @Test("an x5c of two certificates: INVALID_CHAIN_LENGTH on the chain step")
    func chainLengthStatus() throws {
        let url = try Self.twoCertificateToken()
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, doc, _) = try Self.json([url.path] + Self.tokenRoot)
        #expect(status == 1)
        let chain = try #require(Self.step(doc, "chain"))
        #expect(chain["reason_code"] as? String == "certificate-count")
        #expect(chain["apple_status"] as? String == "INVALID_CHAIN_LENGTH")
    }

    @Test("a root that is not Apple's is named by its subject, not only by its SHA-256")
    func rootNamedBySubject() throws {
        let reason = "the chain ends at CN=receipt-explorer TEST ECC Root CA,OU=TEST ONLY - not Apple,O=receipt-explorer TEST,C=US (SHA-256 AD4665FF642C8300A9B8BA3182D5E4B163481A9B0AF9EEB139E12EC04FAB5721), which is neither Apple Root CA - G3 (SHA-256 63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179) nor a supplied root"
        let (status, doc, _) = try Self.json(["samples/jws/transaction.jws"])
        #expect(status == 1)
        let root = try #require(Self.step(doc, "root"))
        #expect(root["reason"] as? String == reason)
        #expect(root["reason_code"] as? String == "root-not-pinned")
        #expect(root["apple_status"] as? String == "VERIFICATION_FAILURE")
        let text = try Binary.run(["verify", "samples/jws/transaction.jws"])
        #expect(text.stdout.contains("  ✗ Trust anchor (root): \(reason)\n      Apple's SignedDataVerifier would return VERIFICATION_FAILURE\n"))
        // A receipt's chain step names the untrusted root by subject and SHA-256 as well.
        let receipt = try Self.json(["samples/typical.receipt"])
        let chain = try #require(Self.step(receipt.doc, "chain"))
        #expect(chain["apple_status"] as? String == "VERIFICATION_FAILURE")
        #expect((chain["details"] as? [String])?.first
                == "the receipt embeds the self-signed certificate CN=receipt-explorer TEST Root CA,OU=TEST ONLY - not Apple,O=receipt-explorer TEST,C=US (SHA-256 52A0AC391EAFC59500998EDEC191AFA71261DF0057EA8D265B8E6CA4D5E38848); it is not a pinned root and was not supplied as a root, so it is not trusted")
    }

    // MARK: - fields and values not in the schema

    @Test("a transaction with a field and a value the schema lacks: kept, shown, flagged at info severity; exit 0")
    func notInSchemaFindings() throws {
        // samples/jws/transaction.jws with "cadenceType" (a made-up field) added and transactionReason "WINBACK": the
        // payload is re-encoded (the signature no longer matches; decoding does not care).
        let text = String(decoding: try Paths.sample("jws/transaction.jws"), as: UTF8.self)
        var parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var b = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while b.count % 4 != 0 { b += "=" }
        var json = String(decoding: try #require(Data(base64Encoded: b)), as: UTF8.self)
        #expect(json.contains(#""transactionReason":"RENEWAL""#))
        json = json.replacingOccurrences(of: #""transactionReason":"RENEWAL""#, with: #""transactionReason":"WINBACK""#)
        json = String(json.dropLast()) + #","cadenceType":"MONTHLY"}"#
        parts[1] = Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("not-in-schema-\(UUID().uuidString).jws")
        try Data(parts.joined(separator: ".").utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        // Offsets in the payload JSON, found here independently: the quoted value and the quoted key.
        let bytes = Array(json.utf8)
        func offset(_ needle: String) -> Int? {
            let n = Array(needle.utf8)
            return (0...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }
        }
        let value = try #require(offset(#""WINBACK""#))
        let key = try #require(offset(#""cadenceType""#))
        let dump = try Binary.run(["dump", url.path])
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("info jws-field-unknown-value bytes \(value)-\(value + 8): transactionReason = WINBACK is not a known transactionReason value: not in this tool's schema (Apple may have added it after 2026-04-27)\n"))
        #expect(dump.stdout.contains("info jws-field-not-in-schema bytes \(key)-\(key + 12): cadenceType is not in this tool's schema (Apple may have added it after 2026-04-27)\n"))
        let out = try Binary.run(["json", url.path])
        #expect(out.status == 0)
        #expect(out.stdout.contains(#""cadenceType": "MONTHLY","#))  // kept as written
    }

    // MARK: - a mistyped subcommand

    @Test("'receipt-explorer verfy FILE' suggests verify and exits 2, printing nothing on stdout")
    func mistypedSubcommand() throws {
        for (typed, meant) in [("verfy", "verify"), ("Verify", "verify"), ("jsno", "json"), ("dupm", "dump"), ("explian", "explain")] {
            let r = try Binary.run([typed, "samples/typical.receipt"])
            #expect(r.status == 2, "\(typed)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "receipt-explorer: '\(typed)' is neither a file nor a subcommand; did you mean '\(meant)'? (receipt-explorer \(meant) --help)\n")
        }
    }
}

/// The suggestion itself, with the file system out of the way.
@Suite struct SubcommandSuggestionTests {
    static let names = ["explore", "dump", "explain", "json", "verify", "diff", "tour"]

    @Test func suggestsOnlyForNearMissesThatAreNoFile() {
        #expect(SubcommandSuggestion.complaint(arguments: ["verfy"], subcommands: Self.names, fileExists: { _ in false })
                == "'verfy' is neither a file nor a subcommand; did you mean 'verify'? (receipt-explorer verify --help)")
        // A file of that name is explored, as before.
        #expect(SubcommandSuggestion.complaint(arguments: ["verfy"], subcommands: Self.names, fileExists: { _ in true }) == nil)
        for word in ["verify", "help", "--help", "-", "receipt.der", "xyzzy"] {
            #expect(SubcommandSuggestion.complaint(arguments: [word, "x"], subcommands: Self.names, fileExists: { _ in false }) == nil, "\(word)")
        }
        #expect(SubcommandSuggestion.complaint(arguments: [], subcommands: Self.names) == nil)
    }

    @Test func editDistance() {
        #expect(SubcommandSuggestion.distance("verfy", "verify") == 1)
        #expect(SubcommandSuggestion.distance("jsno", "json") == 2)
        #expect(SubcommandSuggestion.distance("", "tour") == 4)
        #expect(SubcommandSuggestion.distance("diff", "diff") == 0)
    }
}

/// `--format json` reaches ArgumentParser as `--format=json` (the same option to it, without its
/// reflection of the `json` command); nothing else is rewritten.
@Suite struct ArgumentSpellingTests {
    static let names: Set<String> = ["explore", "dump", "explain", "json", "verify", "diff", "tour"]

    @Test func joinsOnlyAFormatValueNamedLikeACommand() {
        #expect(ArgumentSpelling.joiningFormatValues(["verify", "--format", "json", "a.jws"], commands: Self.names)
                == ["verify", "--format=json", "a.jws"])
        #expect(ArgumentSpelling.joiningFormatValues(["dump", "--format", "openssl", "x"], commands: Self.names)
                == ["dump", "--format", "openssl", "x"])
        #expect(ArgumentSpelling.joiningFormatValues(["verify", "--quiet", "json"], commands: Self.names)
                == ["verify", "--quiet", "json"])
        #expect(ArgumentSpelling.joiningFormatValues(["dump", "--", "--format", "json"], commands: Self.names)
                == ["dump", "--", "--format", "json"])
        #expect(ArgumentSpelling.joiningFormatValues(["verify", "--format"], commands: Self.names) == ["verify", "--format"])
    }

    @Test func bothSpellingsGiveTheSameReport() throws {
        let file = Paths.samples.appendingPathComponent("jws/notification.jws").path
        let root = Paths.samples.appendingPathComponent("pki/test-ec-root.cer").path
        let apart = try runCLI(["verify", "--format", "json", "--at", "2024-03-01T12:00:00Z", file, "--root", root])
        let joined = try runCLI(["verify", "--format=json", "--at", "2024-03-01T12:00:00Z", file, "--root", root])
        #expect(apart.status == joined.status && apart.stderr == joined.stderr)
        // The moments the two processes ran ("now", "judged_at") differ; everything else must not.
        let mask = { (s: String) in s.replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/#, with: "T") }
        #expect(mask(apart.stdout) == mask(joined.stdout) && apart.stdout.hasPrefix("{"))
    }
}
