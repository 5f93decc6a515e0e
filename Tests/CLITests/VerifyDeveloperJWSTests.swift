import Foundation
import Testing
import TestSupport

/// `verify` on developer-signed JWS (promotional offer V2, introductory-offer eligibility, Advanced
/// Commerce request, App Store Server API token) end to end: every samples/developer token against
/// samples/manifest.json's `developer_samples`, the key forms `--key` reads, what is said without a
/// key, the refusal for Apple-signed input, and that the private key never reaches any output.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built")) struct VerifyDeveloperJWSTests {
    nonisolated(unsafe) static let manifestObject: [String: Any] = {
        guard let data = try? Data(contentsOf: Paths.samples.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }()
    nonisolated(unsafe) static let manifest: [[String: Any]] = manifestObject["developer_samples"] as? [[String: Any]] ?? []
    static var sampleFiles: [String] { manifest.compactMap { $0["file"] as? String } }

    static let key = "samples/developer/SubscriptionKey_TESTKEY001.p8"
    static let publicKey = "samples/developer/test-developer-key-TESTKEY001.pub.pem"
    static let bundle = "com.example.receiptexplorer"
    static let at = "2024-03-01T12:10:00Z"
    static let judged = ["--key", key, "--bundle-id", bundle, "--at", at]

    static func report(_ arguments: [String]) throws -> (status: Int32, json: [String: Any], stderr: String) {
        let r = try Binary.run(["verify", "--format", "json"] + arguments)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(arguments): \(r.stderr)")
        return (r.status, json, r.stderr)
    }

    static func steps(_ report: [String: Any]) -> [[String: Any]] { report["steps"] as? [[String: Any]] ?? [] }

    @Test func manifestListsEveryDeveloperToken() throws {
        let directory = Paths.samples.appendingPathComponent("developer")
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jws") }.map { "developer/" + $0 })
        #expect(Set(Self.sampleFiles) == onDisk)
        // Four kinds, each valid and with every claim of its kind wrong (8 variants, 9 for the bearer token).
        #expect(Self.sampleFiles.count == 37)
        #expect(Set(Self.manifest.compactMap { $0["kind"] as? String })
                == ["promotional-offer", "introductory-offer-eligibility", "advanced-commerce-request", "server-api-token"])
    }

    @Test("every samples/developer token: exit status, each step's status and reason code, the verdict", arguments: sampleFiles)
    func manifestSample(file: String) throws {
        let entry = try #require(Self.manifest.first { $0["file"] as? String == file })
        let expected = try #require(entry["steps"] as? [String: [String: Any]])
        let (status, json, _) = try Self.report(["samples/" + file] + Self.judged)
        let steps = Self.steps(json)
        let kind = try #require(entry["kind"] as? String)
        let bearer = kind == "server-api-token"
        #expect(steps.compactMap { $0["id"] as? String }
                == ["algorithm", "kid", "signature", "aud", "iat", "exp"] + (bearer ? ["token-lifetime"] : []) + ["bundle-id", "nonce"])
        for step in steps {
            let id = try #require(step["id"] as? String)
            let want = try #require(expected[id], "\(file): step \(id) not in the manifest")
            #expect(step["status"] as? String == want["status"] as? String, "\(file) \(id)")
            #expect(step["reason_code"] as? String == want["reason"] as? String, "\(file) \(id)")
        }
        let subject = try #require(json["subject"] as? [String: Any])
        #expect(subject["kind"] as? String == kind)
        let verdict = try #require(json["verdict"] as? [String: Any])
        if entry["verdict"] as? String == "valid" {
            #expect(status == 0)
            #expect(verdict["outcome"] as? String == "developer-key")
        } else {
            #expect(status == 1)
            #expect(verdict["outcome"] as? String == "invalid")
            let first = try #require((verdict["reasons"] as? [[String: Any]])?.first)
            #expect(first["step"] as? String == entry["failing_step"] as? String)
            #expect(first["code"] as? String == entry["reason"] as? String)
        }
    }

    @Test("the text report: every step with its mark and reason, the failing claim's bytes, the verdict")
    func textReport() throws {
        let r = try Binary.run(["verify", "samples/developer/server-api-token-lifetime-61-minutes.jws"] + Self.judged)
        #expect(r.status == 1)
        #expect(r.stdout.contains("""
            Verification
              ✓ Header algorithm (ES256)
              ✓ Key id (kid)
              ✓ ES256 signature
              ✓ Audience (aud)
              ✓ Issued at (iat)
              ✓ Expiry (exp)
              ✗ Token lifetime (exp - iat): exp is 3660 seconds (61 minutes) after iat; Apple rejects App Store Server API tokens valid for more than 60 minutes (401)
                  payload exp: offset 239, 14 bytes
              ✓ Bundle identifier
              – Nonce: not checked — an App Store Server API bearer token (developer-signed JWT) has no nonce claim
            """))
        #expect(r.stdout.hasSuffix("""
            Verdict: INVALID
              • Token lifetime (exp - iat): exp is 3660 seconds (61 minutes) after iat; Apple rejects App Store Server API tokens valid for more than 60 minutes (401)

            """))
        let ok = try Binary.run(["verify", "--quiet", "samples/developer/promotional-offer.jws"] + Self.judged)
        #expect(ok.status == 0)
        #expect(ok.stdout.hasPrefix("VALID — signed by the developer key you gave (private key (.p8), SHA-256 "))
        let wrong = try Binary.run(["verify", "--quiet", "samples/developer/promotional-offer-wrong-kid.jws"] + Self.judged)
        #expect(wrong.status == 1)
        #expect(wrong.stdout == "INVALID: Key id (kid): the header's kid is OTHERKEY99, but the key is TESTKEY001: Apple verifies with the key the kid names\n")
    }

    @Test("without --key: decoded, claims checked, and the verdict asks for the key (exit 1)")
    func withoutKey() throws {
        let (status, json, _) = try Self.report(["samples/developer/introductory-offer-eligibility.jws", "--at", Self.at])
        #expect(status == 1)
        let byID = Dictionary(uniqueKeysWithValues: Self.steps(json).map { ($0["id"] as! String, $0) })
        #expect(byID["signature"]?["reason_code"] as? String == "developer-key-needed")
        #expect(byID["kid"]?["reason_code"] as? String == "no-key-id")
        #expect(byID["aud"]?["status"] as? String == "passed")
        let verdict = try #require(json["verdict"] as? [String: Any])
        #expect(verdict["outcome"] as? String == "key-needed")
        let reasons = try #require(verdict["reasons"] as? [[String: Any]])
        #expect(reasons.map { $0["code"] as? String } == ["developer-key-needed"])
        #expect(reasons[0]["message"] as? String == "ES256 signature: signed by a developer's In-App Purchase key, which the token does not carry: give it with --key (the SubscriptionKey_<KID>.p8 App Store Connect gave you, or its PEM public key) to check the signature")
        let quiet = try Binary.run(["verify", "--quiet", "samples/developer/introductory-offer-eligibility.jws", "--at", Self.at])
        #expect(quiet.status == 1)
        #expect(quiet.stdout.hasPrefix("INVALID: ES256 signature: signed by a developer's In-App Purchase key"))
    }

    @Test("--key as a PEM public key: no kid from the name, so --key-id gives it")
    func publicKey() throws {
        let file = "samples/developer/promotional-offer.jws"
        let plain = try Self.report([file, "--key", Self.publicKey, "--at", Self.at])
        #expect(plain.status == 0)
        let kid = Self.steps(plain.json).first { $0["id"] as? String == "kid" }
        #expect(kid?["reason_code"] as? String == "no-key-id")
        let withID = try Self.report([file, "--key", Self.publicKey, "--key-id", "TESTKEY001", "--at", Self.at])
        #expect(withID.status == 0)
        #expect(Self.steps(withID.json).first { $0["id"] as? String == "kid" }?["status"] as? String == "passed")
        let otherID = try Self.report([file, "--key", Self.publicKey, "--key-id", "ABCDE12345", "--at", Self.at])
        #expect(otherID.status == 1)
        #expect(Self.steps(otherID.json).first { $0["id"] as? String == "kid" }?["reason"] as? String
                == "the header's kid is TESTKEY001, but the key is ABCDE12345: Apple verifies with the key the kid names")
        // The summary names the key by the SHA-256 of its public half, the same for the .p8 and the PEM.
        let p8 = try Self.report([file] + Self.judged)
        let summary = { (j: [String: Any]) in (j["verdict"] as? [String: Any])?["summary"] as? String ?? "" }
        #expect(summary(p8.json).suffix(64) == summary(withID.json).suffix(64))
    }

    @Test("--bundle-id is compared with bid; --environment and --app-apple-id are refused: the kind has no such claim")
    func expectations() throws {
        let (status, json, _) = try Self.report(["samples/developer/advanced-commerce-request.jws", "--key", Self.key, "--at", Self.at,
                                                 "--bundle-id", "com.example.other"])
        #expect(status == 1)
        let byID = Dictionary(uniqueKeysWithValues: Self.steps(json).map { ($0["id"] as! String, $0) })
        #expect(byID["bundle-id"]?["reason"] as? String == "expected com.example.other, the payload says com.example.receiptexplorer")
        for (option, value, claim) in [("--environment", "Sandbox", "environment"), ("--app-apple-id", "5", "appAppleId")] {
            let refused = try Binary.run(["verify", "samples/developer/advanced-commerce-request.jws", "--key", Self.key, option, value])
            #expect(refused.status == 2 && refused.stdout.isEmpty)
            #expect(refused.stderr == "receipt-explorer: \(option) does not apply to an Advanced Commerce API in-app request (developer-signed JWS): it carries no \(claim) claim\n")
        }
    }

    @Test("--key for an Apple-signed token is refused: exit 2 alone, that input's ERROR line in a batch")
    func keyRefusedForAppleSigned() throws {
        let single = try Binary.run(["verify", "samples/jws/transaction.jws", "--key", Self.key])
        #expect(single.status == 2)
        #expect(single.stdout.isEmpty)
        #expect(single.stderr == "receipt-explorer: --key does not apply to a StoreKit 2 transaction: its signature is checked against its x5c chain to Apple, not a developer key\n")
        let receipt = try Binary.run(["verify", "samples/typical.receipt", "--key-id", "TESTKEY001"])
        #expect(receipt.status == 2)
        #expect(receipt.stderr == "receipt-explorer: --key-id does not apply to a PKCS#7 App Store receipt: it is not a developer-signed JWS (promotional offer, introductory-offer eligibility, Advanced Commerce request, App Store Server API token)\n")
        let batch = try Binary.run(["verify", "samples/jws/transaction.jws", "samples/developer/promotional-offer.jws", "--key", Self.key,
                                    "--bundle-id", Self.bundle, "--at", Self.at])
        #expect(batch.status == 2)  // a refused option is a usage error, line by line; the other inputs still run
        let lines = batch.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == "samples/jws/transaction.jws: ERROR: --key does not apply to a StoreKit 2 transaction: its signature is checked against its x5c chain to Apple, not a developer key")
        #expect(lines[1].hasPrefix("samples/developer/promotional-offer.jws: VALID — signed by the developer key you gave"))
    }

    @Test("a key that is not a P-256 key, or no key at all, is a usage error that quotes nothing of the file")
    func badKeys() throws {
        let p384 = try Binary.run(["verify", "samples/developer/promotional-offer.jws", "--key", "samples/pki/test-only-ec-root.key"])
        #expect(p384.status == 2)
        #expect(p384.stderr == "receipt-explorer: --key samples/pki/test-only-ec-root.key: the key is secp384r1, not P-256: In-App Purchase keys are ES256 (P-256)\n")
        let certificate = try Binary.run(["verify", "samples/developer/promotional-offer.jws", "--key", "samples/pki/test-ec-root.cer"])
        #expect(certificate.status == 2)
        #expect(certificate.stderr == "receipt-explorer: --key samples/pki/test-ec-root.cer: not a PEM or DER public key, nor a PKCS#8 private key (.p8)\n")
        let missing = try Binary.run(["verify", "samples/developer/promotional-offer.jws", "--key", "no-such.p8"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "receipt-explorer: cannot read --key no-such.p8\n")
        let badID = try Binary.run(["verify", "samples/developer/promotional-offer.jws", "--key-id", "../x"])
        #expect(badID.status == 2)
        #expect(badID.stderr == "receipt-explorer: --key-id: '../x' is not a key id (letters and digits, as App Store Connect shows it)\n")
    }

    /// The .p8's base64 body, and its private scalar, must not appear in any output: not whole, not
    /// as any 16-character run of the body.
    @Test("no output, in any format or error, contains any part of the private key")
    func privateKeyNeverPrinted() throws {
        let pem = String(decoding: try Paths.sample("developer/SubscriptionKey_TESTKEY001.p8"), as: UTF8.self)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(body.count > 100)
        let windows = stride(from: 0, to: body.count - 16, by: 4).map { String(body.dropFirst($0).prefix(16)) }
        var outputs: [String] = []
        for file in ["promotional-offer.jws", "server-api-token-tampered.jws", "advanced-commerce-request-wrong-kid.jws"] {
            for format in [["--format", "json"], [], ["--quiet"], ["--ascii"]] {
                let r = try Binary.run(["verify", "samples/developer/" + file] + Self.judged + format)
                outputs += [r.stdout, r.stderr]
            }
        }
        for command in [["dump"], ["json"], ["explain"]] {
            let r = try Binary.run(command + ["samples/developer/promotional-offer.jws"])
            outputs += [r.stdout, r.stderr]
        }
        let refused = try Binary.run(["verify", "samples/jws/transaction.jws", "--key", Self.key])
        outputs += [refused.stdout, refused.stderr]
        // The key given as the file to read, by mistake: refused, never shown.
        let asInput = try Binary.run(["dump", Self.key])
        #expect(asInput.status == 2)
        #expect(asInput.stderr == "receipt-explorer: 'SubscriptionKey_TESTKEY001.p8' is a private key (PEM PRIVATE KEY): receipt-explorer does not show private keys; to check a developer-signed token with it, pass it to verify with --key (only its public half is used)\n")
        for output in outputs {
            #expect(!output.contains("PRIVATE KEY"))
            for window in windows { #expect(!output.contains(window), "an output contains \(window.prefix(4))… of the key") }
        }
    }

    @Test("dump shows the Advanced Commerce request decoded from base64 as its own layer, with offsets")
    func advancedCommerceRequestLayer() throws {
        let entry = try #require(Self.manifest.first { $0["file"] as? String == "developer/advanced-commerce-request.jws" })
        let request = try #require(entry["request"] as? [String: Any])
        let bytes = try #require(request["bytes"] as? Int)
        let r = try Binary.run(["dump", "samples/developer/advanced-commerce-request.jws"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("  request: chars 312-1034 → \(bytes) bytes of JSON (layer 4) (base64 in payload bytes 187-728)\n"))
        #expect(r.stdout.contains("    operation \"CREATE_SUBSCRIPTION\"  chars 313-373, bytes 1-33\n"))
        #expect(request["payload_offset"] as? Int == 187)
    }
}
