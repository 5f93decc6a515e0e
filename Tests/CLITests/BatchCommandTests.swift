import Foundation
import Testing
import TestSupport

/// Batch mode of `verify` and `json`: several FILEs and `--lines`, NDJSON, order, exit statuses,
/// `--jobs`, `--quiet`, and hostile lines (a 100 MB line, binary junk) each getting one report.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct BatchCommandTests {
    static func path(_ name: String) -> String { Paths.samples.appendingPathComponent(name).path }
    static let ecRoot = ["--root", path("pki/test-ec-root.cer")]
    static let rsaRoot = ["--root", path("pki/test-root.cer")]

    static func objects(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("several FILEs: one NDJSON object per FILE, in order, each naming its source")
    func filesNDJSON() throws {
        let files = [Self.path("jws/transaction.jws"), Self.path("typical.receipt"), Self.path("jws/malformed-alg-none.jws")]
        let r = try runCLI(["verify", "--format", "json", "--jobs", "2"] + files + Self.ecRoot + Self.rsaRoot)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.isEmpty)
        let lines = try Self.objects(r.stdout)
        #expect(lines.map { $0["source"] as? String } == files)
        #expect(lines.allSatisfy { $0["line"] == nil })
        #expect(lines.map { ($0["verdict"] as? [String: Any])?["valid"] as? Bool } == [true, true, false])
        #expect(lines.map { ($0["subject"] as? [String: Any])?["kind"] as? String } == ["transaction", "receipt", "transaction"])
    }

    @Test("text: one line per input, source then verdict and first failing reason")
    func textLines() throws {
        let files = [Self.path("jws/transaction.jws"), Self.path("jws/malformed-alg-none.jws")]
        let r = try runCLI(["verify"] + files + Self.ecRoot)
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(files[0]): VALID — valid, anchored at a root you supplied
            \(files[1]): INVALID: Header algorithm (ES256): "alg" is "none": an unsigned token; accepting it would let anyone forge data (algorithm confusion)

            """)
        let ascii = try runCLI(["verify", "--ascii", files[0]] + Self.ecRoot + ["--jobs", "1"])
        #expect(ascii.stdout == "\(files[0]): VALID - valid, anchored at a root you supplied\n")
    }

    @Test("--lines from standard input: stdin and line numbers, empty and junk lines reported, CRLF read")
    func linesFromStdin() throws {
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/transaction.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let receipt = try Data(contentsOf: Paths.samples.appendingPathComponent("typical.receipt")).base64EncodedString()
        var input = Data((token + "\r\n\n" + receipt + "\n").utf8)
        input.append(contentsOf: [0x00, 0xFF, 0x30, 0x82, 0x0D, 0x0A])  // binary junk, CRLF
        let r = try runCLI(["verify", "--format", "json", "--lines", "-"] + Self.ecRoot + Self.rsaRoot, stdin: input)
        #expect(r.status == 2)  // the junk line is other ASN.1: --root is refused for it (docs/manual/options.md)
        let lines = try Self.objects(r.stdout)
        #expect(lines.count == 4)
        #expect(lines.map { $0["source"] as? String } == ["stdin", "stdin", "stdin", "stdin"])
        #expect(lines.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect((lines[0]["verdict"] as? [String: Any])?["valid"] as? Bool == true)
        #expect(lines[1]["error"] as? [String: String] == ["code": "input-not-loaded", "message": "'line 2' is empty (0 bytes)"])
        #expect((lines[2]["verdict"] as? [String: Any])?["valid"] as? Bool == true)
        #expect(lines[3]["error"] as? [String: String] == ["code": "option-not-applicable",
                                                           "message": "--root does not apply to other ASN.1 (not a receipt or a certificate): nothing in it is verified"])
    }

    @Test("exit status: 0 every input valid, 1 one invalid, 2 an unreadable FILE (reported in its place, the rest still run)")
    func exitStatuses() throws {
        let valid = [Self.path("jws/transaction.jws"), Self.path("jws/renewal-info.jws")]
        let ok = try runCLI(["verify"] + valid + Self.ecRoot)
        #expect(ok.status == 0)
        #expect(ok.stdout.split(separator: "\n").count == 2)
        let one = try runCLI(["verify", valid[0], Self.path("jws/malformed-alg-none.jws")] + Self.ecRoot)
        #expect(one.status == 1)
        let missing = "/nonexistent/batch-missing.jws"
        let io = try runCLI(["verify", valid[0], missing, valid[1]] + Self.ecRoot)
        #expect(io.status == 2)
        #expect(io.stdout == """
            \(valid[0]): VALID — valid, anchored at a root you supplied
            \(missing): ERROR: cannot read '\(missing)': No such file or directory
            \(valid[1]): VALID — valid, anchored at a root you supplied

            """)
        let json = try runCLI(["json", valid[0], missing])
        #expect(json.status == 2)
        let objects = try Self.objects(json.stdout)
        #expect(objects.count == 2)
        #expect(objects[1]["error"] as? [String: String] == ["code": "io-error", "message": "cannot read '\(missing)': No such file or directory"])
        #expect(objects[1]["source"] as? String == missing)
    }

    @Test("--jobs must be a whole number of at least 1: otherwise exit 2 and nothing on stdout", arguments: ["0", "-3", "two"])
    func jobsValidation(_ value: String) throws {
        let r = try runCLI(["verify", "--jobs", value, Self.path("jws/transaction.jws")])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("--jobs"))
    }

    @Test("--quiet: the verdict with its first failing reason, alone and per input in batch")
    func quiet() throws {
        let single = try runCLI(["verify", "--quiet", Self.path("jws/malformed-alg-none.jws")] + Self.ecRoot)
        #expect(single.status == 1)
        let reason = "INVALID: Header algorithm (ES256): \"alg\" is \"none\": an unsigned token; accepting it would let anyone forge data (algorithm confusion)\n"
        #expect(single.stdout == reason)
        let batch = try runCLI(["verify", "--quiet", Self.path("jws/transaction.jws"), Self.path("jws/malformed-alg-none.jws")] + Self.ecRoot)
        #expect(batch.stdout == "VALID — valid, anchored at a root you supplied\n" + reason)
    }

    @Test("the order of the output does not depend on --jobs")
    func orderIndependentOfJobs() throws {
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/notification.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let bad = try String(contentsOf: Paths.samples.appendingPathComponent("jws/malformed-tampered-payload.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Slow (a notification with 2 nested tokens) and fast (junk) lines interleaved.
        let lines = (0..<120).map { i in i % 3 == 0 ? token : (i % 3 == 1 ? "junk \(i)" : bad) }
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        let one = try runCLI(["verify", "--lines", "-", "--jobs", "1"] + Self.ecRoot, stdin: input)
        let two = try runCLI(["verify", "--lines", "-", "--jobs", "2"] + Self.ecRoot, stdin: input)
        // Some junk lines decode to bytes that are no App Store data: --root is refused for each, in its place.
        #expect(one.status == 2)
        #expect(one.stdout == two.stdout)
        #expect(one.stdout.contains(": ERROR: --root does not apply to "))
        let sources = one.stdout.split(separator: "\n").map { $0.prefix { $0 != " " } }
        #expect(sources == (1...120).map { "stdin:\($0):"[...] })
    }

    @Test("the same token three times: the same report each time (the first decodes and verifies the chain, the others reuse both)")
    func reusedWorkSameReport() throws {
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/notification.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let input = Data(([token, token, token].joined(separator: "\n") + "\n").utf8)
        let r = try runCLI(["verify", "--format", "json", "--lines", "-", "--jobs", "1"] + Self.ecRoot, stdin: input)
        #expect(r.status == 0)
        var lines = try Self.objects(r.stdout)
        #expect(lines.count == 3)
        for i in lines.indices {  // what names the line differs; the report itself must not
            #expect(lines[i].removeValue(forKey: "line") as? Int == i + 1)
            #expect((lines[i].removeValue(forKey: "input") as? [String: Any])?["name"] as? String == "line \(i + 1)")
        }
        let texts = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
        #expect(texts[0] == texts[1], "the second report differs from the first")
        #expect(texts[1] == texts[2], "the third report differs from the second")
    }

    @Test("--summary: counts on stderr, never on stdout")
    func summary() throws {
        let r = try runCLI(["verify", "--summary", Self.path("jws/transaction.jws"), Self.path("jws/malformed-alg-none.jws")] + Self.ecRoot)
        #expect(r.stderr == """
            summary: inputs 2
            summary: valid 1
            summary: invalid 1
            summary: error 0
            summary: reason algorithm-none 1
            summary: kind transaction 2

            """)
        #expect(!r.stdout.contains("summary:"))
    }

    @Test("json --at sets the moment of the active subscriptions (typical.receipt: active 2024-03-05, lapsed 2024-04-01)")
    func jsonAt() throws {
        func subscriptions(_ at: String) throws -> [String: Any] {
            let r = try runCLI(["json", Self.path("typical.receipt"), "--at", at])
            #expect(r.status == 0)
            let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            return try #require(doc["subscriptions"] as? [String: Any])
        }
        let during = try subscriptions("2024-03-05")
        #expect(during["at"] as? String == "2024-03-05 00:00:00 Etc/GMT")
        let active = try #require(during["active"] as? [[String: Any]])
        #expect(active.map { $0["transaction_id"] as? String } == ["2000000510000004"])
        #expect(active.first?["expires_date_ms"] as? String == "1710936000000")
        let after = try subscriptions("2024-04-01")
        #expect((after["active"] as? [Any])?.isEmpty == true)
        let latest = after["latest_expiry_by_product"] as? [String: [String: String]]
        #expect(latest?["com.example.receiptexplorer.monthly"]?["expires_date"] == "2024-03-20 12:00:00 Etc/GMT")
        #expect((after["latest_expiry_by_original_transaction"] as? [String: Any])?.keys.sorted() == ["2000000510000000"])
    }

    /// A line's output of a block (64 KB) or more is written as it is, the lines before it first.
    @Test("an output line of 533 KB between small ones: every line whole and in its place, with one job or two")
    func largeOutputLineInPlace() throws {
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/transaction.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let body = "{\"signedTransactions\":[" + Array(repeating: "\"\(token)\"", count: 80).joined(separator: ",") + "]}"
        let input = Data(([token, body, "junk", token].joined(separator: "\n") + "\n").utf8)
        let one = try runCLI(["json", "--lines", "-", "--jobs", "1"], stdin: input)
        let two = try runCLI(["json", "--lines", "-", "--jobs", "2"], stdin: input)
        #expect(one.status == 1 && one.stdout == two.stdout)
        let lines = one.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.map(\.utf8.count) == [5_852, 533_162, 2_633, 5_852, 0])
        let objects = try Self.objects(one.stdout)
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 4])
        #expect((objects[1]["input"] as? [String: Any])?["summary"] as? String == "a transaction history response: 80 transactions")
        #expect(lines[0].replacingOccurrences(of: "line 1", with: "line 4").replacingOccurrences(of: "\"line\":1,", with: "\"line\":4,") == lines[3])
    }

    /// A receipt line of 1 MB or more is written by its worker in its turn, never made whole
    /// (`BatchTurn`); the lines around it still come whole and in order.
    @Test("a 1.4 MB receipt line between small ones: written in its turn, the same receipt as `json` reads")
    func receiptLineWrittenInItsTurn() throws {
        let receipt = DER.bulkReceipt(purchases: 12_000)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-\(UUID().uuidString).receipt")
        try Data(receipt).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/transaction.jws"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let line = Data(receipt).base64EncodedString()
        #expect(line.utf8.count >= 1 << 20)
        let input = Data(([token, line, token, token].joined(separator: "\n") + "\n").utf8)
        let one = try runCLI(["json", "--lines", "-", "--jobs", "1", "--at", "2026-01-01T00:00:00Z"], stdin: input)
        let two = try runCLI(["json", "--lines", "-", "--jobs", "2", "--at", "2026-01-01T00:00:00Z"], stdin: input)
        #expect(one.status == 1 && one.stdout == two.stdout, "\(one.status) \(one.stderr)")
        let objects = try Self.objects(one.stdout)
        #expect(objects.map { $0["line"] as? Int } == [1, 2, 3, 4])
        let inApp = try #require((objects[1]["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
        #expect(inApp.count == 12_000)
        #expect(inApp[11_999]["transaction_id"] as? String == "1000000000011999")
        let whole = try runCLI(["json", file.path, "--at", "2026-01-01T00:00:00Z"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
        #expect(NSDictionary(dictionary: objects[1]["receipt"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: document["receipt"] as? [String: Any] ?? [:]))
        #expect(NSDictionary(dictionary: objects[1]["subscriptions"] as? [String: Any] ?? [:])
                == NSDictionary(dictionary: document["subscriptions"] as? [String: Any] ?? [:]))
    }

    @Test("a 100 MB line and binary junk lines: one report per line, in order")
    func hostileLines() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("batch-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("lines.txt")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        var junk: [[UInt8]] = []
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5 {
            junk.append((0..<Int.random(in: 1...300, using: &generator)).map { _ in
                var b = UInt8.random(in: 0...255, using: &generator)
                if b == 0x0A { b = 0x00 }
                return b
            })
        }
        try handle.write(contentsOf: junk[0] + [0x0A] + junk[1] + [0x0D, 0x0A, 0x0A])  // lines 1, 2 and an empty line 3
        let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: chunk) }  // line 4: 100 MiB
        try handle.write(contentsOf: [0x0A] + junk[2] + [0x0A] + junk[3] + [0x0A] + junk[4])  // lines 5-7, the last without LF
        try handle.close()
        let r = try runCLI(["json", "--lines", file.path, "--jobs", "2"])
        #expect(r.status == 1)
        let objects = try Self.objects(r.stdout)
        #expect(objects.map { $0["line"] as? Int } == Array(1...7))
        #expect(objects.allSatisfy { $0["source"] as? String == file.path })
        #expect(objects[2]["error"] as? [String: String] == ["code": "input-not-loaded", "message": "'line 3' is empty (0 bytes)"])
        // 100 MiB of "x" is base64 text: the loader decodes it to three quarters of that.
        #expect(((objects[3]["input"] as? [String: Any])?["size"] as? Int) == (100 << 20) / 4 * 3)
    }
}
