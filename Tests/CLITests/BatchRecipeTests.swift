import Foundation
import Testing
import TestSupport

/// The manual's "More than one machine" recipes (docs/manual/batch.md), run as written: split, xargs -P,
/// cat, awk on a 7-line export split into pieces of 3 lines instead of 1000; and the PySpark one on
/// `local[2]` with PySpark from PyPI.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct BatchRecipeTests {
    static func recipe(_ name: String = "batch-recipe", language: String = "sh") throws -> String {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/batch.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- \(name) -->\n```\(language)\n"))
        let end = try #require(readme.range(of: "```", range: marker.upperBound..<readme.endIndex))
        return String(readme[marker.upperBound..<end.lowerBound])
    }

    @Test("the xargs recipe gives every line's verdict in export order and the summaries added up")
    func xargsRecipe() throws {
        let script = try Self.recipe()
        #expect(script.contains("split -l 1000 "))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("batch-recipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func token(_ name: String) throws -> String {
            try String(contentsOf: Paths.samples.appendingPathComponent("jws/" + name), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let lines = [try token("transaction.jws"), try token("malformed-alg-none.jws"), try token("notification.jws"),
                     "not base64 at all", try token("renewal-info.jws"), "", try token("transaction.jws")]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("export.txt"))
        let binaryDirectory = try #require(cliBinary).deletingLastPathComponent().path
        let r = try runProgram(URL(fileURLWithPath: "/bin/sh"),
                               ["-c", "cd '\(dir.path)' && " + script.replacingOccurrences(of: "split -l 1000 ", with: "split -l 3 ")],
                               environment: ["PATH": binaryDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(r.status == 0, "\(r.stderr)")
        let verdicts = try String(contentsOf: dir.appendingPathComponent("verdicts.ndjson"), encoding: .utf8)
        let objects = try verdicts.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { "\($0["source"] ?? ""):\($0["line"] ?? "")" }
                == ["piece.aa:1", "piece.aa:2", "piece.aa:3", "piece.ab:1", "piece.ab:2", "piece.ab:3", "piece.ac:1"])
        // No --root in the recipe: the TEST-signed tokens do not chain to Apple, so none is valid.
        let summary = try String(contentsOf: dir.appendingPathComponent("summary.txt"), encoding: .utf8)
        #expect(summary == """
            summary: error 0
            summary: inputs 7
            summary: invalid 7
            summary: kind notification 1
            summary: kind renewal-info 1
            summary: kind text 1
            summary: kind transaction 3
            summary: reason algorithm-none 1
            summary: reason input-not-loaded 1
            summary: reason not-verifiable 1
            summary: reason root-not-pinned 4
            summary: valid 0

            """)
    }

    /// The `python3` on PATH, the one `python3 -m pip install pyspark` installed into (a pyenv or
    /// venv one comes before /usr/bin's).
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { $0 + "/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? findTool("python3")
    }()

    /// PySpark (and the Java it starts) is there: `python3 -m pip install pyspark`.
    static let pysparkAvailable: Bool = {
        guard let python, findTool("java") != nil,
              let result = try? runProgram(URL(fileURLWithPath: python), ["-c", "import pyspark"]) else { return false }
        return result.status == 0
    }()

    @Test("the PySpark recipe pipes every partition through the binary and gives one verdict per line, in order",
          .enabled(if: pysparkAvailable, "pyspark or java is not installed (python3 -m pip install pyspark)"))
    func sparkRecipe() throws {
        let script = try Self.recipe("spark-recipe", language: "python")
        #expect(script.contains("checkCode=True)") && script.contains("\"local[2]\""))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spark-recipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func token(_ name: String) throws -> String {
            try String(contentsOf: Paths.samples.appendingPathComponent("jws/" + name), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // 400 lines in 4 partitions: valid, invalid (alg none), a cut-off token, in a known pattern.
        // (A line of text with no purchase data in it would be an ERROR line under --root, which
        // refuses it, and exit 2 fails the task: batch.md says so.)
        let pattern = [(try token("transaction.jws"), true), (try token("malformed-alg-none.jws"), false),
                       (try token("notification.jws"), true), (String(try token("transaction.jws").prefix(3000)), false)]
        let lines = (0..<400).map { pattern[$0 % pattern.count] }
        try Data((lines.map(\.0).joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("export.txt"))
        let root = Paths.samples.appendingPathComponent("pki/test-ec-root.cer").path
        let python = try #require(Self.python)
        let binaryDirectory = try #require(cliBinary).deletingLastPathComponent().path
        let r = try runProgram(URL(fileURLWithPath: python), ["-c", "import os; os.chdir('\(dir.path)')\n" + script.replacingOccurrences(of: "/path/root.cer", with: root)],
                               environment: ["PATH": binaryDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(r.status == 0, "\(r.stderr.suffix(3000))")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("verdicts").path)
            .filter { $0.hasPrefix("part-") }.sorted()
        #expect(parts.count == 4)
        let verdicts = try parts.flatMap { part in
            try String(contentsOf: dir.appendingPathComponent("verdicts/" + part), encoding: .utf8).split(separator: "\n").map {
                let object = try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
                return try #require((object["verdict"] as? [String: Any])?["valid"] as? Bool)
            }
        }
        #expect(verdicts == lines.map(\.1), "one verdict per export line, in the export's order")
    }
}
