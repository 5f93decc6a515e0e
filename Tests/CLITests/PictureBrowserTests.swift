import Foundation
import Testing
import TestSupport

/// Debian's `chromium` (or Ubuntu's name for it), when installed.
let chromiumPath: String? = findTool("chromium") ?? findTool("chromium-browser")

/// The pictures in docs/images (kept equal to the explorer's screens by PictureTests) must also look
/// right in a real browser: Scripts/render-pictures.py draws each one with headless Chromium to PNG and
/// checks its size, that it is not blank, and that text and border lines were drawn. Skipped where
/// Debian's `chromium` is not installed (CI installs it with fonts-dejavu-core, the monospace face).
@Suite(.enabled(if: chromiumPath != nil, "chromium is not installed (apt-get install chromium fonts-dejavu-core)"))
struct PictureBrowserTests {

    @Test func everyPictureRendersInChromium() throws {
        let python = try #require(findTool("python3"))
        let script = Paths.packageRoot.appendingPathComponent("Scripts/render-pictures.py").path
        let r = try runProgram(URL(fileURLWithPath: python), [script, "--chromium", try #require(chromiumPath)])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        // One line per picture, each checked: its size, colours, text and borders.
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot.appendingPathComponent("docs/images").path)
            .filter { $0.hasSuffix(".svg") }.sorted()
        #expect(names == ["diff.svg", "lab.svg", "receipt.svg", "timeline.svg", "token.svg"])
        for name in names {
            #expect(r.stdout.contains("\(name): 1188x684, "), "\(name) was not rendered at its size: \(r.stdout)")
            #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix(name + ":") && $0.hasSuffix(": ok") })
        }
    }
}
