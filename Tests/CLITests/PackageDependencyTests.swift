import Foundation
import Testing
import TestSupport

/// Package.swift says what each target may import and the sources say what it does import: the two
/// are equal, target by target (issue 30), so a dependency is never listed for nothing (ExplorerUI
/// lists neither ReceiptKit nor JWSKit, TerminalAdapter not ASN1Lenient) nor reached through another.
@Suite struct PackageDependencyTests {
    struct Target {
        var name: String
        var folder: String
        var dependencies: Set<String>
    }

    /// Each `.target`, `.executableTarget` and `.testTarget` of Package.swift: its name, its folder
    /// (`path:` or Sources/ / Tests/ by kind) and its dependencies as module names (a product by its
    /// name, a target's `-` as `_`). System libraries and C targets without dependencies are listed too.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try NSRegularExpression(pattern: #"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        let starts = start.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest))
        return try starts.enumerated().map { i, match in
            let kind = String(manifest[Range(match.range(at: 1), in: manifest)!])
            let name = String(manifest[Range(match.range(at: 2), in: manifest)!])
            let end = i + 1 < starts.count ? Range(starts[i + 1].range, in: manifest)!.lowerBound : manifest.endIndex
            let body = String(manifest[Range(match.range, in: manifest)!.upperBound..<end])
            var dependencies: Set<String> = []
            if let list = body.range(of: #"dependencies:\s*\["#, options: .regularExpression) {
                var depth = 1, index = list.upperBound
                while depth > 0, index < body.endIndex {
                    if body[index] == "[" { depth += 1 } else if body[index] == "]" { depth -= 1 }
                    index = body.index(after: index)
                }
                let text = String(body[list.upperBound..<index])
                let product = try NSRegularExpression(pattern: #"\.product\(\s*name:\s*"([^"]+)"[^)]*\)"#)
                let products = product.matches(in: text, range: NSRange(text.startIndex..., in: text))
                var plain = text
                for p in products.reversed() { plain.replaceSubrange(Range(p.range, in: plain)!, with: "") }
                for p in products { dependencies.insert(String(text[Range(p.range(at: 1), in: text)!])) }
                let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
                for q in quoted.matches(in: plain, range: NSRange(plain.startIndex..., in: plain)) {
                    dependencies.insert(String(plain[Range(q.range(at: 1), in: plain)!]).replacingOccurrences(of: "-", with: "_"))
                }
            }
            var folder = (kind == "testTarget" ? "Tests/" : "Sources/") + name
            if let path = body.range(of: #"path:\s*"[^"]+""#, options: .regularExpression) {
                folder = String(body[path].split(separator: "\"")[1])
            }
            return Target(name: name, folder: folder, dependencies: dependencies)
        }
    }

    /// The modules `folder`'s Swift files import that are the package's targets or its dependencies' products.
    static func imports(of folder: String, among known: Set<String>) throws -> Set<String> {
        let root = Paths.packageRoot.appendingPathComponent(folder)
        guard let files = FileManager.default.enumerator(atPath: root.path) else { return [] }
        let importLine = try NSRegularExpression(pattern: #"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|enum|class|protocol|func|var|let|typealias)\s+)?(\w+)"#,
                                                 options: [.anchorsMatchLines])
        var found: Set<String> = []
        for case let file as String in files where file.hasSuffix(".swift") && !file.hasPrefix("Snapshots/") {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for match in importLine.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let module = String(text[Range(match.range(at: 1), in: text)!])
                if known.contains(module) { found.insert(module) }
            }
        }
        return found
    }

    static func systemLibraryNames() throws -> [String] {
        let manifest = try String(contentsOf: Paths.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        return manifest.matches(of: #/\.systemLibrary\(\s*name:\s*"([^"]+)"/#).map { String($0.1) }
    }

    static func hasSwiftSources(_ folder: String) -> Bool {
        let root = Paths.packageRoot.appendingPathComponent(folder)
        guard let files = FileManager.default.enumerator(atPath: root.path) else { return false }
        return files.contains { ($0 as? String)?.hasSuffix(".swift") == true }
    }

    @Test("every target's dependencies in Package.swift are exactly the modules its sources import")
    func dependenciesEqualImports() throws {
        let targets = try Self.targets()
        #expect(targets.count > 20)
        let known = Set(targets.map { $0.name.replacingOccurrences(of: "-", with: "_") }).union(["ArgumentParser"])
        let systemLibraries = Set(try Self.systemLibraryNames())
        for target in targets {
            // A C target imports nothing Swift can see; what it may depend on is a system library for
            // its headers and link (COpenSSL on CLibCrypto, macOS only), nothing else.
            if !Self.hasSwiftSources(target.folder) {
                #expect(target.dependencies.isSubset(of: systemLibraries), "\(target.name) depends on \(target.dependencies.subtracting(systemLibraries).sorted())")
                continue
            }
            let imports = try Self.imports(of: target.folder, among: known)
            #expect(target.dependencies == imports,
                    "\(target.name): listed, not imported \(target.dependencies.subtracting(imports).sorted()); imported, not listed \(imports.subtracting(target.dependencies).sorted())")
        }
    }

    @Test("the explorer lists no kind's module and the terminal adapter no parser")
    func namedBoundaries() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0.dependencies) })
        #expect(targets["ExplorerUI"]?.isDisjoint(with: ["ReceiptKit", "JWSKit"]) == true)
        #expect(targets["TerminalAdapter"]?.contains("ASN1Lenient") == false)
        #expect(targets["receipt-explorer"]?.contains("ArgumentParser") == true)
    }

    /// The document layer's targets (issue 30) list the layers below them only: the core no feature
    /// and no kind, each feature the core and no other feature, the kinds every feature, batch the
    /// core; the explorer lists the features it shows but not the kinds.
    @Test("the document modules list the core and the features along the seams")
    func documentModules() throws {
        let targets = Dictionary(uniqueKeysWithValues: try Self.targets().map { ($0.name, $0.dependencies) })
        let features: Set<String> = ["DocumentDiff", "DocumentTimeline", "DocumentTour", "DocumentRedact"]
        let documents = features.union(["DocumentCore", "DocumentFormats", "DocumentBatch"])
        #expect(targets["DocumentCore"]?.isDisjoint(with: documents) == true)
        for feature in features { #expect(targets[feature]?.intersection(documents) == ["DocumentCore"], "\(feature)") }
        #expect(targets["DocumentFormats"]?.intersection(documents) == features.union(["DocumentCore"]))
        #expect(targets["DocumentBatch"]?.intersection(documents) == ["DocumentCore"])
        #expect(targets["ExplorerUI"]?.contains("DocumentFormats") == false)
        #expect(targets["receipt-explorer"]?.isSuperset(of: ["DocumentFormats", "DocumentBatch"]) == true)
    }
}
