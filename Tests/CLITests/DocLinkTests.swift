import Foundation
import Testing
import TestSupport

/// The front door and the manual stay navigable: every relative link in README.md and docs/**/*.md
/// points at a file that exists and, with a `#fragment`, at a heading that is there (GitHub's anchor
/// for it); every manual page is reachable from README.md; README stays a front door.
@Suite struct DocLinkTests {
    static let root = Paths.packageRoot

    /// README.md and every Markdown file under docs/, as paths relative to the package root.
    static func markdownFiles() throws -> [String] {
        var files = ["README.md"]
        let docs = root.appendingPathComponent("docs")
        let walker = try #require(FileManager.default.enumerator(atPath: docs.path))
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".md") { files.append("docs/" + path) }
        }
        return files.sorted()
    }

    /// The text outside fenced code blocks and inline code, where a link is a link.
    static func prose(_ text: String) -> String {
        var out: [Substring] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if !fenced { out.append(line) }
        }
        return out.joined(separator: "\n").replacing(#/`[^`\n]*`/#, with: "")
    }

    /// `[text](target)` and `![alt](target)` targets.
    static func links(in text: String) -> [String] {
        prose(text).matches(of: #/\]\(([^)\s]+)\)/#).map { String($0.1) }
    }

    /// GitHub's anchor for a heading: lowercased, punctuation other than `-` and `_` dropped, spaces
    /// as `-`; a repeated heading gets `-1`, `-2`, ….
    static func anchors(in text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, let match = line.wholeMatch(of: #/#{1,6} (.+)/#) else { continue }
            let slug = String(match.1.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
            }.map(Character.init)).replacing(" ", with: "-")
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    static func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// A link target resolved against the file it is in: the package-relative path (standardized) and the fragment.
    static func resolve(_ target: String, from file: String) -> (path: String, fragment: String?) {
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        guard !parts[0].isEmpty else { return (file, fragment) }
        let base = root.appendingPathComponent(file).deletingLastPathComponent()
        let url = base.appendingPathComponent(String(parts[0])).standardized
        let path = url.path.hasPrefix(root.standardized.path + "/") ? String(url.path.dropFirst(root.standardized.path.count + 1)) : url.path
        return (path, fragment)
    }

    @Test func everyRelativeLinkResolves() throws {
        var checked = 0
        for file in try Self.markdownFiles() {
            for target in Self.links(in: try Self.read(file)) where !target.contains("://") && !target.hasPrefix("mailto:") {
                let (path, fragment) = Self.resolve(target, from: file)
                checked += 1
                guard FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path) else {
                    Issue.record("\(file): link \(target): \(path) does not exist")
                    continue
                }
                if let fragment, path.hasSuffix(".md") {
                    #expect(Self.anchors(in: try Self.read(path)).contains(fragment), "\(file): link \(target): no heading for #\(fragment) in \(path)")
                }
            }
        }
        #expect(checked > 100, "only \(checked) links found: is the link pattern still right?")
    }

    @Test func anchorsFollowGitHub() {
        #expect(Self.anchors(in: "# `verify` on developer-signed JWS: `--key`\n## Apple's status names\n## x\n## x\n")
                == ["verify-on-developer-signed-jws---key", "apples-status-names", "x", "x-1"])
    }

    @Test func everyManualPageIsReachableFromTheReadme() throws {
        var reached: Set<String> = []
        var queue = ["README.md"]
        while let file = queue.popLast() {
            guard reached.insert(file).inserted, file.hasSuffix(".md"),
                  FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path) else { continue }
            for target in Self.links(in: try Self.read(file)) where !target.contains("://") {
                queue.append(Self.resolve(target, from: file).path)
            }
        }
        let manual = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs/manual").path)
            .filter { $0.hasSuffix(".md") }
        #expect(manual.count >= 18)
        for page in manual {
            #expect(reached.contains("docs/manual/" + page), "docs/manual/\(page) is not reachable from README.md")
        }
    }

    /// The front door: short, and the two commands a newcomer needs on its first screen.
    @Test func readmeIsAFrontDoor() throws {
        let lines = try Self.read("README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 250, "README.md has \(lines.count) lines; move reference text to docs/manual/")
        let first60 = lines.prefix(60)
        #expect(first60.contains("swift run receipt-explorer"))
        #expect(first60.contains("swift test"))
        #expect(first60.contains { $0.hasPrefix("## Install") } || lines.prefix(80).contains { $0.hasPrefix("## Install") })
    }
}
