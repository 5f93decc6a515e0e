import Foundation
import Platform

/// The OpenSSL 3 command line, for tests that compare with it or make keys and signatures with it.
/// macOS's /usr/bin/openssl is LibreSSL (other `asn1parse` lines, other options), so Homebrew's
/// keg-only openssl@3 is looked for first there; `OPENSSL=/path` chooses one outright. A test that
/// needs it is skipped with `missingReason` when there is none.
public enum OpenSSLTool {
    public static let path: String? = {
        var candidates: [String] = []
        if let chosen = ProcessInfo.processInfo.environment["OPENSSL"], !chosen.isEmpty { candidates.append(chosen) }
        candidates += ["/opt/homebrew/opt/openssl@3/bin/openssl", "/usr/local/opt/openssl@3/bin/openssl",
                       "/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl", "/opt/homebrew/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) && version(of: $0)?.hasPrefix("OpenSSL 3") == true }
    }()

    public static let missingReason = "needs the OpenSSL 3 command line (macOS's /usr/bin/openssl is LibreSSL: brew install openssl@3, or set OPENSSL)"

    /// `openssl version`'s first line.
    static func version(of tool: String) -> String? {
        let output = NSTemporaryDirectory() + "openssl-version-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(output) }
        guard (try? Spawn.run(tool, ["version"], environment: ProcessInfo.processInfo.environment, outputPath: output).get()) == 0,
              let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first.map(String.init)
    }
}
