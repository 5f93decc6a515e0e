import ASN1Lenient
import DocumentCore
import DocumentRedact
import ReceiptKit
import Foundation
import Testing
import TestSupport

/// `Redactor` on every sample and every corpus file: each copy is written, parses to the same tree
/// and diagnostics as the original, and holds none of the values it replaced, in any encoding.
@Suite struct RedactFileTests {
    @Test(arguments: RedactSupport.samples)
    func sample(_ url: URL) throws { try checkCopy(url) }

    @Test(.enabled(if: Paths.corpusAvailable, "../shared/corpus is missing"), arguments: RedactSupport.corpus)
    func corpusFile(_ url: URL) throws { try checkCopy(url) }

    @Test(.enabled(if: Paths.corpusAvailable))
    func everyFileIsTested() {
        #expect(RedactSupport.samples.count >= 60)
        #expect(RedactSupport.corpus.count >= 30)
    }

    static func shape(_ d: Diagnostic) -> String {
        "\(d.code) \(d.severity) \(d.offset)+\(d.length) node \(d.node?.index ?? -1)"
    }

    func checkCopy(_ url: URL) throws {
        let input = try RedactSupport.input(url)
        let run = try Redactor.run([input], options: RedactSupport.options())
        let copy = try #require(run.copies.first)
        let bytes = try #require(copy.bytes, "\(url.lastPathComponent): \(copy.failure ?? "")")
        let original = Document.open(input.loaded, options: AnalysisOptions(validate: false))
        let redacted = try RedactSupport.open(bytes)

        // Same shape: layers, nodes (tags, offsets, lengths, links) and diagnostics (code, range, node).
        #expect(redacted.layers.count == original.layers.count)
        for (a, b) in zip(original.layers, redacted.layers) {
            let label: Comment = "\(url.lastPathComponent) layer \(a.id.index)"
            #expect(a.bytes.count == b.bytes.count, label)
            #expect(a.role == b.role, label)
            #expect(a.parent == b.parent, label)
            #expect(a.map == b.map, label)
            if let ta = a.tree, let tb = b.tree {
                let nodesA: [Node] = Array(ta.nodes)
                let nodesB: [Node] = Array(tb.nodes)
                #expect(nodesA == nodesB, label)
            }
            if let ja = a.json, let jb = b.json {
                #expect(ja.nodes == jb.nodes, label)
            }
            let da: [String] = a.content.diagnostics.map(Self.shape)
            let db: [String] = b.content.diagnostics.map(Self.shape)
            #expect(da == db, label)
        }
        #expect(DocumentShape(original) == DocumentShape(redacted))
        #expect(copy.nodeCount == DocumentShape(original).nodeCount)

        // No replaced value is left, in any encoding, in the file or any decoded layer.
        let haystacks = try RedactSupport.haystacks(bytes)
        for original in run.occurrences.keys {
            for needle in RedactSupport.needles(original) {
                for (name, haystack) in haystacks {
                    let found = RedactSupport.contains(haystack, needle)
                    let shown = String(decoding: needle, as: UTF8.self)
                    #expect(!found, "\(url.lastPathComponent): \(String(describing: original)) found in \(name) as \(shown)")
                }
            }
            // Its stand-in is there instead (mentions and values alike).
            let standIn = try #require(run.standIns[original])
            #expect(standIn != original)
            #expect(standIn.bytesCount == original.bytesCount)
        }
        // A file with values to replace changed, and says which signatures no longer verify.
        let replaced = copy.replaced.values.reduce(0, +) + copy.mentions
        if replaced > 0 {
            #expect(bytes != input.raw)
            // An external purchase token is unsigned: nothing to break.
            if case .externalPurchaseToken = original.kind {
                #expect(copy.signatures.isEmpty)
            } else {
                #expect(!copy.signatures.isEmpty)
            }
        } else {
            #expect(bytes == input.raw)
        }
    }
}

extension RedactedValue {
    var bytesCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .bytes(let bytes): bytes.count
        }
    }
}
