import Foundation
import Testing
import TestSupport

/// README.md's examples run as written: each command line of the `<!-- examples -->` block, in a
/// scratch directory that sees the project's samples, with the built binary on PATH. A command that
/// prints must answer (status 0, or 1: invalid, different, in conflict) and print;
/// the one that opens the explorer is run in tmux and must draw its first frame and quit cleanly.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct ReadmeExamplesTests {
    /// The block's command lines (comments and blank lines left out).
    static func commands() throws -> [String] {
        let readme = try String(contentsOf: Paths.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- examples -->\n```sh\n"), "README has no <!-- examples --> block")
        let end = try #require(readme.range(of: "\n```", range: marker.upperBound..<readme.endIndex))
        return readme[marker.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Lines that open the explorer: the binary with a FILE and no subcommand.
    static func opensTheExplorer(_ line: String) -> Bool {
        let words = line.split(separator: " ")
        return words.first == "receipt-explorer" && words.count > 1 && words[1].hasPrefix("samples/")
    }

    @Test func theBlockCoversTheCommonJourneys() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 12, "a dozen examples, not \(commands.count)")
        let text = commands.joined(separator: "\n")
        for needed in ["receipt-explorer verify", "receipt-explorer dump", "receipt-explorer explain", "receipt-explorer json",
                       "--lines", "receipt-explorer timeline", "receipt-explorer diff", "receipt-explorer redact",
                       "receipt-explorer tour", "--key", "signedPayload", "INFO payload="] {
            #expect(text.contains(needed), "no example with \(needed)")
        }
        #expect(commands.filter(Self.opensTheExplorer).count == 1)
    }

    @Test func everyPrintingExampleRunsAsWritten() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("readme-examples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("samples"), withDestinationURL: Paths.samples)
        let binaryDirectory = try #require(cliBinary).deletingLastPathComponent().path
        let path = binaryDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // Lines run in order in one directory: the batch example's second line reads the file the first wrote.
        for line in try Self.commands() where !Self.opensTheExplorer(line) {
            let r = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "cd '\(dir.path)' && " + line],
                                   environment: ["PATH": path, "NO_COLOR": "1"])
            // 1 is an answer, not a failure: an export with invalid tokens, a timeline with a
            // conflict, two documents that differ. 2 (usage or I/O) or a crash is a broken example.
            #expect(r.status == 0 || r.status == 1, "\(line)\nexit \(r.status): \(r.stderr)")
            #expect(!r.stderr.contains("receipt-explorer: "), "\(line): \(r.stderr)")
            if line.contains(" verify ") && !line.contains("--lines") {
                // The single-input verify examples are of valid inputs (the TEST roots given).
                #expect(r.status == 0 && r.stdout.contains("VALID") && !r.stdout.contains("INVALID"), "\(line): \(r.stdout.prefix(400))")
            }
            let wroteAFile = line.contains(">") || line.contains(" -o ")
            #expect(wroteAFile || !r.stdout.isEmpty, "\(line) printed nothing")
        }
        // What the examples wrote: every export line's verdict, and the shareable copy.
        let verdicts = try String(contentsOf: dir.appendingPathComponent("verdicts.ndjson"), encoding: .utf8)
        let jwsCount = try FileManager.default.contentsOfDirectory(atPath: Paths.samples.appendingPathComponent("jws").path)
            .filter { $0.hasSuffix(".jws") }.count
        #expect(verdicts.split(separator: "\n").count == jwsCount)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("shared.b64").path))
    }

    @Test(.enabled(if: tmuxPath != nil, "tmux is not installed"))
    func theExplorerExampleDrawsItsFirstFrame() throws {
        let line = try #require(try Self.commands().first(where: Self.opensTheExplorer))
        let arguments = line.split(separator: " ").dropFirst().map(String.init)
        let tmux = try TmuxHarness(arguments: arguments, width: 80, height: 24)
        defer { tmux.close() }
        let screen = try #require(tmux.waitForText("typical.receipt"))
        #expect(screen.statusBar.hasSuffix("VALID"))
        try tmux.send("q")
        #expect(tmux.waitForExit() == 0)
    }
}
