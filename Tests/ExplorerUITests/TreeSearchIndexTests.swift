import Foundation
import Testing
import ASN1Lenient
import ReceiptKit
import TestSupport
@testable import ExplorerUI

/// `TreeSearchIndex` (what `/` scans on a node tree) against a plain scan of the same nodes: the
/// tree's per-node test (`Search.scan`) and the receipt's fields read one by one through
/// ReceiptKit's public API, as the explorer searched them before the index.
@Suite struct TreeSearchIndexTests {
    static let queries = [
        "integer", "SEQUENCE", "octet", "set", "[0]", "[application 1]", "[private 2]", "[universal 40]", "unparsed", "utf8string",
        "com.example", "COINS", "coins500", "receiptexplorer.pro", "2000000500000003", "2000000500", "200", "-", "-5", "-9223372036854775808",
        "1", "0", "12+", "bundle", "bundle id", "product id", "transaction", "in-app purchase", "expires", "2024-01-08", "t12:00",
        "true", "false", "1.2.840", "sha256", "pkcs", "signeddata", "pwned", "\u{1b}", "red", "\\", "é", "ü", "e", "zzz-nothing",
        "18446744073709551616", "123456789012345678901234567890", "0x0102", "0xab", "0x 00 01", "0xzz",
    ]

    /// Every node the explorer must match: the tree's scan and, for a decoded receipt, every field
    /// whose name, label or value holds the query; a value node the scan finds counts as its
    /// field's attribute node (one hit per field) unless its tag name matched.
    static func plainScan(_ query: String, _ s: AppState) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        var hits = Set(Search.scan(needle, hexNeedle: Search.hexNeedle(needle), in: s.tree))
        if let analysis = s.document.receipt, analysis.payloadTree == nil, let receipt = analysis.receipt {
            var fieldOf: [Int: Int] = [:]
            for f in Array(receipt.fields) + receipt.inApp.flatMap({ Array($0.fields) }) {
                for case let v? in [f.valueNode, f.innerNode] where v != f.attributeNode { fieldOf[v] = f.attributeNode }
            }
            hits = Set(hits.map { node in
                let tag = s.tree.nodes[node].kind == .unparsed ? "unparsed" : s.tree.tagName(of: node).lowercased()
                return Search.contains(Array(tag.utf8), needle) ? node : fieldOf[node] ?? node
            })
            func matches(_ f: ReceiptField) -> Bool {
                if Search.contains(ReceiptSchema.displayName(type: f.type, level: f.level), needle)
                    || Search.contains(ReceiptSchema.label(type: f.type, level: f.level), needle) { return true }
                switch f.value {
                case .string(let text), .bigInteger(let text): return Search.contains(text, needle)
                case .integer(let v): return Search.isDecimalQuery(needle) && Search.contains(String(v), needle)
                case .date(let d): return Search.contains(d.text, needle)
                default: return false
                }
            }
            for f in receipt.fields where matches(f) { hits.insert(f.attributeNode) }
            for p in receipt.inApp {
                for f in p.fields where matches(f) { hits.insert(f.attributeNode) }
            }
        } else if let overlay = s.additions {
            for node in Set(overlay.meanings.keys).union(overlay.searchableNodes) {
                guard let m = overlay.meaning(of: node) else { continue }
                if [m.label, m.fieldName ?? "", m.decodedValue ?? "", m.rawDate ?? ""].contains(where: { Search.contains($0, needle) }) {
                    hits.insert(node)
                }
            }
        }
        return hits.filter { $0 >= 0 && $0 < s.tree.count }.sorted()
    }

    /// The file tree's matches from its `TreeSearchIndex` (with the receipt's entries), as the
    /// outline's file layer searches it.
    static func indexed(_ query: String, in s: AppState) -> [Int] {
        let needle = Array(query.lowercased().utf8)
        guard !needle.isEmpty else { return [] }
        let index = TreeSearchIndex(tree: s.tree, entries: s.additions?.searchEntries() ?? SearchEntries())
        return Search.nodes(matching: needle, in: s.tree, index: index)
    }

    static func expectSame(_ s: AppState, _ name: String) {
        for query in queries {
            let indexed = Self.indexed(query, in: s)
            let plain = plainScan(query, s)
            #expect(indexed == plain, "\(name): \"\(query)\": \(indexed.count) vs \(plain.count) hits")
        }
    }

    static let sampleFiles = [
        "typical.receipt", "minimal.receipt", "unlisted-attributes.receipt", "xcode-ber.receipt", "malformed-bad-date.receipt",
        "malformed-duplicate-attribute.receipt", "malformed-hostile-strings.receipt", "malformed-indefinite-in-payload.receipt",
        "malformed-invalid-utf8.receipt", "malformed-length-past-parent.receipt", "malformed-missing-required.receipt",
        "malformed-no-receipt-oid.receipt", "malformed-non-minimal-length.receipt", "malformed-truncated.receipt",
        "malformed-trailing-bytes.receipt", "malformed-wrong-type.receipt",
    ]

    @Test func indexEqualsThePlainScanOnEverySample() throws {
        for file in Self.sampleFiles {
            let s = try #require(Fixtures.sampleState(file), "samples/\(file)")
            Self.expectSame(s, file)
        }
    }

    /// Every kind of value the index handles on its own: strings of each type (upper case, a
    /// control character, non-ASCII, invalid UTF-8), BMP and Universal strings, INTEGERs of 1, 8,
    /// 9, 64 and 65 octets, negative and not minimal and empty, ENUMERATED, OIDs known and not,
    /// BOOLEANs, OCTET STRINGs plain, encapsulating and over 4,096 bytes, BIT STRING, context,
    /// application and private tags, a universal tag above 30, and an unparsed tail.
    static let crafted: [UInt8] = {
        let long = [UInt8](repeating: 0x61, count: 4097)
        return DER.seq(
            DER.utf8("Com.Example\u{7}Tail é"), DER.ia5("MiXeD 12+"), DER.tlv(0x13, Array("Printable".utf8)),
            DER.tlv(0x0C, [0x61, 0xC3, 0x28, 0x62]),                          // invalid UTF-8
            DER.tlv(0x1E, [0x00, 0x42, 0x00, 0xFC]),                          // BMPString "Bü"
            DER.tlv(0x1C, [0x00, 0x00, 0x00, 0x5A]),                          // UniversalString "Z"
            DER.tlv(0x02, [0x05]), DER.tlv(0x02, [0xFB]), DER.tlv(0x02, [0x00, 0x80]), DER.tlv(0x02, []),
            DER.tlv(0x02, [0x80, 0, 0, 0, 0, 0, 0, 0]), DER.tlv(0x02, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            DER.tlv(0x02, [0x01, 0, 0, 0, 0, 0, 0, 0, 0]),                    // 2^64: 9 octets
            DER.tlv(0x02, [0x19] + [UInt8](repeating: 0x99, count: 63)), DER.tlv(0x02, [0x01] + [UInt8](repeating: 0, count: 64)),
            DER.tlv(0x0A, [0xFF, 0xFF]),
            DER.oid([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]), DER.oid([0x2B, 0x06, 0x01, 0x04, 0x01, 0x7F]), DER.oid([0x80]),
            DER.tlv(0x01, [0x00]), DER.tlv(0x01, [0xFF]), DER.tlv(0x01, []),
            DER.octets(Array("Octet TEXT \u{1b}[31m".utf8)), DER.octets(DER.seq(DER.int(7), DER.utf8("inner"))), DER.octets(long),
            DER.tlv(0x03, [0x00, 0x01, 0x02]),
            DER.tlv(0xA0, DER.int(-5)), DER.tlv(0x41, Array("app".utf8)), DER.tlv(0xC2, [0x01]), [0x1F, 0x28, 0x01, 0x00],
            DER.tlv(0x31, [])
        ) + [0x30, 0x80, 0x02]
    }()

    @Test func indexEqualsThePlainScanOnCraftedValues() {
        let s = Fixtures.state(Self.crafted, name: "crafted.der")
        #expect(s.tree.nodes.contains { $0.kind == .unparsed })
        Self.expectSame(s, "crafted")
        // Spot checks of what the scan finds, so that "equal" is not two empty lists.
        #expect(Self.indexed("-5", in: s).count == 1 && Self.indexed("[0]", in: s).count == 1)
        #expect(Self.indexed("18446744073709551616", in: s).count == 1)   // the 9-octet INTEGER through IntegerValue
        #expect(Self.indexed("-9223372036854775808", in: s).count == 1)   // the 8-octet one through the fast path
        #expect(Self.indexed("com.example", in: s).count == 1 && Self.indexed("inner", in: s).count == 1)
    }

    @Test func decimalsWrittenWithoutStringsEqualIntegerValueDecimal() {
        let contents: [[UInt8]] = [[0x00], [0x7F], [0x80], [0xFF], [0x00, 0x80], [0xFF, 0x7F], [0x01, 0x00],
                                   [0x80, 0, 0, 0, 0, 0, 0, 0], [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                                   [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x0A, 0xA8, 0x7B, 0xEE, 0x53, 0x80, 0x00]]
        for content in contents {
            let value = content.withUnsafeBufferPointer { TreeSearchIndex.signedValue($0) }
            var text = SearchText(fieldsPerRow: 1)
            text.append(decimal: value)
            #expect(text.bytes == Array(IntegerValue.decimal(content).utf8) + [SearchText.separator], "\(content)")
        }
        var text = SearchText(fieldsPerRow: 1)
        for value: Int64 in [0, -1, 42, .min, .max] { text.append(decimal: value) }
        #expect(String(decoding: text.bytes.filter { $0 != SearchText.separator }, as: UTF8.self) == "0-142-92233720368547758089223372036854775807")
        #expect(text.rowEnds == [2, 5, 8, 29, 49])
    }

    @Test func mergeKeepsOrderAndDropsDuplicates() {
        #expect(TreeSearchIndex.mergeUnique([1, 3, 3, 7], [0, 3, 8, 8]) == [0, 1, 3, 7, 8])
        #expect(TreeSearchIndex.mergeUnique([], [2]) == [2] && TreeSearchIndex.mergeUnique([4], []) == [4])
    }

    /// Made on the first search, once, and shared by copies of the state (the cache is).
    @Test func theIndexIsMadeOnTheFirstSearchAndKept() throws {
        var s = try #require(Fixtures.sampleState("typical.receipt"))
        #expect(!s.outline.store.hasSearchIndex)
        press(&s, .down)
        #expect(!s.outline.store.hasSearchIndex, "no key but Enter in the search prompt makes it")
        let copy = s
        press(&s, .character("/"))
        type(&s, "coins")
        press(&s, .enter)
        #expect(s.outline.store.hasSearchIndex && copy.outline.store.hasSearchIndex)
    }
}
