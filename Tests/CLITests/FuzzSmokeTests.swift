import Foundation
import Testing
import TestSupport

/// CI's fuzz smoke step (`.ci/run` → Scripts/fuzz-smoke.sh) runs every target the Fuzz package
/// defines, each once: a target added to the package but not to the step would never run in CI.
@Suite struct FuzzSmokeTests {
    /// The executable targets of Fuzz/Package.swift ("FuzzParse", …).
    static func packageTargets() throws -> Set<String> {
        let manifest = try ReleaseTests.text("Fuzz/Package.swift")
        return Set(manifest.matches(of: #/\.executableTarget\(\s*name:\s*"(Fuzz\w+)"/#).map { String($0.1) })
    }

    /// fuzz.sh's short names by product, from its `name|Product) name=…; product=…` table.
    static func shortNames() throws -> [String: String] {
        let script = try ReleaseTests.text("Scripts/fuzz.sh")
        let rows = script.matches(of: #/(?m)^\s*(\w+)\|(Fuzz\w+)\) name=(\w+); product=(Fuzz\w+) ;;/#)
        return Dictionary(uniqueKeysWithValues: rows.map { (String($0.4), String($0.3)) })
    }

    /// The targets the smoke line of `.ci/run` names, in order.
    static func smokeTargets() throws -> [String] {
        let lines = try ReleaseTests.text(".ci/run").split(separator: "\n").filter { $0.hasPrefix("Scripts/fuzz-smoke.sh ") }
        let line = try #require(lines.count == 1 ? lines[0] : nil, ".ci/run has one fuzz smoke line")
        let words = line.split(separator: " ").map(String.init)
        #expect(words.dropFirst().first == "30", "each target runs 30 s")
        return Array(words.dropFirst(2))
    }

    @Test func everyTargetRunsInCIOnce() throws {
        let targets = try Self.packageTargets()
        let names = try Self.shortNames()
        let smoke = try Self.smokeTargets()
        #expect(targets.count == 12)
        #expect(Set(names.keys) == targets, "fuzz.sh knows exactly the package's targets")
        #expect(smoke.count == Set(smoke).count, "no target twice")
        #expect(Set(smoke) == Set(names.values), "the smoke step runs every target")
    }
}
