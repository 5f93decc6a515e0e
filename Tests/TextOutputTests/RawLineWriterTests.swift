import Testing
import TestSupport
@testable import ASN1Lenient
@testable import TextOutput

/// The tree and json dumps write common values straight from the input; these pin that text to
/// the general implementation (`ValueText.summary`, `JSONDump.value`) on the edge cases, and the
/// `explain` element cap.
@Suite struct RawLineWriterTests {
    /// One element of each shape the fast paths handle, plus neighbours that must fall back.
    static let shapes: [UInt8] = DER.seq(
        DER.tlv(0x02, [0x00]), DER.tlv(0x02, [0xFF]), DER.tlv(0x02, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
        DER.tlv(0x02, [0x80, 0, 0, 0, 0, 0, 0, 0]), DER.tlv(0x02, [0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]),
        DER.tlv(0x0A, [0x05]), DER.tlv(0x01, [0x00]), DER.tlv(0x01, [0x01]), DER.tlv(0x01, [0x01, 0x02]),
        DER.utf8(""), DER.utf8("say \"hi\" \\ bye"), DER.utf8("héllo"), DER.utf8("a\u{1B}[2Jb"),
        DER.utf8(String(repeating: "q", count: 65)), DER.ia5("2024-01-02T03:04:05Z"),
        DER.tlv(0x13, Array("AB".utf8)), DER.tlv(0x1A, [0x41, 0x0A]),
        DER.octets([]), DER.octets([0x41]), DER.octets(Array("a\"b\\c".utf8)), DER.octets([0x00, 0x41]),
        DER.octets([UInt8](repeating: 0x61, count: 33)), DER.octets([UInt8](repeating: 0xAB, count: 1_234)),
        DER.octets(DER.int(7)), DER.tlv(0x80, [0x01, 0x02]), DER.tlv(0x05, []), DER.tlv(0x03, [0x00, 0xFF])
    )

    /// The element lines (not the diagnostic lines under them), one per node here (no EOC).
    static func nodeLines(_ tree: Tree) -> [Substring] {
        TreeDump.render(tree, options: TreeDump.Options(decorations: false)).split(separator: "\n").filter {
            $0.count > 6 && $0[$0.index($0.startIndex, offsetBy: 5)].isNumber
        }
    }

    @Test func everyTreeLineEndsInTheGeneralValueText() {
        let tree = ASN1Parser.parse(Self.shapes)
        let lines = Self.nodeLines(tree)
        #expect(lines.count == tree.count)
        for index in 0..<tree.count {
            var value = ValueText.summary(tree, index)
            if tree[index].isEncapsulated { value += value.isEmpty ? "encapsulates:" : ", encapsulates:" }
            let expected = "  " + String(repeating: "  ", count: Int(tree[index].depth)) + tree.tagName(of: index) + (value.isEmpty ? "" : " " + value)
            #expect(lines[index].hasSuffix(expected), "node \(index): \(lines[index])")
        }
    }

    @Test func exactLinesForEscapesCutsAndSigns() {
        let tree = ASN1Parser.parse(Self.shapes)
        let lines = Self.nodeLines(tree)
        #expect(lines[3] == "    10   2       8    INTEGER 9223372036854775807")
        #expect(lines[4] == "    20   2       8    INTEGER -9223372036854775808")
        #expect(lines[11] == "    56   2      14    UTF8String \"say \\\"hi\\\" \\\\ bye\"")
        #expect(lines[13] == "    80   2       6    UTF8String \"a\\x1b[2Jb\"")
        #expect(lines[20] == "   190   2       5    OCTET STRING (5 bytes) 6122625C63 \"a\\\"b\\\\c\"")
        #expect(lines[23].hasSuffix("OCTET STRING (1,234 bytes) " + String(repeating: "AB", count: 32) + "…"))
    }

    @Test func colourCodesAroundColumnsAndTags() {
        let tree = ASN1Parser.parse(DER.seq(DER.int(5)))
        #expect(TreeDump.render(tree, options: TreeDump.Options(color: true, decorations: false)) == """
            \u{1B}[2m     0   2       3  \u{1B}[0m\u{1B}[1mSEQUENCE\u{1B}[0m
            \u{1B}[2m     2   2       1  \u{1B}[0m  \u{1B}[1mINTEGER\u{1B}[0m 5

            """)
    }

    @Test func jsonNodesMatchTheGeneralValueWriter() {
        let tree = ASN1Parser.parse(Self.shapes)
        let json = JSONDump.render(tree)
        for index in 0..<tree.count where !tree[index].isConstructed {
            var general = TextBuffer()
            JSONDump.value(tree, index, tree[index], &general)
            let fragment = String(decoding: general.bytes, as: UTF8.self)
            #expect(json.contains("\"tag_number\": \(tree[index].tagNumber), \"encapsulated\": \(tree[index].isEncapsulated), \"kind\": \"tlv\"\(fragment)}"),
                    "node \(index): \(fragment)")
        }
        #expect(json.contains("\"value_type\": \"string\", \"value\": \"say \\\"hi\\\" \\\\ bye\"}"))
        #expect(json.contains("\"value_type\": \"integer\", \"value\": \"-9223372036854775808\"}"))
    }

    @Test func explainStopsAtTheCapAndSaysWhatWasLeftOut() {
        let tree = ASN1Parser.parse(DER.seq(DER.int(1), DER.int(2), DER.tlv(0x05, [0x00])))
        let out = OutputWriter(.memory)
        Explainer.writeAll(tree, cap: 2, to: out)
        let text = out.text
        #expect(text.hasSuffix("""

            # 2 more elements from offset 5 on are not explained (1 diagnostic among them, listed below): \
            the first 2 are; use --offset N for one element, --max-elements 0 for all

            error null-content byte 10: NULL has 1 content octet(s); it must have none

            """))
        #expect(text.components(separatedBy: "INTEGER at offset").count == 2)
        let all = OutputWriter(.memory)
        Explainer.writeAll(tree, cap: nil, to: all)
        #expect(!all.text.contains("not explained"))
        #expect(all.text.contains("NULL at offset 8"))
    }
}
