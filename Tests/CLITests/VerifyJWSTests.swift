import Foundation
import Testing
import TestSupport

/// `verify` on StoreKit 2 input end to end: samples/jws against samples/manifest.json's
/// `jws_samples`, and the real tokens of ../shared/corpus/jws (facts in its MANIFEST.md).
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built")) struct VerifyJWSTests {
    // Written once by the lazy initializer (which Swift runs exactly once) and only read after.
    nonisolated(unsafe) static let manifest: [[String: Any]] = {
        guard let data = try? Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object["jws_samples"] as? [[String: Any]] ?? []
    }()
    static var sampleFiles: [String] { manifest.compactMap { $0["file"] as? String } }

    /// The manifest is committed: a missing or unreadable one would turn `manifestSample` into zero
    /// cases that pass, so this fails instead, and every samples/jws file must be listed.
    @Test func manifestListsEverySampleJWSFile() throws {
        let listed = Set(Self.sampleFiles)
        let directory = Paths.samples.appendingPathComponent("jws")
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).map { "jws/" + $0 })
        #expect(listed.count == 19)
        #expect(listed == onDisk)
    }

    static func report(_ arguments: [String]) throws -> (status: Int32, json: [String: Any]) {
        let r = try Binary.run(["verify", "--format", "json"] + arguments)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(arguments): \(r.stderr)")
        return (r.status, json)
    }

    /// The token reports the manifest's steps apply to: the report itself, or for a history
    /// (no steps of its own) each of its tokens.
    static func tokenReports(_ doc: [String: Any]) -> [[String: Any]] {
        (doc["steps"] as? [Any])?.isEmpty == true ? (doc["nested"] as? [[String: Any]] ?? []) : [doc]
    }

    static func steps(_ report: [String: Any]) -> [[String: Any]] { report["steps"] as? [[String: Any]] ?? [] }

    @Test("every samples/jws file: exit status, each step's status and the failing step's reason code from the manifest", arguments: sampleFiles)
    func manifestSample(file: String) throws {
        let entry = try #require(Self.manifest.first { $0["file"] as? String == file })
        let verification = try #require(entry["verification"] as? [String: Any])
        let root = try #require(verification["root"] as? String)
        // The manifest's steps were judged with the token's own claims as the expectations.
        var expectations: [String] = []
        let claims = entry["claims"] as? [String: Any] ?? [:]
        if let id = claims["bundleId"] as? String { expectations += ["--bundle-id", id] }
        if let environment = claims["environment"] as? String { expectations += ["--environment", environment] }
        if let appID = claims["appAppleId"] as? Int {
            expectations += ["--app-apple-id", String(appID)]
        }
        let (status, doc) = try Self.report(["samples/" + file, "--root", root] + expectations)
        #expect(status == (verification["verdict"] as? String == "valid" ? 0 : 1))
        let reports = Self.tokenReports(doc)
        #expect(!reports.isEmpty)
        let expected = try #require(verification["steps"] as? [String: String])
        for report in reports {
            let got = Dictionary(uniqueKeysWithValues: Self.steps(report).compactMap { step -> (String, String)? in
                guard let id = step["id"] as? String, id != "nested-consistency" else { return nil }
                return (id, step["status"] as? String ?? "")
            })
            // The manifest gives the verifier's statuses; a step that does not decide and did not pass
            // is shown for information (the one verdict rule): revocation, today beside a signedDate.
            let informational = Set(Self.steps(report).filter { $0["decides"] as? Bool == false }.compactMap { $0["id"] as? String })
            let settled = Dictionary(uniqueKeysWithValues: expected.map { id, status in
                (id, informational.contains(id) && status != "passed" ? "info" : status)
            })
            #expect(got == settled, "\(file)")
            #expect(informational.contains("revocation"))
            let firstFailure = Self.steps(report).first { $0["status"] as? String == "failed" && $0["decides"] as? Bool == true }
            #expect(firstFailure?["id"] as? String == verification["failing_step"] as? String, "\(file)")
            #expect(firstFailure?["reason_code"] as? String == verification["reason"] as? String, "\(file)")
        }
        // Without the test root nothing of ours is trusted: the root step names the pin.
        if let without = verification["without_root"] as? [String: String] {
            let (bare, plain) = try Self.report(["samples/" + file])
            #expect(bare == 1)
            for report in Self.tokenReports(plain) {
                let rootStep = Self.steps(report).first { $0["id"] as? String == "root" }
                #expect(rootStep?["status"] as? String == without["root"], "\(file)")
                #expect(rootStep?["reason_code"] as? String == without["reason"], "\(file)")
            }
        }
    }

    @Test("a notification verifies itself, each nested token on its own, and the consistency step")
    func notificationNested() throws {
        let (status, doc) = try Self.report(["samples/jws/notification.jws", "--root", "samples/pki/test-ec-root.cer",
                                             "--bundle-id", "com.example.receiptexplorer", "--environment", "sandbox",
                                             "--app-apple-id", "1450000001"])
        #expect(status == 0)
        let nested = try #require(doc["nested"] as? [[String: Any]])
        #expect(nested.compactMap { ($0["subject"] as? [String: Any])?["path"] as? String }
                == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
        #expect(nested.map { ($0["verdict"] as? [String: Any])?["valid"] as? Bool } == [true, true])
        let consistency = Self.steps(doc).first { $0["id"] as? String == "nested-consistency" }
        #expect(consistency?["status"] as? String == "passed")
        // The consistency step points at both nested tokens' characters inside the notification.
        #expect((consistency?["ranges"] as? [[String: Any]])?.compactMap { $0["what"] as? String }
                == ["data.signedTransactionInfo", "data.signedRenewalInfo"])
        for id in ["bundle-id", "environment", "app-apple-id"] {
            #expect(Self.steps(doc).first { $0["id"] as? String == id }?["status"] as? String == "passed", "\(id)")
        }
        let wrong = try Self.report(["samples/jws/notification.jws", "--root", "samples/pki/test-ec-root.cer", "--environment", "Production"])
        #expect(wrong.status == 1)
        let env = Self.steps(wrong.json).first { $0["id"] as? String == "environment" }
        #expect(env?["reason"] as? String == "expected Production, the payload says Sandbox")
        #expect(env?["reason_code"] as? String == "claim-mismatch")
    }


    @Test("Apple-signed corpus tokens verify to Apple Root CA - G3 at their signedDate; --at moves only today's check",
          .enabled(if: Paths.jwsCorpusAvailable), arguments: CorpusTokens.appleSigned)
    func appleSignedCorpus(name: String) throws {
        let (status, doc) = try Self.report(["../shared/corpus/jws/" + name])
        #expect(status == 0)
        let verdict = try #require(doc["verdict"] as? [String: Any])
        #expect(verdict["outcome"] as? String == "apple-signed")
        #expect(verdict["summary"] as? String == "signed by Apple")
        let root = try #require((doc["certificates"] as? [[String: Any]])?.last)
        #expect(root["sha256"] as? String == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
        #expect(root["anchor"] as? String == "Apple Root CA - G3")
        // Judged at signedDate: the step's moment is the payload's, whatever --at says (--at replaces
        // today, which is information beside a signedDate).
        let signed = (doc["dates"] as? [String: Any])?["signed"] as? String
        let timeStep = Self.steps(doc).first { $0["id"] as? String == "time-signed-date" }
        #expect(timeStep?["status"] as? String == "passed")
        #expect(timeStep?["judged_at"] as? String == signed)
        let moved = try Self.report(["../shared/corpus/jws/" + name, "--at", "2000-01-01"])
        #expect(moved.status == 0)
        let others = { (report: [String: Any]) in Self.steps(report).filter { $0["id"] as? String != "time-today" }.map { $0["status"] as? String } }
        #expect(others(moved.json) == others(doc))
        let today = Self.steps(moved.json).filter { $0["id"] as? String == "time-today" }
        // Apple's certificates were not yet valid in 2000: information, never a failure beside VALID.
        #expect(!today.isEmpty && today.allSatisfy { $0["status"] as? String == "info" && $0["judged_at"] as? String == "2000-01-01T00:00:00.000Z" })
        #expect(today.allSatisfy { $0["title"] as? String == "Validity at 2000-01-01 00:00:00 UTC" })
        #expect((moved.json["dates"] as? [String: Any])?["at"] as? String == "2000-01-01T00:00:00.000Z")
    }

    @Test("the DID_RENEW notification's signedDate, as MANIFEST.md gives it", .enabled(if: Paths.jwsCorpusAvailable))
    func signedDateExact() throws {
        let (_, doc) = try Self.report(["../shared/corpus/jws/notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws"])
        #expect((doc["dates"] as? [String: Any])?["signed"] as? String == "2025-10-01T07:08:38.835Z")
        let nested = try #require(doc["nested"] as? [[String: Any]])
        #expect(nested.count == 2)
        #expect(nested.allSatisfy { ($0["verdict"] as? [String: Any])?["outcome"] as? String == "apple-signed" })
    }


    @Test("Xcode tokens exit 1 without --root, labelled StoreKit Testing, the reason names --root",
          .enabled(if: Paths.jwsCorpusAvailable), arguments: CorpusTokens.xcode)
    func xcodeCorpus(name: String) throws {
        let r = try Binary.run(["verify", "../shared/corpus/jws/" + name])
        #expect(r.status == 1)
        #expect(r.stdout.contains("signed by Xcode StoreKit Testing (local testing only)"))
        #expect(r.stdout.contains("  • signed by Xcode StoreKit Testing — local testing only, not the App Store; pass its certificate with --root to accept it for local testing: StoreKitTestCertificate.cer, which Xcode saves from the project's StoreKit configuration file (open the .storekit file, then Editor > Save Public Certificate)\n"))
        #expect(r.stdout.contains("✗ Trust anchor (root): signed by Xcode's \"StoreKit Testing in Xcode\" certificate"))
        #expect(r.stdout.hasSuffix("  • Revocation (OCSP): asking Apple's OCSP responder needs the network, and this tool works offline; a revoked certificate would pass here\n"))
        // Accepted for local testing once its own certificate is passed with --root.
        let token = try String(contentsOf: Paths.jws.appendingPathComponent(name), encoding: .utf8)
        var header = String(token.prefix { $0 != "." }).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        header += String(repeating: "=", count: (4 - header.count % 4) % 4)
        let headerBytes = try #require(Data(base64Encoded: header))
        let json = try #require(try JSONSerialization.jsonObject(with: headerBytes) as? [String: Any])
        let leaf = try #require((json["x5c"] as? [String])?.first)
        let der = try #require(Data(base64Encoded: leaf))
        let certificate = try temporaryFile([UInt8](der), name: "xcode.cer")
        defer { try? FileManager.default.removeItem(at: certificate.deletingLastPathComponent()) }
        let accepted = try Binary.run(["verify", "../shared/corpus/jws/" + name, "--root", certificate.path])
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(accepted.stdout.contains("Verdict: VALID — valid for local testing only\n"))
    }

    @Test("Apple's test-CA tokens pass with --root apple-testCA.der, and not without",
          .enabled(if: Paths.jwsCorpusAvailable), arguments: CorpusTokens.testCA)
    func testCACorpus(name: String) throws {
        let path = "../shared/corpus/jws/" + name
        let (status, doc) = try Self.report([path, "--root", "../shared/corpus/jws/testca/apple-testCA.der"])
        #expect(status == 0)
        #expect((doc["verdict"] as? [String: Any])?["outcome"] as? String == "user-root")
        let without = try Self.report([path])
        #expect(without.status == 1)
        #expect(Self.steps(without.json).first { $0["id"] as? String == "root" }?["reason_code"] as? String == "root-not-pinned")
    }

    @Test("--quiet prints exactly the verdict with its first failing reason; with --format json it is a usage error")
    func quiet() throws {
        let valid = try Binary.run(["verify", "--quiet", "samples/jws/transaction.jws", "--root", "samples/pki/test-ec-root.cer"])
        #expect(valid.status == 0)
        #expect(valid.stdout == "VALID — valid, anchored at a root you supplied\n")
        let invalid = try Binary.run(["verify", "--quiet", "samples/jws/transaction.jws"])
        #expect(invalid.status == 1)
        #expect(invalid.stdout == "INVALID: Trust anchor (root): the chain ends at CN=receipt-explorer TEST ECC Root CA,OU=TEST ONLY - not Apple,O=receipt-explorer TEST,C=US (SHA-256 AD4665FF642C8300A9B8BA3182D5E4B163481A9B0AF9EEB139E12EC04FAB5721), which is neither Apple Root CA - G3 (SHA-256 63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179) nor a supplied root\n")
        let receipt = try Binary.run(["verify", "--quiet", "samples/typical.receipt", "--root", "samples/pki/test-root.cer"])
        #expect(receipt.status == 0)
        // typical.receipt is a sandbox receipt (attribute 0 ProductionSandbox): the verdict says so.
        #expect(receipt.stdout == "VALID (sandbox receipt) — valid, anchored at a root you supplied\n")
        let both = try Binary.run(["verify", "--quiet", "--format", "json", "samples/typical.receipt"])
        #expect(both.status == 2)
        #expect(both.stdout.isEmpty)
        #expect(both.stderr.contains("--quiet prints the text verdict line; with --format json read .verdict instead"))
        let badID = try Binary.run(["verify", "samples/jws/transaction.jws", "--app-apple-id", "twelve"])
        #expect(badID.status == 2)
        #expect(badID.stderr == "receipt-explorer: --app-apple-id: 'twelve' is not a number\n")
    }

    @Test("an iOS 6 transaction receipt is not verifiable: exit 1, a report that says what it is") func legacyTransactionReceipt() throws {
        let body = #"{"signature":"abc","purchase-info":"def","environment":"Sandbox","pod":"100","signing-status":"0"}"#
        let file = try temporaryFile(Array(Data(body.utf8).base64EncodedString().utf8), name: "legacy.b64")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (status, doc) = try Self.report([file.path])
        #expect(status == 1)
        #expect((doc["subject"] as? [String: Any])?["kind"] as? String == "legacy-transaction-receipt")
        #expect(Self.steps(doc).isEmpty)
        let reasons = (doc["verdict"] as? [String: Any])?["reasons"] as? [[String: Any]]
        #expect(reasons?.compactMap { $0["code"] as? String } == ["not-verifiable"])
        #expect((doc["findings"] as? [[String: Any]])?.first?["code"] as? String == "storekit-legacy-transaction-receipt")
    }
}

/// `verify`'s heading shows what was bought before the steps (the receipt report has had its own
/// block; a token's report used to stop at kind, signed and anchor).
@Suite(.enabled(if: cliBinary != nil && Paths.jwsCorpusAvailable)) struct VerifyHeadlineTests {
    @Test func notificationHeadingThenEachNestedTokensOwn() throws {
        let r = try Binary.run(["verify", "../shared/corpus/jws/notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let top = try #require(lines.firstIndex(of: "  kind              App Store Server Notification V2 (DID_RENEW)"))
        #expect(Array(lines[(top + 3)...(top + 9)]) == [
            "  notificationType  DID_RENEW (the subscription renewed)",
            "  notificationUUID  1a7cdc3d-9360-49c3-ae37-0423e4c6e7c7",
            "  data.bundleId     com.loki-project.loki-messenger",
            "  data.appAppleId   1470168868",
            "  data.environment  Sandbox (the sandbox test environment)",
            "  data.status       1 (active)",
            "",
        ])
        let nested = try #require(lines.firstIndex(of: "Nested data.signedTransactionInfo: VALID"))
        #expect(Array(lines[(nested + 4)...(nested + 7)]) == [
            "    productId              com.getsession.org.pro_sub",
            "    type                   Auto-Renewable Subscription (a subscription that renews until cancelled)",
            "    transactionId          2000001024998954",
            "    originalTransactionId  2000001024993299",
        ])
    }
}
