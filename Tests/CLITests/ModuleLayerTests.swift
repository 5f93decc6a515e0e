import Foundation
import Testing
import TestSupport

/// docs/architecture.md's promise, checked on the sources: each target imports only targets to its
/// left, so that the walk from `receipt-explorer FILE` enters each module once, left to right.
@Suite struct ModuleLayerTests {
    /// Package.swift's layer comment, left to right.
    static let layers = ["Platform", "ByteText", "Threads", "ASN1Lenient", "JSONLenient", "TextLoader", "TextOutput", "ReasonCodes",
                         "X509Trust", "ReceiptKit", "JWSKit", "DocumentModel", "ExplorerUI", "TerminalAdapter", "receipt-explorer"]

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
        #expect(explorer.contains("DocumentModel"))
    }

    @Test func theSharedLeavesImportNothingOfOurs() throws {
        #expect(try Self.imports(of: "Platform").isEmpty)
        #expect(try Self.imports(of: "ByteText").isEmpty)
        #expect(try Self.imports(of: "Threads") == ["Platform"])
        #expect(try Self.imports(of: "ReasonCodes").isEmpty)
    }
}
