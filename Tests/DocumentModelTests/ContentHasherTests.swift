import ASN1Lenient
import DocumentCore
@testable import DocumentDiff
import Foundation
import Testing
import TestSupport

/// The diff's content hashes, made when asked (`ContentHasher`), against the definition written
/// out plainly and recursively, on every node of every ASN.1 layer of real trees.
@Suite struct ContentHasherTests {
    /// The definition: a node's tag, then its content octets (a primitive, an unparsed region, a
    /// constructed string's primitive chunks joined), or its elements' hashes in order, or for a
    /// SET their scrambled hashes' sum and xor and their count.
    static func plain(_ tree: Tree, _ index: Int) -> UInt64 {
        let node = tree.nodes[index]
        var h = ContentHash.offsetBasis
        ContentHash.mix(&h, node.kind == .unparsed ? 0xFF : node.tagClass.rawValue)
        ContentHash.mix(&h, word: UInt64(node.tagNumber))
        func chunks(_ parent: Int) {
            for child in tree.children(of: parent) {
                if tree.nodes[child].isConstructed { chunks(child) } else { for byte in tree.content(of: child) { ContentHash.mix(&h, byte) } }
            }
        }
        if node.kind == .unparsed || !node.isConstructed {
            ContentHash.mix(&h, 0)
            for byte in tree.content(of: index) { ContentHash.mix(&h, byte) }
        } else if ContentHash.isStringTag(node) {
            ContentHash.mix(&h, 0)
            chunks(index)
        } else if node.isUniversal(17) {
            let scrambled = tree.children(of: index).map { ContentHash.scramble(plain(tree, $0)) }
            ContentHash.mix(&h, 1)
            ContentHash.mix(&h, word: scrambled.reduce(0, &+))
            ContentHash.mix(&h, word: scrambled.reduce(0, ^))
            ContentHash.mix(&h, word: UInt64(scrambled.count))
        } else {
            ContentHash.mix(&h, 1)
            for child in tree.children(of: index) { ContentHash.mix(&h, word: plain(tree, child)) }
        }
        return h
    }

    /// Every node's hash asked in three orders (first to last, last to first, every 7th node from the
    /// roots on), with subtrees of `rememberedFrom` nodes or more keeping theirs (the first `limit`).
    static func check(_ tree: Tree, rememberedFrom: Int, limit: Int = .max, name: String) {
        let wanted = (0..<tree.count).map { plain(tree, $0) }
        let orders = [Array(0..<tree.count), Array((0..<tree.count).reversed()),
                      tree.roots + (0..<7).flatMap { start in stride(from: start, to: tree.count, by: 7) }]
        for order in orders {
            let hasher = ContentHasher(tree, rememberedFrom: rememberedFrom, largeFrom: .max, limit: limit)
            let got = order.map { hasher.hash($0) }
            let mismatch = zip(order, got).first { wanted[$0.0] != $0.1 }
            #expect(mismatch == nil, "\(name): node \(mismatch?.0 ?? -1)")
        }
    }

    /// The ASN.1 layers' trees of a file (none for one the loader refuses, as a bare API reply).
    static func layerTrees(_ url: URL) -> [Tree] {
        (try? DiffFixtures.open(url))?.layers.compactMap(\.tree) ?? []
    }

    static func files(_ directory: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath && $0.pathExtension != "md" }
            .sorted { $0.path < $1.path }
    }

    /// Every sample (receipts, malformed ones, BER, PKI, tokens' x5c, diff pairs), remembering
    /// nothing and then remembering every constructed node's hash.
    @Test func everyNodeOfEverySampleMatchesThePlainDefinition() {
        let files = Self.files(Paths.samples)
        #expect(files.count > 40)
        var nodes = 0
        for file in files {
            for tree in Self.layerTrees(file) {
                Self.check(tree, rememberedFrom: .max, name: file.lastPathComponent)
                Self.check(tree, rememberedFrom: 2, name: file.lastPathComponent)
                Self.check(tree, rememberedFrom: 2, limit: 5, name: file.lastPathComponent)
                nodes += tree.count
            }
        }
        #expect(nodes > 10_000)
    }

    @Test(.enabled(if: Paths.corpusAvailable))
    func everyNodeOfEveryCorpusReceiptMatchesThePlainDefinition() {
        var trees = 0
        for file in Self.files(Paths.receipts) {
            for tree in Self.layerTrees(file) {
                Self.check(tree, rememberedFrom: 64, name: file.lastPathComponent)
                trees += 1
            }
        }
        #expect(trees >= 12)
    }

    /// A SET of 3,000 SEQUENCEs (9,001 nodes) inside a SEQUENCE beside a chunked OCTET STRING. By
    /// default the root and the SET keep their hashes (the 3-node SEQUENCEs are below 16 nodes); kept
    /// from 3 nodes up with a limit of 10, the first 10 SEQUENCEs do too, and the large ones still.
    @Test func aLargeTreeKeepsItsLargeSubtreesHashesAndALimitedFewSmallerOnes() throws {
        let bytes = DER.seq(DER.wideSet(count: 3_000), DER.hex("24 80 04 02 0102 04 01 03 00 00"), DER.null)
        let tree = ASN1Parser.parse(bytes)
        #expect(tree.count == 9_006)
        Self.check(tree, rememberedFrom: 4096, name: "wide set")
        let hasher = ContentHasher(tree)
        #expect(hasher.hash(0) == Self.plain(tree, 0))
        #expect(hasher.rememberedCount == 2)
        #expect(hasher.hash(1) == Self.plain(tree, 1))
        #expect(hasher.rememberedCount == 2)
        let limited = ContentHasher(tree, rememberedFrom: 3, limit: 10)
        #expect(limited.hash(0) == Self.plain(tree, 0))
        #expect(limited.rememberedCount == 12)
        #expect((0..<tree.count).allSatisfy { limited.hash($0) == Self.plain(tree, $0) })
    }
}
