import Foundation
import Testing
import TestSupport

/// Runs the built `receipt-explorer` binary from the package root (the tests name files relative to it).
enum Binary {
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        let binary: URL = try #require(cliBinary)  // typed: into `URL?` the macro would unwrap nothing
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Paths.packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }
}

/// `verify` and `json` end to end: exit codes, verdict lines, the JSON contract.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built")) struct ReceiptCommandTests {
    let corpus = "../shared/corpus/receipts/"

    @Test(.enabled(if: Paths.corpusAvailable)) func verifyExitCodes() throws {
        let bear = try Binary.run(["verify", corpus + "production-net.shinyfrog.bear-2019-09-26-1iap.receipt"])
        #expect(bear.status == 0, "\(bear.stdout)\(bear.stderr)")
        #expect(bear.stdout.contains("✓ PKCS#7 signature"))
        #expect(bear.stdout.contains("Verdict: VALID — valid App Store receipt"))
        #expect(bear.stdout.contains("SHA-256 B0B1730ECBC7FF4505142C49F1295E6EDA6BCAED7E2C68C5BE91B5A11001F024"))

        let xcode = try Binary.run(["verify", corpus + "xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt"])
        #expect(xcode.status == 1)
        #expect(xcode.stdout.contains("signed by Xcode StoreKit Testing — local testing only, not the App Store"))
        let accepted = try Binary.run(["verify", corpus + "xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt",
                                       "--root", "../shared/corpus/certs/StoreKitTestCertificate.cer", "--at", "2021-01-01"])
        #expect(accepted.status == 0, "\(accepted.stdout)")
        #expect(accepted.stdout.contains("Subscriptions active at 2021-01-01 00:00:00 UTC: 1"))

        let p7 = try Binary.run(["verify", corpus + "negative/pkcs7-not-a-receipt-apple-signed-validation-record.p7",
                                 "--root", "../shared/corpus/certs/AppleIncRootCertificate.cer"])
        #expect(p7.status == 1)
        #expect(p7.stdout.contains("✗ Receipt signing certificate"))
        #expect(p7.stdout.contains("1.2.840.113635.100.6.11.1"))

        let truncated = try Binary.run(["verify", "--ascii", corpus + "negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt"])
        #expect(truncated.status == 1)
        #expect(truncated.stdout.contains("x Receipt contents"))

        let device = try Binary.run(["verify", corpus + "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt",
                                     "--device-id", "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD", "--bundle-id", "com.mindnode.mindnodetouch",
                                     "--app-version", "3394"])
        #expect(device.status == 0, "\(device.stdout)")
        #expect(device.stdout.contains("✓ Device hash"))
        let wrong = try Binary.run(["verify", corpus + "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt",
                                    "--device-id", "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CE"])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.contains("✗ Device hash"))
    }

    @Test func usageAndIOProblemsExitTwo() throws {
        for args in [["verify", "/nonexistent/receipt"], ["verify", "samples/typical.receipt", "--device-id", "nope"],
                     ["verify", "samples/typical.receipt", "--at", "someday"], ["verify", "samples/typical.receipt", "--root", "/nonexistent.cer"],
                     ["verify", "samples/typical.receipt", "--root", "samples/README.md"], ["json", "/nonexistent/receipt"], ["verify"]] {
            let r = try Binary.run(args)
            #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(!r.stderr.isEmpty)
        }
    }

    @Test("an unreadable --root is refused before any input is read: the file named, with the reader's reason")
    func unreadableRootIsNamed() throws {
        let cases: [(args: [String], stderr: String)] = [
            (["verify", "samples/typical.receipt", "--root", "samples/pki/test-root.cer", "--root", "samples/README.md"],
             "receipt-explorer: --root samples/README.md: PEM file holds no readable certificate (no BEGIN CERTIFICATE block)\n"),
            (["verify", "samples/typical.receipt", "--root", "/dev/null"], "receipt-explorer: --root /dev/null: the file is empty\n"),
            (["json", "samples/typical.receipt", "--root", "/dev/null"], "receipt-explorer: --root /dev/null: the file is empty\n"),
        ]
        for (args, stderr) in cases {
            let r = try Binary.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty, "\(args)")
            #expect(r.stderr == stderr, "\(args)")
        }
    }

    @Test func samplesWithTheTestRoot() throws {
        let ok = try Binary.run(["verify", "samples/typical.receipt", "--root", "samples/pki/test-root.cer",
                                 "--device-id", "A1B2C3D4-E5F6-4789-9ABC-DEF012345678", "--bundle-id", "com.example.receiptexplorer",
                                 "--app-version", "2.3.1", "--at", "2024-03-05T00:00:00Z"])
        #expect(ok.status == 0, "\(ok.stdout)")
        #expect(ok.stdout.contains("Subscriptions active at 2024-03-05 00:00:00 UTC: 1"))
        #expect(ok.stdout.contains("com.example.receiptexplorer.monthly, transaction 2000000510000004"))
        let tampered = try Binary.run(["verify", "samples/malformed-tampered.receipt", "--root", "samples/pki/test-root.cer"])
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("✗ PKCS#7 signature"))
        // Every encoding InputLoader understands.
        for file in ["samples/typical.b64", "samples/typical.pem", "samples/typical.json"] {
            let r = try Binary.run(["verify", file, "--root", "samples/pki/test-root.cer"])
            #expect(r.status == 0, "\(file): \(r.stdout)")
        }
        // Hostile strings are escaped in both outputs.
        for command in ["verify", "json"] {
            let r = try Binary.run([command, "samples/malformed-hostile-strings.receipt", "--root", "samples/pki/test-root.cer"])
            for bad in ["\u{1B}", "\u{07}", "\u{202E}", "\u{0}"] { #expect(!r.stdout.contains(bad), "\(command) leaks \(bad.unicodeScalars.first!.value)") }
        }
    }

    @Test(.enabled(if: Paths.corpusAvailable)) func jsonGolden() throws {
        let r = try Binary.run(["json", corpus + "production-net.shinyfrog.bear-2019-09-26-1iap.receipt"])
        #expect(r.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let receipt = try #require(doc["receipt"] as? [String: Any])
        #expect(receipt["bundle_id"] as? String == "net.shinyfrog.bear")
        #expect(receipt["receipt_creation_date"] as? String == "2019-09-26 14:08:37 Etc/GMT")
        #expect(receipt["receipt_creation_date_ms"] as? String == "1569506917000")
        #expect(receipt["receipt_creation_date_pst"] as? String == "2019-09-26 07:08:37 America/Los_Angeles")
        #expect(receipt["original_purchase_date_ms"] as? String == "1569506846000")
        #expect(receipt["receipt_type"] as? String == "Production")
        let inApp = try #require(receipt["in_app"] as? [[String: Any]])
        #expect(inApp.first?["purchase_date_ms"] as? String == "1569506916000")
        #expect(inApp.first?["expires_date"] as? String == "2019-10-03 14:08:36 Etc/GMT")
        #expect(inApp.first?["is_trial_period"] as? String == "true")
        let steps = try #require(doc["validation"] as? [[String: Any]])
        #expect(steps.map { $0["id"] as? String } == ["contents", "signature", "chain", "time", "receipt-signer",
                                                       "device-hash", "bundle-id", "app-version", "environment", "app-apple-id",
                                                       "expiration"])
        #expect(steps.map { $0["title"] as? String } == ["Receipt contents", "PKCS#7 signature", "Certificate chain",
                                                          "Validity at creation date", "Receipt signing certificate",
                                                          "Device hash", "Bundle identifier", "App version", "Environment",
                                                          "App Apple ID", "Expiration"])
        #expect(steps[5]["reason"] as? String == "no device identifier given (--device-id: an identifierForVendor UUID or a MAC address)")
        #expect(steps[1]["status"] as? String == "passed")
        #expect((doc["verdict"] as? [String: Any])?["valid"] as? Bool == true)
        let source = try #require(doc["source"] as? [String: [String: Int]])
        #expect(source["bundle_id"] == ["offset": 293, "length": 20])
        #expect((doc["findings"] as? [Any])?.isEmpty == true)
        // Stable: sorted keys, same bytes twice.
        let again = try Binary.run(["json", corpus + "production-net.shinyfrog.bear-2019-09-26-1iap.receipt", "--at", "2020-01-01"])
        #expect(again.stdout.replacingOccurrences(of: "2020-01-01 00:00:00 UTC", with: "") .count > 0)
        let fast = try Binary.run(["json", "--no-validate", corpus + "production-net.shinyfrog.bear-2019-09-26-1iap.receipt"])
        #expect(fast.status == 0)
        #expect(fast.stdout.contains("\"validation was not requested\""))

        let truncated = try Binary.run(["json", corpus + "negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt"])
        #expect(truncated.status == 1)
        let tdoc = try #require(try JSONSerialization.jsonObject(with: Data(truncated.stdout.utf8)) as? [String: Any])
        #expect((tdoc["receipt"] as? [String: Any])?["bundle_id"] as? String == "com.belive.app.ios")
        let garbage = try Binary.run(["json", "samples/README.md"])
        #expect(garbage.status == 1 || garbage.status == 2)
    }
}
