import Foundation
import Testing
import TestSupport

/// Issue 35: platform differences live in one module. No Swift file outside Sources/Platform
/// branches on the C library or the operating system, and no C file outside the two loaders does;
/// checked over the package's sources, its tests and the Fuzz package.
@Suite struct PlatformBoundaryTests {
    /// `#if` / `#elseif` conditions that name a platform (Swift), and C's platform macros.
    static var swiftBranch: Regex<AnyRegexOutput> { try! Regex(#"^\s*#(if|elseif)\b.*\b(canImport\((Glibc|Darwin|Musl|WinSDK|Android|Bionic)\)|os\(\w+\))"#) }
    static var cBranch: Regex<AnyRegexOutput> { try! Regex(#"^\s*#\s*(if|elif|ifdef|ifndef)\b.*\b(__APPLE__|__linux__|__MACH__|__GLIBC__)\b"#) }

    /// The places allowed to branch on the platform: the platform module itself, the C file that
    /// includes curses.h (the SDK has no ncursesw/ directory; Linux loads libncursesw with dlopen,
    /// macOS links the SDK's) and libcrypto's loader (Linux only: macOS links Homebrew's libcrypto).
    /// Nothing else, tests included.
    static let allowed = ["Sources/Platform/", "Sources/CNcursesShim/shim.c", "Sources/COpenSSL/libcrypto_loader.c"]

    static func files(under folder: String) -> [String] {
        let root = Paths.packageRoot.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") || $0.hasSuffix(".c") || $0.hasSuffix(".h") }
            .map { folder + "/" + $0 }
    }

    /// Every line that branches on the platform outside `allowed`, as "path:line: text".
    static func violations() throws -> [String] {
        var found: [String] = []
        for path in files(under: "Sources") + files(under: "Tests") + files(under: "Fuzz/Sources") + ["Package.swift", "Fuzz/Package.swift"] {
            if allowed.contains(where: { path.hasPrefix($0) }) { continue }
            let text = try String(contentsOf: Paths.packageRoot.appendingPathComponent(path), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let isBranch = path.hasSuffix(".swift") ? line.contains(swiftBranch) : line.contains(cBranch)
                if isBranch { found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
            }
        }
        return found
    }

    @Test("no file outside Sources/Platform branches on the platform")
    func platformBranchesLiveInOneModule() throws {
        let found = try Self.violations()
        #expect(found.isEmpty, "platform branches outside Sources/Platform:\n\(found.joined(separator: "\n"))")
    }

    /// The scan finds what it looks for (a scan that matches nothing would pass vacuously): the
    /// platform module has its branches, and the FoundationEssentials guards are not counted.
    @Test func theScanSeesBranchesAndIgnoresFoundationGuards() throws {
        let platform = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Sources/Platform/CLibrary.swift"), encoding: .utf8)
        #expect(platform.split(separator: "\n").filter { $0.contains(Self.swiftBranch) }.count >= 3)
        #expect("#if canImport(Darwin)".contains(Self.swiftBranch))
        #expect("    #elseif os(Linux)".contains(Self.swiftBranch))
        #expect(!"#if canImport(FoundationEssentials)".contains(Self.swiftBranch))
        #expect("#if defined(__APPLE__)".contains(Self.cBranch))
        #expect(Self.files(under: "Fuzz/Sources").contains("Fuzz/Sources/FuzzSupport/FuzzSupport.swift"))
    }
}
