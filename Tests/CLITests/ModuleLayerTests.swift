import Foundation
import Testing
import TestSupport

/// docs/architecture.md's promise, checked on the sources: each target imports only targets to its
/// left, so that the walk from `receipt-explorer FILE` enters each module once, left to right.
@Suite struct ModuleLayerTests {
    /// Package.swift's layer comment, left to right.
    static let layers = ["Platform", "ByteText", "Threads", "ASN1Lenient", "JSONLenient", "TextLoader", "TextOutput", "ReasonCodes",
                         "X509Trust", "ReceiptKit", "JWSKit", "ServerAPI", "DocumentCore", "DocumentDiff", "DocumentTimeline", "DocumentTour",
                         "DocumentRedact", "DocumentFormats", "DocumentBatch", "ExplorerUI", "TerminalAdapter", "receipt-explorer"]

    /// The document layer's modules (issue 30): the core, each feature over it, the kinds, batch.
    static let features = ["DocumentDiff", "DocumentTimeline", "DocumentTour", "DocumentRedact"]
    static let documentModules = ["DocumentCore"] + features + ["DocumentFormats", "DocumentBatch"]

    /// The project's modules each source file of `target` imports.
    static func imports(of target: String) throws -> Set<String> {
        let folder = Paths.packageRoot.appendingPathComponent("Sources").appendingPathComponent(target)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var found: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let i = words.firstIndex(of: "import"), i + 1 < words.count, layers.contains(String(words[i + 1])) {
                    found.insert(String(words[i + 1]))
                }
            }
        }
        return found
    }

    @Test(arguments: layers)
    func importsOnlyTargetsToItsLeft(_ target: String) throws {
        let position = try #require(Self.layers.firstIndex(of: target))
        let right = try Self.imports(of: target).filter { Self.layers.firstIndex(of: $0)! >= position }
        #expect(right.isEmpty, "\(target) imports \(right.sorted()), which are not to its left")
    }

    /// Only the api commands reach Apple: no document, explorer or terminal code imports the client.
    @Test func onlyTheExecutableImportsServerAPI() throws {
        for target in Self.documentModules + ["ExplorerUI", "TerminalAdapter"] { #expect(!(try Self.imports(of: target)).contains("ServerAPI")) }
        #expect(try Self.imports(of: "receipt-explorer").contains("ServerAPI"))
    }

    /// Receipts and tokens share X.509 trust and the reason vocabulary, not each other.
    @Test func tokensDoNotImportReceipts() throws {
        let tokens = try Self.imports(of: "JWSKit"), receipts = try Self.imports(of: "ReceiptKit")
        #expect(!tokens.contains("ReceiptKit") && !receipts.contains("JWSKit"))
        #expect(tokens.isSuperset(of: ["X509Trust", "ReasonCodes"]) && receipts.contains("X509Trust"))
    }

    /// Issue 19: the explorer is one UI over `Document.layers`; what a kind adds comes from its
    /// format (`Document.explorerAdditions`), so the UI never reads a kind's own module.
    @Test func explorerImportsNoKindModule() throws {
        let explorer = try Self.imports(of: "ExplorerUI")
        #expect(explorer.isDisjoint(with: ["ReceiptKit", "JWSKit"]), "ExplorerUI imports \(explorer.intersection(["ReceiptKit", "JWSKit"]).sorted())")
        #expect(explorer.contains("DocumentCore") && !explorer.contains("DocumentFormats"), "ExplorerUI asks the core's hooks, never the kinds' module")
    }

    /// Issue 30: the document layer split along its seams. The core imports no feature and no kind;
    /// each feature imports the core and no other feature; the kinds import every feature (they
    /// conform to the features' hooks); batch needs only the core. The registry's list is found at
    /// run time through the kinds' module, so what imports the core alone never names a kind.
    @Test func theDocumentModulesFollowTheSeams() throws {
        let documents = Set(Self.documentModules)
        #expect(try Self.imports(of: "DocumentCore").isDisjoint(with: documents))
        for feature in Self.features {
            #expect(try Self.imports(of: feature).intersection(documents) == ["DocumentCore"], "\(feature) imports another document module")
        }
        #expect(try Self.imports(of: "DocumentFormats").intersection(documents) == Set(["DocumentCore"] + Self.features))
        #expect(try Self.imports(of: "DocumentBatch").intersection(documents) == ["DocumentCore"])
    }

    /// The Swift lines of the files under `Sources/<target>`.
    static func lines(of target: String) throws -> Int {
        let folder = Paths.packageRoot.appendingPathComponent("Sources").appendingPathComponent(target)
        let files = (FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }
        return try files.reduce(0) { total, file in
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            return total + text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        }
    }

    /// Issue 30: no module holds more than a fifth of the code (`wc -l` of every Swift file under Sources/).
    @Test func noModuleOverAFifthOfTheCode() throws {
        let sources = Paths.packageRoot.appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        let sizes = try Dictionary(uniqueKeysWithValues: targets.map { ($0, try Self.lines(of: $0)) })
        let total = sizes.values.reduce(0, +)
        #expect(total > 40_000)
        for (target, size) in sizes.sorted(by: { $0.key < $1.key }) {
            #expect(size * 5 <= total, "\(target): \(size) of \(total) lines")
        }
    }

    @Test func theSharedLeavesImportNothingOfOurs() throws {
        #expect(try Self.imports(of: "Platform").isEmpty)
        #expect(try Self.imports(of: "ByteText").isEmpty)
        #expect(try Self.imports(of: "Threads") == ["Platform"])
        #expect(try Self.imports(of: "ReasonCodes").isEmpty)
    }
}
