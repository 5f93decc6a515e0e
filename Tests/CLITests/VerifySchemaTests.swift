import Foundation
import Testing
import TestSupport

/// `verify --format json` validated against docs/verify-schema.json by python3's `jsonschema`
/// (Draft 2020-12), on real output: every sample and corpus receipt and token, valid and invalid.
/// The `python3` on PATH (the one .ci/run installs `jsonschema` for), when it can import
/// `jsonschema`; otherwise the suite is skipped.
let jsonschemaPython: Bool = {
    guard let env = findTool("env") else { return false }
    return (try? runTool(env, ["python3", "-c", "import jsonschema"]))?.status == 0
}()

@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"),
       .enabled(if: jsonschemaPython, "python3 with the jsonschema package is not installed"))
struct VerifySchemaTests {
    static let schema = Paths.packageRoot.appendingPathComponent("docs/verify-schema.json")

    /// Validates each file (JSON documents) against the schema; returns python's report.
    static func validate(_ documents: [URL]) throws -> (status: Int32, output: String) {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            bad = 0
            for path in sys.argv[2:]:
                for e in validator.iter_errors(json.load(open(path))):
                    bad += 1
                    print(path, list(e.absolute_path), e.message[:300])
            print("validated", len(sys.argv) - 2, "errors", bad)
            sys.exit(1 if bad else 0)
            """
        return try runTool(try #require(findTool("env")), ["python3", "-c", script, schema.path] + documents.map(\.path))
    }

    /// Runs `verify --format json` on each input and keeps the output in a temporary directory.
    static func outputs(_ runs: [[String]]) throws -> (files: [URL], statuses: [Int32], directory: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verify-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var files: [URL] = [], statuses: [Int32] = []
        for (i, arguments) in runs.enumerated() {
            let r = try Binary.run(["verify", "--format", "json"] + arguments)
            #expect(r.stderr.isEmpty, "\(arguments): \(r.stderr)")
            let url = dir.appendingPathComponent("\(i).json")
            try Data(r.stdout.utf8).write(to: url)
            files.append(url)
            statuses.append(r.status)
        }
        return (files, statuses, dir)
    }

    @Test("the schema is itself valid Draft 2020-12 and names its version") func schemaItself() throws {
        let text = try String(contentsOf: Self.schema, encoding: .utf8)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(json["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        let version = (json["properties"] as? [String: Any])?["schema_version"] as? [String: Any]
        #expect(version?["const"] as? Int == 4)
        let r = try Self.validate([])
        #expect(r.status == 0, "\(r.output)")
    }

    @Test("samples/ receipts and samples/jws tokens, with and without the test roots")
    func samples() throws {
        var runs: [[String]] = []
        for url in sampleReceipts(includingMalformed: true) {
            runs.append(["samples/" + url.lastPathComponent])
            runs.append(["samples/" + url.lastPathComponent, "--root", "samples/pki/test-root.cer", "--bundle-id", "com.example.receiptexplorer"])
        }
        let jws = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("jws").path).sorted()
        for name in jws {
            runs.append(["samples/jws/" + name])
            runs.append(["samples/jws/" + name, "--root", "samples/pki/test-ec-root.cer", "--environment", "Sandbox"])
        }
        let (files, statuses, dir) = try Self.outputs(runs)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Both verdicts are covered: valid (0) and invalid (1).
        #expect(Set(statuses) == [0, 1])
        let r = try Self.validate(files)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.hasSuffix("validated \(runs.count) errors 0\n"))
    }

    @Test("samples/developer tokens with and without --key, and samples/external tokens with expectations")
    func developerAndExternalSamples() throws {
        var runs: [[String]] = []
        let developer = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("developer").path)
            .filter { $0.hasSuffix(".jws") }.sorted()
        for name in developer {
            runs.append(["samples/developer/" + name, "--at", "2024-03-01T12:10:00Z"])
            // --environment is refused for developer-signed tokens (no environment claim: docs/manual/options.md).
            runs.append(["samples/developer/" + name, "--key", "samples/developer/SubscriptionKey_TESTKEY001.p8", "--at", "2024-03-01T12:10:00Z",
                         "--bundle-id", "com.example.receiptexplorer"])
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("external").path).sorted() {
            runs.append(["samples/external/" + name, "--bundle-id", "com.example.other", "--environment", "Sandbox"])
        }
        let (files, statuses, dir) = try Self.outputs(runs)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Set(statuses) == [0, 1])
        let r = try Self.validate(files)
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.hasSuffix("validated \(runs.count) errors 0\n"))
    }

    @Test("batch NDJSON: each line, reports and error lines alike, with source and line")
    func batchLines() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verify-schema-batch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let token = try String(contentsOf: Paths.samples.appendingPathComponent("jws/notification.jws"), encoding: .utf8)
        let receipt = try Data(contentsOf: Paths.samples.appendingPathComponent("typical.receipt")).base64EncodedString()
        let lines = dir.appendingPathComponent("lines.txt")
        try Data((token.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n" + receipt + "\r\nnot base64\n").utf8).write(to: lines)
        let r = try Binary.run(["verify", "--format", "json", "--lines", lines.path, "/nonexistent/x.jws",
                                "--root", "samples/pki/test-root.cer", "--at", "2024-03-05"])
        #expect(r.status == 2)
        let outputs = r.stdout.split(separator: "\n")
        #expect(outputs.count == 5)  // 4 lines (one empty), then the FILE that cannot be read
        var files: [URL] = []
        for (i, line) in outputs.enumerated() {
            let url = dir.appendingPathComponent("\(i).json")
            try Data(line.utf8).write(to: url)
            files.append(url)
        }
        let v = try Self.validate(files)
        #expect(v.status == 0, "\(v.output)")
        #expect(v.output.hasSuffix("validated 5 errors 0\n"))
    }

    @Test("every corpus receipt and token", .enabled(if: Paths.corpusAvailable && Paths.jwsCorpusAvailable))
    func corpus() throws {
        var runs = corpusReceipts().map { [$0.path] }
        let negative = Paths.receipts.appendingPathComponent("negative")
        runs += try FileManager.default.contentsOfDirectory(atPath: negative.path).sorted().map { [negative.appendingPathComponent($0).path] }
        for directory in [Paths.jws, Paths.jws.appendingPathComponent("testca")] {
            runs += try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                .filter { $0.hasSuffix(".jws") }.map { [directory.appendingPathComponent($0).path] }
        }
        runs.append([Paths.jws.appendingPathComponent("testca/transaction-testca-com.example-2023-01-05.jws").path,
                     "--root", Paths.jws.appendingPathComponent("testca/apple-testCA.der").path])
        let (files, statuses, dir) = try Self.outputs(runs)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(Set(statuses) == [0, 1])
        let r = try Self.validate(files)
        #expect(r.status == 0, "\(r.output)")
    }
}
