import Foundation
import Testing
import TestSupport

/// `receipt-explorer redact`: copies that open in every command, consistency across files,
/// --keep, --mapping, --bundle-id, --seed, -o - and every refusal.
@Suite struct RedactCommandTests {
    static let root = Paths.samples.appendingPathComponent("pki/test-root.cer").path
    static let storeKitRoot = Paths.samples.appendingPathComponent("pki/test-storekit.cer").path

    /// A fresh directory for one test's copies.
    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("redact-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func sample(_ name: String) -> String { Paths.samples.appendingPathComponent(name).path }

    /// A compact JWS's payload, decoded.
    static func payload(_ token: String) throws -> [String: Any] {
        var segment = token.split(separator: ".")[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while segment.count % 4 != 0 { segment += "=" }
        let data = try #require(Data(base64Encoded: segment))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func text(_ path: String) throws -> String {
        try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A history of many tokens breaks as many signatures: ten are named, the rest counted, so the
    /// summary of a 10,000-token history is not 10,000 lines.
    @Test func manyBrokenSignaturesAreNamedTenThenCounted() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try Self.text(Self.sample("jws/transaction.jws"))
        let history = dir.appendingPathComponent("history.json")
        try Data(("{\"signedTransactions\": [" + Array(repeating: "\"\(token)\"", count: 13).joined(separator: ", ") + "]}").utf8).write(to: history)
        let result = try runCLI(["redact", history.path, "-o", dir.appendingPathComponent("copy.json").path, "--seed", "s"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let named = lines.filter { $0.hasPrefix("  token signedTransactions[") && $0.contains("its ES256 signature no longer verifies") }
        #expect(named.count == 10)
        #expect(named.first?.hasPrefix("  token signedTransactions[0]:") == true)
        #expect(named.last?.hasPrefix("  token signedTransactions[9]:") == true)
        #expect(lines.contains("  and 3 more signatures that no longer verify (`verify` of the copy names each)"))
    }

    // MARK: - The copy opens in every command

    static let openedSamples = ["typical.receipt", "typical.b64", "typical.pem", "typical.json", "xcode-ber.receipt",
                                "jws/transaction.jws", "jws/notification.jws", "jws/transaction-history.json",
                                "jws/app-transaction.jws"]

    @Test(arguments: openedSamples)
    func copyOfSampleOpensInEveryCommand(_ name: String) throws {
        try checkOpensEverywhere(Self.sample(name))
    }

    static let openedCorpus = ["receipts/production-ios-org.getpure.pure-iphone-2024-02-23-4iap.receipt",
                               "receipts/xcode-ch.protonmail.protonmail-2022-01-07-6iap.receipt",
                               "jws/notification-sandbox-com.loki-project.loki-messenger-2025-10-01-DID_RENEW.jws",
                               "jws/apptransaction-xcode-com.example.naturelab.backyardbirds.example-2023-10-19.jws"]

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is missing"), arguments: openedCorpus)
    func copyOfCorpusFileOpensInEveryCommand(_ name: String) throws {
        try checkOpensEverywhere(Paths.corpus.appendingPathComponent(name).path)
    }

    func checkOpensEverywhere(_ input: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent(URL(fileURLWithPath: input).lastPathComponent).path
        let redacted = try runCLI(["redact", input, "-o", copy, "--bundle-id"])
        #expect(redacted.status == 0, "\(redacted.stderr)")
        #expect(redacted.stderr.isEmpty)
        #expect(redacted.stdout.contains("no longer verifies"))
        for command in [["dump"], ["explain"], ["json"], ["tour", "--print"]] {
            let result = try runCLI(command + [copy])
            #expect(result.status != 2, "\(command): \(result.stderr)")
            #expect(!result.stdout.isEmpty, "\(command)")
        }
        let verify = try runCLI(["verify", copy, "--root", Self.root, "--root", Self.storeKitRoot])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("✗ PKCS#7 signature") || verify.stdout.contains("✗ ES256 signature"), "\(verify.stdout)")
    }

    // MARK: - Consistency, --seed

    /// typical.receipt, transaction.jws and renewal-info.jws share original transaction id
    /// 2000000510000000; the copies share its stand-in, which is 16 digits like it.
    @Test
    func sharedIdGetsOneStandInAcrossFiles() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let mapping = dir.appendingPathComponent("map.json").path
        let result = try runCLI(["redact", Self.sample("typical.receipt"), Self.sample("jws/transaction.jws"),
                                 Self.sample("jws/renewal-info.jws"), "-o", out, "--mapping", mapping])
        #expect(result.status == 0, "\(result.stderr)")
        let transaction = try Self.payload(try Self.text(out + "/transaction.jws"))
        let renewal = try Self.payload(try Self.text(out + "/renewal-info.jws"))
        let standIn = try #require(transaction["originalTransactionId"] as? String)
        #expect(standIn != "2000000510000000")
        #expect(standIn.count == 16 && standIn.allSatisfy(\.isNumber) && standIn.first != "0")
        #expect(renewal["originalTransactionId"] as? String == standIn)
        #expect(renewal["appTransactionId"] as? String == transaction["appTransactionId"] as? String)
        // The receipt's in-app 1705 carries the same stand-in (UTF8String bytes in the DER).
        let receipt = try Data(contentsOf: URL(fileURLWithPath: out + "/typical.receipt"))
        #expect(receipt.range(of: Data(standIn.utf8)) != nil)
        #expect(receipt.range(of: Data("2000000510000000".utf8)) == nil)
        // The mapping names both the stand-in and the original, with all three files.
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: mapping))) as? [String: Any])
        let entries = try #require(map["entries"] as? [[String: Any]])
        let entry = try #require(entries.first { $0["original"] as? String == "2000000510000000" })
        #expect(entry["stand_in"] as? String == standIn)
        let files = Set((entry["occurrences"] as? [[String: Any]] ?? []).compactMap { $0["file"] as? String })
        #expect(files == ["typical.receipt", "transaction.jws", "renewal-info.jws"])
    }

    @Test
    func seedMakesCopiesReproducibleAndRandomKeysDoNot() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var copies: [Data] = []
        for (i, seed) in [["--seed", "s"], ["--seed", "s"], [], []].enumerated() {
            let copy = dir.appendingPathComponent("copy\(i).jws").path
            let result = try runCLI(["redact", Self.sample("jws/transaction.jws"), "-o", copy] + seed)
            #expect(result.status == 0)
            copies.append(try Data(contentsOf: URL(fileURLWithPath: copy)))
        }
        #expect(copies[0] == copies[1])
        #expect(copies[2] != copies[3])
        #expect(copies[0] != copies[2])
    }

    // MARK: - --keep, --bundle-id, --mapping

    @Test
    func keepLeavesThatFieldAlone() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("t.jws").path
        let result = try runCLI(["redact", Self.sample("jws/transaction.jws"), "-o", copy, "--keep", "transaction-id",
                                 "--keep", "app-transaction-id"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("kept as they are (--keep): transaction-id, app-transaction-id"))
        let payload = try Self.payload(try Self.text(copy))
        #expect(payload["transactionId"] as? String == "2000000510000004")
        #expect(payload["appTransactionId"] as? String == "704289123456789012")
        #expect(payload["originalTransactionId"] as? String != "2000000510000000")
        #expect(payload["webOrderLineItemId"] as? String != "2000000041000004")
        #expect(payload["bundleId"] as? String != "com.example.receiptexplorer")
    }

    /// The bundle id is replaced by default (`--bundle-id`, once needed, still says so) and kept with --keep.
    @Test(arguments: [[], ["--bundle-id"]])
    func bundleIDIsReplacedUnlessKept(_ flag: [String]) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("t.jws").path
        #expect(try runCLI(["redact", Self.sample("jws/transaction.jws"), "-o", copy] + flag).status == 0)
        let payload = try Self.payload(try Self.text(copy))
        let bundle = try #require(payload["bundleId"] as? String)
        #expect(bundle != "com.example.receiptexplorer")
        #expect(bundle.count == "com.example.receiptexplorer".count)
        #expect(bundle.split(separator: ".").map(\.count) == [3, 7, 15])
        // The product id started with the bundle id: it starts with the stand-in now.
        #expect(payload["productId"] as? String == bundle + ".monthly")
        #expect(try runCLI(["redact", Self.sample("jws/transaction.jws"), "-o", copy, "--keep", "bundle-id"]).status == 0)
        #expect(try Self.payload(try Self.text(copy))["bundleId"] as? String == "com.example.receiptexplorer")
    }

    /// Neither an original nor a stand-in is ever printed; the mapping file is private.
    @Test
    func mappingOnlyWhenAskedAndNeverPrinted() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("t.jws").path
        let mapping = dir.appendingPathComponent("map.json").path
        let without = try runCLI(["redact", Self.sample("jws/notification.jws"), "-o", copy])
        #expect(without.stdout.contains("no mapping written (--mapping FILE writes one)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.jws"])
        // An existing file there, readable by all and longer than the mapping: emptied and made private.
        try Data(repeating: UInt8(ascii: "x"), count: 100_000).write(to: URL(fileURLWithPath: mapping))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: mapping)
        let with = try runCLI(["redact", Self.sample("jws/notification.jws"), "-o", copy, "--mapping", mapping])
        #expect(with.status == 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: mapping)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: mapping)).last == UInt8(ascii: "\n"))
        let map = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: mapping))) as? [String: Any])
        let entries = try #require(map["entries"] as? [[String: Any]])
        // Transaction, original transaction, web order line item and app transaction ids, the
        // bundle id, the app's Apple id and the notification's UUID.
        #expect(entries.count == 7)
        for entry in entries {
            for key in ["original", "stand_in"] {
                let value = try #require(entry[key] as? String)
                #expect(!with.stdout.contains(value) && !with.stderr.contains(value))
                #expect(!without.stdout.contains(value) && !without.stderr.contains(value))
            }
        }
    }

    /// A mapping that cannot be written is an I/O failure (exit 2) with the system's reason.
    @Test
    func unwritableMappingIsRefusedWithItsReason() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mapping = dir.appendingPathComponent("missing/map.json").path
        let result = try runCLI(["redact", Self.sample("jws/notification.jws"), "-o", dir.appendingPathComponent("t.jws").path,
                                 "--mapping", mapping])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot write --mapping \(mapping): No such file or directory"), "\(result.stderr)")
    }

    /// One input read from standard input into an existing directory: OUT/stdin.
    @Test
    func standardInputIntoADirectory() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try Data(contentsOf: URL(fileURLWithPath: Self.sample("jws/transaction.jws")))
        let result = try runCLI(["redact", "-", "-o", dir.path], stdin: token)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("stdin → \(dir.path)/stdin: a StoreKit 2 transaction"))
        let copy = try Data(contentsOf: dir.appendingPathComponent("stdin"))
        #expect(copy.count == token.count && copy != token)
    }

    /// A verifyReceipt body's shared secret is replaced like every other value (same length and
    /// character classes); with --keep password it is kept, and said so.
    @Test
    func passwordOfAVerifyReceiptBodyIsReplaced() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("t.json").path
        let result = try runCLI(["redact", Self.sample("typical.json"), "-o", copy])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 password"))
        let text = try Self.text(copy)
        #expect(!text.contains(#""password": "test""#))
        #expect(text.range(of: #""password": "[a-z]{4}""#, options: .regularExpression) != nil)
        let kept = try runCLI(["redact", Self.sample("typical.json"), "-o", copy, "--keep", "password"])
        #expect(kept.stdout.contains(#"  left as it is: the verifyReceipt body's "password" (the app's shared secret), kept with --keep password: remove it before sharing"#))
        #expect(try Self.text(copy).contains(#""password": "test""#))
    }

    // MARK: - -o -, pastes

    /// `-o -` writes to standard output exactly the bytes `-o FILE` writes with the same --seed
    /// (binary DER included), and the summary to standard error; no file named `-` appears.
    @Test(arguments: ["typical.receipt", "typical.b64", "typical.json", "jws/notification.jws", "log"])
    func standardOutputEqualsTheFile(_ name: String) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var input = Self.sample(name)
        if name == "log" {
            let token = try Self.text(Self.sample("jws/transaction.jws"))
            input = dir.appendingPathComponent("app.log").path
            try Data("2026-03-01 10:00:00 INFO verify jws=\(token) ok\n".utf8).write(to: URL(fileURLWithPath: input))
        }
        let copy = dir.appendingPathComponent("copy").path
        let file = try runCLI(["redact", input, "-o", copy, "--seed", "same"])
        #expect(file.status == 0, "\(file.stderr)")
        let piped = try runCLI(["redact", input, "-o", "-", "--seed", "same"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdoutBytes == [UInt8](try Data(contentsOf: URL(fileURLWithPath: copy))))
        #expect(piped.stderr.contains("→ standard output: "))
        #expect(piped.stderr.contains("no longer verifies"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path))
        #expect(!FileManager.default.fileExists(atPath: "-"))
    }

    /// A log line holding a token, as `dump` and `verify` read it: redacted where it sits, the
    /// rest of the line kept, and the copy reads as the same transaction in every command.
    @Test
    func logLineIsRedactedInPlace() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try Self.text(Self.sample("jws/transaction.jws"))
        let log = dir.appendingPathComponent("app.log").path
        let line = "2026-03-01 10:00:00 INFO verify jws=\(token) ok\n"
        try Data(line.utf8).write(to: URL(fileURLWithPath: log))
        let result = try runCLI(["redact", log, "-o", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("2026-03-01 10:00:00 INFO verify jws=eyJ"))
        #expect(result.stdout.hasSuffix(" ok\n"))
        #expect(result.stdout.count == line.count)
        #expect(!result.stdout.contains(token))
        let copy = dir.appendingPathComponent("copy.log").path
        try Data(result.stdoutBytes).write(to: URL(fileURLWithPath: copy))
        let dump = try runCLI(["json", copy])
        #expect(dump.status != 2, "\(dump.stderr)")
        #expect(dump.stdout.contains("\"transaction\""))
        #expect(!dump.stdout.contains("2000000510000004"))
    }

    // MARK: - Exit statuses and refusals

    @Test
    func malformedInputIsCopiedWithStatusOne() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("t.receipt").path
        let result = try runCLI(["redact", Self.sample("malformed-truncated.receipt"), "-o", copy])
        #expect(result.status == 1)
        #expect(result.stdout.contains("the input has errors; so does the copy, at the same offsets"))
        #expect(FileManager.default.fileExists(atPath: copy))
    }

    static let refusals: [(arguments: [String], message: String)] = [
        (["redact", "IN"], "-o OUT is missing"),
        (["redact", "IN", "-o", "IN"], "refusing to overwrite the input"),
        (["redact", "IN", "-o", "OUT", "--keep", "price"], "--keep: 'price' is not a redactable field; the fields are transaction-id, original-transaction-id"),
        (["redact", "IN", "-o", "OUT", "--keep", "bundle-id", "--bundle-id"], "--keep bundle-id contradicts --bundle-id"),
        (["redact", "IN", "-o", "OUT", "--keep", "transaction_id"], "--keep: 'transaction_id' is not a redactable field"),
        (["redact", "IN", "IN2", "-o", "-"], "-o - writes one copy to standard output; with 2 inputs give a directory"),
        (["redact", "IN", "-o", "OUT", "--mapping", "-"], "the mapping undoes the redaction and is never written to the terminal"),
        (["redact", "IN", "-o", "OUT", "--mapping", "IN"], "refusing to overwrite the input"),
        (["redact", "IN", "-o", "OUT", "--mapping", "OUT"], "is also where a copy would be written"),
        (["redact", "IN", "IN2", "-o", "FILE"], "with 2 inputs OUT must be a directory"),
        (["redact", "IN", "DIR/IN", "-o", "OUT"], "would both be written to"),
        (["redact", "MISSING", "-o", "OUT"], "cannot read"),
    ]

    @Test(arguments: refusals.indices)
    func refusalsExitTwoAndWriteNothing(_ index: Int) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.jws")
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.sample("jws/transaction.jws")))
        try original.write(to: input)
        try original.write(to: dir.appendingPathComponent("in2.jws"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("dir"), withIntermediateDirectories: true)
        try original.write(to: dir.appendingPathComponent("dir/in.jws"))
        try Data("x".utf8).write(to: dir.appendingPathComponent("file"))
        let names = ["IN": "in.jws", "IN2": "in2.jws", "DIR/IN": "dir/in.jws", "OUT": "out.jws", "FILE": "file", "MISSING": "missing.jws"]
        let (arguments, message) = Self.refusals[index]
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let result = try runCLI(arguments.map { names[$0].map { dir.appendingPathComponent($0).path } ?? $0 })
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == before)
        #expect(try Data(contentsOf: input) == original)
    }
}
