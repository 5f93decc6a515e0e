import Foundation
import Testing
import TestSupport

/// The release (issue 24): one source for the version, the files that carry it, and the scripts
/// `.ci/run` calls. The release itself is built and checked by Scripts/release.sh and
/// Scripts/check-release.sh from `.ci/run` (minutes of static linking: not a unit test).
@Suite struct ReleaseTests {
    static func file(_ path: String) -> URL { Paths.packageRoot.appendingPathComponent(path) }
    static func text(_ path: String) throws -> String { try String(contentsOf: file(path), encoding: .utf8) }

    /// The version `--version` prints: ReceiptExplorer.version, the one source.
    static func binaryVersion() throws -> String {
        let result = try runCLI(["--version"])
        let match = try #require(result.stdout.wholeMatch(of: EcosystemTests.versionPattern))
        return String(match.1)
    }

    static let rubyAvailable = findTool("ruby") != nil

    @Test func changelogsNewestReleaseIsTheBinarysVersion() throws {
        let headings = try Self.text("CHANGELOG.md").split(separator: "\n").filter { $0.hasPrefix("## ") }
        let newest = try #require(headings.first, "CHANGELOG.md has no release section")
        let match = try #require(newest.wholeMatch(of: #/## (\d+\.\d+\.\d+) - (\d{4}-\d{2}-\d{2})/#),
                                 "CHANGELOG.md's first section is '\(newest)', not '## VERSION - YYYY-MM-DD'")
        #expect(String(match.1) == (try Self.binaryVersion()), "release.sh refuses a version without a CHANGELOG section")
    }

    @Test func manPageFooterCarriesTheBinarysVersion() throws {
        let lines = try Self.text("docs/receipt-explorer.1").split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix(".Os") } == [Substring(".Os receipt-explorer \(try Self.binaryVersion())")],
                "the man page's .Os line lags the binary's version: run Scripts/gen-manpage.sh")
    }

    /// Scripts, packaging and the formula read the version from the binary (or the archive's name);
    /// a literal copy of it there would be a second source that a version bump forgets.
    @Test func noReleaseFileSpellsTheVersionOut() throws {
        let version = try Self.binaryVersion()
        let files = ["Scripts/release.sh", "Scripts/release-build.sh", "Scripts/check-release.sh", "Scripts/check-formula.rb", "Scripts/gen-manpage.sh",
                     "Scripts/install.sh", "Formula/receipt-explorer.rb", "packaging/debian/copyright", ".ci/run", "Package.swift"]
        for path in files {
            #expect(!(try Self.text(path)).contains(version), "\(path) spells out the version \(version)")
        }
        let source = try Self.text("Sources/receipt-explorer/ReceiptExplorer.swift")
        #expect(source.contains("static let version = \"\(version)\""))
    }

    /// The license the README names, unchanged, and the one the formula declares.
    @Test func licenseIsTheApacheLicense20() throws {
        let license = try Self.text("LICENSE")
        #expect(license.hasPrefix("                                 Apache License\n                           Version 2.0, January 2004\n"))
        #expect(license.contains("END OF TERMS AND CONDITIONS"))
        #expect(license.contains("3. Grant of Patent License."))
        if let debian = try? String(contentsOfFile: "/usr/share/common-licenses/Apache-2.0", encoding: .utf8) {
            #expect(license == String(debian.drop(while: { $0 == "\n" })), "LICENSE differs from the Apache-2.0 text Debian ships")
        }
        #expect(try Self.text("Formula/receipt-explorer.rb").contains("\n  license \"Apache-2.0\"\n"))
        #expect(try Self.text("packaging/debian/copyright").contains("\nFiles: *\nCopyright: 2026 the receipt-explorer authors\nLicense: Apache-2.0\n"))
    }

    /// release.sh replaces exactly one url, sha256 and homepage line, and refuses the formula otherwise.
    @Test(.enabled(if: rubyAvailable)) func formulaTemplateIsRubyWithOneLineForEachReleaseField() throws {
        let formula = Self.file("Formula/receipt-explorer.rb")
        let check = try runProgram(URL(fileURLWithPath: try #require(findTool("ruby"))), ["-c", formula.path])
        #expect(check.status == 0, "ruby -c: \(check.stderr)")
        let lines = try Self.text("Formula/receipt-explorer.rb").split(separator: "\n")
        for field in ["url", "sha256", "homepage"] {
            #expect(lines.filter { $0.hasPrefix("  \(field) \"") }.count == 1, "the formula needs exactly one \(field) line")
        }
        for dependency in [#"depends_on "openssl@3""#, #"depends_on "pkg-config" => :build"#] {
            #expect(lines.contains(Substring("  " + dependency)))
        }
    }

    /// `.ci/run` builds and checks the release before its last line (the README's test command).
    @Test func ciRunChecksTheReleaseBeforeTheTests() throws {
        let lines = try Self.text(".ci/run").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
        let release = try #require(lines.firstIndex { $0.hasPrefix("Scripts/release.sh ") })
        let check = try #require(lines.firstIndex { $0.contains("Scripts/check-release.sh ") })
        let tests = try #require(lines.lastIndex { !$0.isEmpty })
        #expect(release < check && check < tests)
        #expect(lines[tests] == "swift test")
        #expect(lines[release].hasSuffix(#""$release_dir""#) && lines[check].hasSuffix(#""$release_dir""#))
        let packages = try #require(lines.first { $0.hasPrefix("packages=(") })
        for package in ["ruby", "man-db", "dpkg-dev", "binutils"] {
            #expect(packages.contains(" \(package)"), ".ci/run installs \(package) for the release scripts")
        }
    }

    @Test(arguments: ["Scripts/release.sh", "Scripts/check-release.sh"]) func scriptWithoutOutdirIsAUsageError(script: String) throws {
        let bash = URL(fileURLWithPath: try #require(findTool("bash")))
        let result = try runProgram(bash, [Self.file(script).path])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("usage: \(script) "))
        #expect(result.stdout.isEmpty)
    }

    @Test func releaseScriptRefusesAnUnknownOption() throws {
        let bash = URL(fileURLWithPath: try #require(findTool("bash")))
        let result = try runProgram(bash, [Self.file("Scripts/release.sh").path, "--sign", "dist"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("release.sh: unknown option '--sign'\nusage: Scripts/release.sh "))
    }
}
