import Foundation
import Testing
import TestSupport

/// The kind seam on the sources (issue 30, item 5): what each kind's folder in DocumentFormats
/// declares (its top-level types, and the model it keeps in `Document.model`: `extension X: KindModel`)
/// and which `DocumentKind` cases exist are read from the sources; then every file outside the
/// kinds' folders is searched for them. Nothing here is a hand-kept list of names.
enum KindSeamScan {
    struct Use: CustomStringConvertible, Hashable {
        var file: String
        var line: Int
        var name: String
        var kind: String
        var description: String { "\(file):\(line) names \(name) (\(kind))" }
    }

    /// Every Swift file under Sources/, as a path relative to the package root.
    static func sourceFiles() throws -> [String] {
        let sources = Paths.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        return files.filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/" + $0 }
    }

    static func read(_ file: String) throws -> String {
        try String(contentsOf: Paths.packageRoot.appendingPathComponent(file), encoding: .utf8)
    }

    /// The module of the kinds: one folder per kind directly under it.
    static let formatsModule = "Sources/DocumentFormats"

    /// "Sources/DocumentFormats/<Kind>" for a file in a kind's folder; nil otherwise.
    static func kindFolder(_ file: String) -> String? {
        let parts = file.split(separator: "/").map(String.init)
        guard parts.count > 3, parts[0...1].joined(separator: "/") == formatsModule else { return nil }
        return parts[...2].joined(separator: "/")
    }

    /// The files that may name every kind: the registry's list of formats (beside the kinds' folders)
    /// and the kinds' declaration (in DocumentCore, which every module that names a kind imports).
    static let registryFiles = [formatsModule + "/FormatList.swift", "Sources/DocumentCore/Registry/DocumentKind.swift"]

    static func isOutside(_ file: String) -> Bool {
        kindFolder(file) == nil && !registryFiles.contains(file)
    }

    static let declaration = try! NSRegularExpression(
        pattern: #"^(?:@\w+\s+)*(?:(?:public|internal|fileprivate|private|final|indirect|package)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+([A-Z]\w*)"#,
        options: [.anchorsMatchLines])
    static let modelConformance = try! NSRegularExpression(pattern: #"^extension\s+([A-Z]\w*)\s*:\s*KindModel\b"#, options: [.anchorsMatchLines])

    /// The kinds' own types: top-level declarations in a kind's folder (its format type, which the
    /// registry lists, aside) and the models kept opaque in `Document.model`, each with its folder.
    static func kindTypes(_ files: [String]) throws -> [String: String] {
        var types: [String: String] = [:]
        for file in files {
            guard let folder = kindFolder(file) else { continue }
            let text = try read(file)
            let whole = NSRange(text.startIndex..., in: text)
            for match in modelConformance.matches(in: text, range: whole) {
                types[String(text[Range(match.range(at: 1), in: text)!])] = folder
            }
            for match in declaration.matches(in: text, range: whole) {
                let line = text[Range(match.range, in: text)!.lowerBound...].prefix { $0 != "\n" }
                if line.contains(": DocumentFormat") { continue }
                let name = String(text[Range(match.range(at: 1), in: text)!])
                if types[name] == nil { types[name] = folder }
            }
        }
        return types
    }

    /// `DocumentKind`'s cases, from its declaration.
    static func kindCases(_ files: [String]) throws -> [String] {
        let file = try #require(files.first { $0 == registryFiles[1] })
        let text = try read(file)
        let start = try #require(text.range(of: "public enum DocumentKind"))
        let body = text[start.lowerBound...]
        let caseLine = try NSRegularExpression(pattern: #"^\s*case\s+(\w+)"#, options: [.anchorsMatchLines])
        let end = body.range(of: "\n    public var ")?.lowerBound ?? body.endIndex
        let cases = String(body[..<end])
        return caseLine.matches(in: cases, range: NSRange(cases.startIndex..., in: cases)).map {
            String(cases[Range($0.range(at: 1), in: cases)!])
        }
    }

    /// A line's code: without its `//` comment and with string literals emptied.
    static func code(_ line: Substring) -> String {
        var out = "", inString = false, escaped = false
        var previous: Character = " "
        for ch in line {
            if inString {
                if escaped { escaped = false } else if ch == "\\" { escaped = true } else if ch == "\"" { inString = false; out.append(ch) }
            } else if ch == "/" && previous == "/" {
                out.removeLast()
                break
            } else {
                if ch == "\"" { inString = true }
                out.append(ch)
            }
            previous = ch
        }
        return out
    }

    /// Every use outside the kinds' folders of a kind's type or of a `DocumentKind` case, in every
    /// module that can name one (the kinds' modules, ReceiptKit and JWSKit, have their own enums).
    static func usesOutsideFolders() throws -> [Use] {
        let files = try sourceFiles()
        let types = try kindTypes(files)
        let cases = try kindCases(files)
        // The modules that can name them: the one that declares the kinds, and those that import it.
        let kinds = try #require(files.first { $0 == registryFiles[1] })
        let module = kinds.split(separator: "/")[1]
        return try files.filter(isOutside).flatMap { file -> [Use] in
            let text = try read(file)
            guard file.split(separator: "/")[1] == module || text.contains("import \(module)\n") else { return [] }
            return try uses(in: text, file: file, types: types, cases: cases)
        }
    }

    /// The uses in one file's text of a kind's type, or of a `DocumentKind` case: named as
    /// `DocumentKind.x`, compared (`kind == .x`, `kind != .x`) or matched in a `switch` over a kind.
    static func uses(in text: String, file: String, types: [String: String], cases: [String]) throws -> [Use] {
        let typePattern = try NSRegularExpression(pattern: #"\b("# + types.keys.sorted().joined(separator: "|") + #")\b"#)
        let alternatives = cases.joined(separator: "|")
        let casePattern = try NSRegularExpression(pattern: #"(?:DocumentKind\s*\.\s*|\bkind\s*[!=]=\s*\.)("# + alternatives + #")\b"#)
        let switchCase = try NSRegularExpression(pattern: #"^\s*case\s+\.("# + alternatives + #")\b"#)
        let switchOverKind = try NSRegularExpression(pattern: #"\bswitch\s+[\w.]*\bkind\s*\{"#)
        var uses: [Use] = []
        var inKindSwitch = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = code(line)
            let range = NSRange(code.startIndex..., in: code)
            func name(_ match: NSTextCheckingResult) -> String { String(code[Range(match.range(at: 1), in: code)!]) }
            if code.contains("switch ") { inKindSwitch = switchOverKind.firstMatch(in: code, range: range) != nil }
            for match in typePattern.matches(in: code, range: range) {
                let type = name(match)
                uses.append(Use(file: file, line: number + 1, name: type, kind: types[type]!.components(separatedBy: "/").last!))
            }
            for match in casePattern.matches(in: code, range: range) {
                uses.append(Use(file: file, line: number + 1, name: "." + name(match), kind: "DocumentKind"))
            }
            if inKindSwitch, let match = switchCase.firstMatch(in: code, range: range) {
                uses.append(Use(file: file, line: number + 1, name: "." + name(match), kind: "DocumentKind"))
            }
        }
        return uses
    }
}
