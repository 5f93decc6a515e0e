import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient

/// The parser on the real receipts of ../shared/corpus (facts in its MANIFEST.md). Skipped, and
/// shown as skipped, when the corpus is absent.
@Suite(.enabled(if: Paths.corpusAvailable, "../shared/corpus is absent"))
struct CorpusTests {
    /// Every receipt file (not the negative ones), sorted by name.
    static func receiptFiles() -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: Paths.receipts, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "receipt" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Per receipt: file size, node count of a plain parse (encapsulation guessed), and the
    /// number of "der" notes (BER-only features: Xcode receipts use indefinite lengths).
    static let facts: [String: (size: Int, nodes: Int, notDER: Int)] = [
        "production-ios-org.getpure.pure-iphone-2024-02-23-4iap.receipt": (6627, 881, 0),
        "production-macos-com.apple.dt.Xcode-2015-09-22-0iap.receipt": (4703, 428, 0),
        "production-macos-com.mindnode.MindNodePro-2016-02-12-0iap.receipt": (4753, 427, 0),
        "production-net.shinyfrog.bear-2019-09-26-1iap.receipt": (5159, 527, 0),
        "sandbox-com.cocoanetics.EmmiView-2015-05-25-6iap.receipt": (7031, 1003, 0),
        "sandbox-com.hannesoid.PurchasingExperiments-2023-02-22-2iap.receipt": (5618, 656, 0),
        "sandbox-com.revenuecat.sampleapp-2020-07-22-9iap.receipt": (8425, 1332, 0),
        "sandbox-com.sumiapp.GridDiary-2018-01-05-120iap.receipt": (53539, 12427, 0),
        "sandbox-ios-com.mindnode.mindnodetouch-2017-09-11-0iap.receipt": (4769, 432, 0),
        "xcode-ch.protonmail.protonmail-2022-01-07-6iap.receipt": (2556, 386, 14),
        "xcode-com.example.naturelab.backyardbirds.example-2023-10-19-1iap.receipt": (1739, 211, 9),
        "xcode-net.zachariadis.cyclemaps-2020-07-22-1iap.receipt": (1748, 211, 9),
    ]

    @Test func everyCorpusReceiptHasFacts() {
        #expect(Self.receiptFiles().map(\.lastPathComponent) == Self.facts.keys.sorted())
    }

    @Test(arguments: facts.keys.sorted())
    func receiptParsesWithoutErrors(_ name: String) throws {
        let raw = try Paths.corpusReceipt(name)
        let fact = try #require(Self.facts[name])
        #expect(raw.count == fact.size)
        let tree = ASN1Parser.parse(raw)
        #expect(tree.diagnostics.filter { $0.severity == .error }.isEmpty)
        #expect(tree.diagnostics.filter { $0.severity == .notDER }.count == fact.notDER)
        #expect(tree.count == fact.nodes)
        #expect(tree.coverageViolations().isEmpty)
        // One ContentInfo SEQUENCE spanning the file, its contentType OID first.
        #expect(tree.roots == [0])
        #expect(tree[0].byteRange == 0..<raw.count)
        #expect(tree.tagName(of: 0) == "SEQUENCE")
        #expect(tree.tagName(of: 1) == "OBJECT IDENTIFIER")
        // DER: 30 82 LL LL then the OID at 4; Xcode's BER: 30 80 then the OID at 2.
        #expect(tree[1].offset == (name.hasPrefix("xcode") ? 2 : 4))
    }

    @Test func truncatedNegativeReportsTruncationAndKeepsTheRest() throws {
        let raw = try Paths.bytes(Paths.receipts.appendingPathComponent("negative/truncated-sandbox-com.belive.app.ios-456bytes.receipt"))
        #expect(raw.count == 456)
        let tree = ASN1Parser.parse(raw)
        #expect(tree.coverageViolations().isEmpty)
        // The plain parse keeps the outer layers (13 nodes: every one cut short, so each length
        // reports the truncation at its own length octets) and leaves the clamped payload
        // OCTET STRING whole; `ReceiptAnalyzer` parses it on purpose.
        #expect(tree.count == 13)
        #expect(tree.diagnostics.map { "\($0.severity) \($0.code) \($0.offset)+\($0.length)" } == [
            "error truncated-content 1+3", "error truncated-content 16+3", "error truncated-content 20+3",
            "error truncated-content 40+3", "error truncated-content 55+3", "error truncated-content 59+3",
        ])
        #expect(tree.nodes.allSatisfy { $0.end <= 456 })
    }
}
