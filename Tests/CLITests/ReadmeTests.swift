import ASN1Lenient
import Foundation
import Testing
import TestSupport

/// Keeps README.md and the manual from drifting: the test command `.ci/run` runs, and the diagnostic
/// code table (docs/manual/exit-status.md).
@Suite struct ReadmeTests {
    static let readme = Paths.packageRoot.appendingPathComponent("README.md")
    static let ciRun = Paths.packageRoot.appendingPathComponent(".ci/run")
    static let exitStatusPage = Paths.packageRoot.appendingPathComponent("docs/manual/exit-status.md")

    /// The first line of the fenced block after `<!-- marker -->`.
    static func command(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: "<!-- \(marker) -->") else { return nil }
        let lines = text[range.upperBound...].split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.count >= 2, lines[0].hasPrefix("```") else { return nil }
        return String(lines[1]).trimmingCharacters(in: .whitespaces)
    }

    @Test func ciRunsExactlyTheReadmeTestCommand() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let command = try #require(Self.command(after: "test-command", in: readme), "README has no <!-- test-command --> block")
        let script = try String(contentsOf: Self.ciRun, encoding: .utf8)
        let lastCommand = script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .last { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(lastCommand == command, ".ci/run must end by running the README's test command verbatim")
        #expect(script.hasPrefix("#!/usr/bin/env bash\n") || script.hasPrefix("#!/bin/bash\n"))
        #expect(script.contains("set -euo pipefail"))
        #expect(FileManager.default.isExecutableFile(atPath: Self.ciRun.path))
    }

    @Test func readmeRunCommandNamesTheProduct() throws {
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(Self.command(after: "run-command", in: readme) == "swift run receipt-explorer")
    }

    /// The table docs/manual/exit-status.md must contain between the parser-codes markers.
    static var codeTable: String {
        var lines = ["| code | severity | meaning |", "|---|---|---|"]
        for code in ParserCode.allCases {
            lines.append("| `\(code.rawValue)` | \(code.severity) | \(code.summary) |")
        }
        return lines.joined(separator: "\n")
    }

    @Test func manualListsEveryParserCode() throws {
        let readme = try String(contentsOf: Self.exitStatusPage, encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- parser-codes:begin -->\n"))
        let end = try #require(readme.range(of: "<!-- parser-codes:end -->"))
        let table = readme[begin.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(table == Self.codeTable, "docs/manual/exit-status.md's code table is out of date; replace it with:\n\(Self.codeTable)")
    }
}
