import Foundation
import Testing
import TestSupport

/// The manual's shell-completion recipe (docs/manual/install.md), run as written with HOME in a
/// scratch directory: each file lands where the recipe says and holds the script the binary writes
/// for that shell; bash can read the bash one.
@Suite(.enabled(if: cliBinary != nil, "the receipt-explorer binary is not built"))
struct CompletionRecipeTests {
    static func recipe() throws -> String {
        let page = try String(contentsOf: Paths.packageRoot.appendingPathComponent("docs/manual/install.md"), encoding: .utf8)
        let marker = try #require(page.range(of: "<!-- completion-recipe -->\n```sh\n"))
        let end = try #require(page.range(of: "```", range: marker.upperBound..<page.endIndex))
        return String(page[marker.upperBound..<end.lowerBound])
    }

    @Test func completionRecipeInstallsEveryShellsScript() throws {
        let script = try Self.recipe()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("completion-recipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let binaryDirectory = try #require(cliBinary).deletingLastPathComponent().path
        let r = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", script],
                               environment: ["HOME": home.path,
                                             "PATH": binaryDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(r.status == 0, "\(r.stderr)")
        let files = ["bash": ".local/share/bash-completion/completions/receipt-explorer",
                     "zsh": ".zfunc/_receipt-explorer",
                     "fish": ".config/fish/completions/receipt-explorer.fish"]
        for (shell, path) in files {
            let written = try String(contentsOf: home.appendingPathComponent(path), encoding: .utf8)
            #expect(written == (try runCLI(["--generate-completion-script", shell])).stdout, "\(path) is not the \(shell) script")
            #expect(written.contains("receipt-explorer"))
        }
        let bash = try #require(findTool("bash"))
        let syntax = try runProgram(URL(fileURLWithPath: bash), ["-n", home.appendingPathComponent(files["bash"]!).path])
        #expect(syntax.status == 0, "\(syntax.stderr)")
    }
}
