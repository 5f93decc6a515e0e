import Foundation
import Testing
import TestSupport

/// Issue 21, fast start: the tool loads FoundationEssentials, never full Foundation or ICU
/// (FoundationInternationalization, _FoundationICU). Sources import `FoundationEssentials` where it
/// exists and fall back to `Foundation` only where it does not (macOS):
///
///     #if canImport(FoundationEssentials)
///     import FoundationEssentials
///     #else
///     import Foundation
///     #endif
///
/// Tests may import full Foundation. The static release binary is checked by Scripts/check-release.sh.
@Suite struct FoundationEssentialsTests {
    static var fullFoundation: Regex<(Substring, Substring?, Substring?, Substring, Substring)> { #/^\s*(@[\w()]+\s+)*import\s+(class\s+|struct\s+|enum\s+|func\s+)?(Foundation|FoundationInternationalization|FoundationNetworking|FoundationXML|_FoundationICU)(\.|\s|$)/# }

    /// Each `import` of full Foundation in `text` that is not the `#else` of
    /// `#if canImport(FoundationEssentials)`, as "line: text".
    static func forbiddenImports(_ text: String) -> [String] {
        var conditions: [(condition: String, inElse: Bool)] = []
        var found: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                conditions.append((String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), false))
            } else if line.hasPrefix("#elseif") {
                if !conditions.isEmpty { conditions[conditions.count - 1] = (String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces), false) }
            } else if line == "#else" {
                if !conditions.isEmpty { conditions[conditions.count - 1].inElse = true }
            } else if line.hasPrefix("#endif") {
                _ = conditions.popLast()
            } else if line.firstMatch(of: fullFoundation) != nil {
                let fallback = conditions.last.map { $0.condition == "canImport(FoundationEssentials)" && $0.inElse } ?? false
                if !fallback || line.contains("FoundationInternationalization") || line.contains("_FoundationICU") {
                    found.append("\(number + 1): \(line)")
                }
            }
        }
        return found
    }

    @Test func theCheckFindsFullFoundationImports() {
        #expect(Self.forbiddenImports("import Foundation\n") == ["1: import Foundation"])
        #expect(Self.forbiddenImports("@preconcurrency import Foundation\n").count == 1)
        #expect(Self.forbiddenImports("import struct Foundation.Date\n").count == 1)
        #expect(Self.forbiddenImports("#if canImport(Glibc)\nimport Foundation\n#endif\n").count == 1)
        #expect(Self.forbiddenImports("#if canImport(FoundationEssentials)\nimport Foundation\n#endif\n").count == 1)
        #expect(Self.forbiddenImports("#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport FoundationInternationalization\n#endif\n").count == 1)
        #expect(Self.forbiddenImports("#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\n").isEmpty)
        #expect(Self.forbiddenImports("import FoundationEssentials\nimport ASN1Lenient\n").isEmpty)
    }

    @Test func noSourceImportsFullFoundation() throws {
        let sources = Paths.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100)
        var offenders: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            offenders += Self.forbiddenImports(text).map { "Sources/\(file):\($0)" }
        }
        #expect(offenders.isEmpty, "full Foundation (ICU at start-up) imported by:\n\(offenders.joined(separator: "\n"))")
    }

    static let ldd = findTool("ldd")

    /// The debug build links the Swift libraries dynamically, so `ldd` shows every Foundation module
    /// the executable (dependencies included) pulls in.
    @Test(.enabled(if: ldd != nil && cliBinary != nil, "needs ldd (Linux) and the built binary"))
    func theExecutableLinksNoFullFoundationOrICU() throws {
        let result = try runProgram(URL(fileURLWithPath: try #require(Self.ldd)), [try #require(cliBinary).path])
        #expect(result.status == 0)
        let libraries = result.stdout.split(separator: "\n").compactMap { $0.split(whereSeparator: \.isWhitespace).first.map(String.init) }
        #expect(libraries.contains { $0.hasPrefix("libFoundationEssentials") }, "ldd lists \(libraries)")
        // libcrypto and ncursesw are loaded with dlopen at first use (issue 32): no NEEDED entry.
        #expect(!libraries.contains { $0.hasPrefix("libcrypto") || $0.hasPrefix("libncursesw") }, "ldd lists \(libraries)")
        let full = libraries.filter { ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
                                       "libFoundationNetworking.so", "libFoundationXML.so"].contains($0) }
        #expect(full.isEmpty, "the executable loads \(full)")
    }
}
