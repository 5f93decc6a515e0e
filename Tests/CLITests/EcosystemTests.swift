import Foundation
import Testing
import TestSupport

/// The conventions around the binary (issue 13): the CI workflow, `--version`, shell completions,
/// the man page and the install script.
@Suite struct EcosystemTests {
    static let subcommands = ["explore", "dump", "explain", "json", "verify"]
    static let workflow = cliPackageRoot.appendingPathComponent(".github/workflows/ci.yml")
    static let manPage = cliPackageRoot.appendingPathComponent("docs/receipt-explorer.1")

    /// PyYAML is the YAML parser here (the package has none); without it the workflow test is skipped.
    static let pyYAMLAvailable: Bool = {
        guard let python = findTool("python3"), let result = try? runProgram(python, ["-c", "import yaml"]) else { return false }
        return result.status == 0
    }()

    /// The README's test command (the same block ReadmeTests checks `.ci/run` against).
    static func readmeTestCommand() throws -> String {
        let readme = try String(contentsOf: ReadmeTests.readme, encoding: .utf8)
        return try #require(ReadmeTests.command(after: "test-command", in: readme))
    }

    // MARK: CI workflow

    /// The workflow parsed by PyYAML, as JSON objects.
    static func parsedWorkflow() throws -> [String: Any] {
        let python = try #require(findTool("python3"))
        let script = "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout, default=str)"
        let result = try runProgram(python, ["-c", script, workflow.path])
        try #require(result.status == 0, "ci.yml does not parse: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The `run:` scripts of a job's steps, in order, trimmed.
    static func runScripts(_ job: [String: Any]) -> [String] {
        ((job["steps"] as? [[String: Any]]) ?? []).compactMap { ($0["run"] as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test(.enabled(if: pyYAMLAvailable)) func workflowRunsTheReadmeTestCommandOnLinuxAndMacOS() throws {
        let workflow = try Self.parsedWorkflow()
        let command = try Self.readmeTestCommand()
        let jobs = try #require(workflow["jobs"] as? [String: [String: Any]])
        #expect(Set(jobs.values.compactMap { $0["runs-on"] as? String }) == ["ubuntu-latest", "macos-latest"])
        #expect(jobs.count == 2)
        for (name, job) in jobs {
            let runs = Self.runScripts(job)
            #expect(runs.last == command, "job \(name) must end by running the README's test command verbatim")
            #expect(runs.filter { $0 == command }.count == 1, "job \(name) runs the test command once")
        }
        // PyYAML reads the bare key `on` as the boolean true (YAML 1.1).
        let triggers = try #require((workflow["on"] ?? workflow["true"]) as? [String: Any])
        #expect(Set(triggers.keys) == ["push", "pull_request"])
    }

    @Test(.enabled(if: pyYAMLAvailable)) func workflowInstallsWhatTheReadmeSays() throws {
        let jobs = try #require(try Self.parsedWorkflow()["jobs"] as? [String: [String: Any]])
        let linux = try #require(jobs.values.first { $0["runs-on"] as? String == "ubuntu-latest" })
        let mac = try #require(jobs.values.first { $0["runs-on"] as? String == "macos-latest" })
        let linuxSetup = Self.runScripts(linux).joined(separator: "\n")
        for package in ["libssl-dev", "libncurses-dev", "pkg-config", "tmux", "openssl", "dumpasn1"] {
            #expect(linuxSetup.contains(" \(package) "), "the Linux job installs \(package)")
        }
        let macSetup = Self.runScripts(mac).joined(separator: "\n")
        #expect(macSetup.contains("brew install openssl@3 pkg-config"))
        #expect(macSetup.contains("PKG_CONFIG_PATH=$(brew --prefix openssl@3)/lib/pkgconfig"))
    }

    // MARK: --version

    // Computed: Regex is not Sendable, so a shared stored one is not allowed across concurrent tests.
    static var versionPattern: Regex<(Substring, Substring, Substring)> { #/receipt-explorer (0\.\d+\.\d+) \((OpenSSL 3\.\d+\.\d+[^()\n]*)\)\n/# }

    @Test func versionNamesTheToolAndTheRuntimeOpenSSL() throws {
        let result = try runCLI(["--version"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.wholeMatch(of: Self.versionPattern) != nil, "unexpected --version line: \(result.stdout)")
    }

    /// `openssl version` prints "OpenSSL 3.0.13 30 Jan 2024 (Library: OpenSSL 3.0.13 30 Jan 2024)"; the
    /// library part is the libcrypto loaded at run time, the same one this binary loads.
    static let opensslCLILibrary: String? = {
        guard let openssl = OpenSSLTool.path, let result = try? runProgram(openssl, ["version"]) else { return nil }
        guard let match = result.stdout.firstMatch(of: #/\(Library: (OpenSSL 3[^()]*)\)/#) else { return nil }
        return String(match.1)
    }()

    @Test(.enabled(if: opensslCLILibrary != nil)) func versionReportsTheSameOpenSSLAsTheOpenSSLTool() throws {
        let result = try runCLI(["--version"])
        let match = try #require(result.stdout.wholeMatch(of: Self.versionPattern))
        #expect(String(match.2) == Self.opensslCLILibrary)
    }

    // MARK: Shell completions

    /// How each shell's script names a subcommand.
    static func subcommandMarkers(_ shell: String, _ subcommand: String) -> [String] {
        switch shell {
        case "bash": return ["_receipt-explorer_\(subcommand)() {"]
        case "zsh": return ["_receipt-explorer_\(subcommand)() {", "'\(subcommand):"]
        default: return ["-fa '\(subcommand)'"]
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"]) func completionScriptNamesEverySubcommand(shell: String) throws {
        let result = try runCLI(["--generate-completion-script", shell])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.utf8.count > 1000, "a \(shell) completion script of \(result.stdout.utf8.count) bytes")
        for subcommand in Self.subcommands {
            for marker in Self.subcommandMarkers(shell, subcommand) {
                #expect(result.stdout.contains(marker), "\(shell) completion lacks \(marker)")
            }
        }
    }

    @Test func bashCompletionIsValidBash() throws {
        let bash = try #require(findTool("bash"))
        let script = try temporaryFile(Array(try runCLI(["--generate-completion-script", "bash"]).stdout.utf8), name: "receipt-explorer.bash")
        defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
        let check = try runProgram(bash, ["-n", script.path])
        #expect(check.status == 0, "bash -n: \(check.stderr)")
    }

    // MARK: Man page

    /// SHA-256 of `receipt-explorer --experimental-dump-help`, the input generate-manual reads.
    static func currentHelpDigest() throws -> String {
        let dump = try runCLI(["--experimental-dump-help"])
        try #require(dump.status == 0)
        let file = try temporaryFile(dump.stdoutBytes, name: "help.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result: CLIResult
        if let tool = findTool("sha256sum") {
            result = try runProgram(tool, [file.path])
        } else {
            result = try runProgram(try #require(findTool("shasum"), "sha256sum or shasum is needed"), ["-a", "256", file.path])
        }
        try #require(result.status == 0)
        return String(result.stdout.prefix { $0.isHexDigit })
    }

    @Test func manPageIsGeneratedFromTheCurrentHelp() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        let recorded = try #require(page.firstMatch(of: #/\n\.\\" help-sha256: ([0-9a-f]{64}) /#), "docs/receipt-explorer.1 records no help-sha256")
        #expect(String(recorded.1) == (try Self.currentHelpDigest()),
                "docs/receipt-explorer.1 is out of date with the commands' help: run Scripts/gen-manpage.sh")
        #expect(page.hasPrefix(".\\\" \"Generated by swift-argument-parser\"\n"))
        #expect(page.contains("\n.Dt RECEIPT-EXPLORER 1\n"))
        for subcommand in Self.subcommands {
            #expect(page.contains("\n.It Em \(subcommand)\n"), "the man page has no entry for \(subcommand)")
        }
    }

    /// The man page carries the manual (docs/manual/*.md) as its last sections, converted by
    /// Scripts/manual-to-mdoc.py: one text for both, and the page is stale when a manual page changes.
    @Test func manPageEndsWithTheManual() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        let python = try #require(findTool("python3"), "python3 runs Scripts/manual-to-mdoc.py")
        let result = try runProgram(python, [cliPackageRoot.appendingPathComponent("Scripts/manual-to-mdoc.py").path])
        try #require(result.status == 0, "manual-to-mdoc.py: \(result.stderr)")
        #expect(page.hasSuffix("\n.Ex -std\n" + result.stdout),
                "docs/receipt-explorer.1 does not end with the manual's current text: run Scripts/gen-manpage.sh")
        for section in [".Sh \"THE EXPLORER (EXPLORE, THE DEFAULT COMMAND)\"", ".Sh \"VERIFY: IS IT GENUINE?\"", ".Sh \"INPUTS AND PASTES\""] {
            #expect(result.stdout.contains("\n" + section + "\n") || result.stdout.hasPrefix(section + "\n"), "\(section)")
        }
    }

    /// generate-manual drops non-ASCII characters; gen-manpage.sh carries each one through as roff's
    /// `\[uXXXX]`, so every one in the help (✓ ✗ – — …) is in the page and the page itself is ASCII.
    @Test func manPageKeepsTheHelpsNonASCIICharacters() throws {
        let page = try String(contentsOf: Self.manPage, encoding: .utf8)
        #expect(page.unicodeScalars.allSatisfy { $0.isASCII })
        let help = try runCLI(["--experimental-dump-help"]).stdout
        let nonASCII = Set(help.unicodeScalars.filter { !$0.isASCII })
        #expect(nonASCII.contains("\u{2713}"), "the help has no ✓ to carry through")
        for scalar in nonASCII {
            let escape = "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
            #expect(page.contains(escape), "the man page lost \(scalar) (expected \(escape))")
        }
    }

    // MARK: Install script

    @Test func installScriptInstallsBinaryManPageAndCompletions() throws {
        let binary = try #require(cliBinary)
        let bash = try #require(findTool("bash"))
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("install-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let script = cliPackageRoot.appendingPathComponent("Scripts/install.sh").path
        let install = try runProgram(bash, [script, "--bin-path", binary.deletingLastPathComponent().path, prefix.path])
        try #require(install.status == 0, "install.sh failed: \(install.stderr)")

        let installed = prefix.appendingPathComponent("bin/receipt-explorer")
        #expect(FileManager.default.isExecutableFile(atPath: installed.path))
        let version = try runProgram(installed.path, ["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == (try runCLI(["--version"]).stdout))
        #expect(version.stdout.wholeMatch(of: Self.versionPattern) != nil)
        #expect(install.stdout.hasPrefix("installed receipt-explorer 0."))

        let manPage = try Data(contentsOf: prefix.appendingPathComponent("share/man/man1/receipt-explorer.1"))
        #expect(manPage == (try Data(contentsOf: Self.manPage)))
        let completions = [
            "bash": "share/bash-completion/completions/receipt-explorer",
            "zsh": "share/zsh/site-functions/_receipt-explorer",
            "fish": "share/fish/vendor_completions.d/receipt-explorer.fish",
        ]
        for (shell, path) in completions {
            let text = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
            #expect(text == (try runCLI(["--generate-completion-script", shell]).stdout), "\(path) is not the \(shell) script")
        }
    }

    @Test func installScriptRefusesAMissingPrefixWithUsage() throws {
        let bash = try #require(findTool("bash"))
        let result = try runProgram(bash, [cliPackageRoot.appendingPathComponent("Scripts/install.sh").path, "--bin-path", "/nonexistent"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("usage: Scripts/install.sh"))
    }
}

fileprivate extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// `runProgram` from CLISupport, for a tool found by path.
fileprivate func runProgram(_ path: String, _ arguments: [String]) throws -> CLIResult {
    try runProgram(URL(fileURLWithPath: path), arguments)
}
