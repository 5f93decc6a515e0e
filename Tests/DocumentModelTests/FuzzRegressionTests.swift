import ASN1Lenient
import DocumentModel
import Foundation
import ReceiptKit
import Testing
import TestSupport

/// The document fuzz target's findings, replayed as the target runs them: loaded like a command
/// loads a file, opened with validation, and every layer's diagnostics inside that layer's bytes.
@Suite struct FuzzRegressionTests {
    static let directory = Paths.packageRoot.appendingPathComponent("Fuzz/regressions")
    static let inputs: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasPrefix("receipt-") }.sorted()

    @Test func theJWSFindingsAreAmongTheReplayedInputs() {
        #expect(Self.inputs.contains("receipt-jws-x5c-diagnostic-range.bin"))
        #expect(Self.inputs.contains("receipt-jws-alg-control-characters.bin"))
    }

    @Test(arguments: inputs) func everyLayerKeepsItsDiagnosticsInside(_ name: String) throws {
        let raw = try Paths.bytes(Self.directory.appendingPathComponent(name))
        let input = try InputLoader.decode(raw, name: name)
        let document = Document.open(input, options: AnalysisOptions(validate: true), reading: .always)
        // Written as it is by every command (see `Document.note`): nothing in it a terminal acts on.
        #expect(!document.note.unicodeScalars.contains(where: TerminalSafe.mustEscape), "\(name): \(document.note.debugDescription)")
        for layer in document.layers {
            for d in layer.content.diagnostics {
                #expect(d.offset >= 0 && d.length >= 0 && d.offset + d.length <= layer.bytes.count,
                        "\(name): \(layer.name) (\(layer.bytes.count) bytes): \(d.code) at \(d.offset)+\(d.length)")
            }
        }
    }

    /// FuzzRedact (CI smoke run, 2026-11-27): text the loader finds no data in became a document
    /// whose one layer had a tree with no nodes over 240 bytes, breaking the coverage invariant
    /// every layer keeps. Its tree is now one unparsed region over every byte.
    @Test func textWithoutDataIsCoveredByOneUnparsedRegion() throws {
        let name = "redact-text-layer-coverage.bin"
        let raw = try Paths.bytes(Self.directory.appendingPathComponent(name))
        let document = Document.open(try InputLoader.decode(raw, name: name), options: AnalysisOptions(validate: false))
        #expect(document.kind == .text)
        let tree = try #require(document.layers.first?.tree)
        #expect(tree.coverageViolations() == [])
        #expect(tree.roots == [0])
        #expect(tree[0].kind == .unparsed)
        #expect(tree[0].byteRange == 0..<240)
        #expect(tree.diagnostics.map(\.code.rawValue) == ["input-unrecognized-text"])
    }
}
