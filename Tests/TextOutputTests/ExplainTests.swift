import Foundation
import Testing
import TestSupport
@testable import ASN1Lenient
@testable import TextOutput

/// The teaching listing: exact lines and exact byte ranges for hand-built elements.
@Suite struct ExplainTests {
    static func der(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { $0.isHexDigit })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    func texts(_ lines: [ExplanationLine]) -> [String] { lines.map { "\($0.section.rawValue): \($0.text)" } }

    @Test func sequenceBitByBit() {
        let tree = ASN1Parser.parse(Self.der("30 0D 02 01 05 06 03 55 04 03 0C 03 61 62 63"))
        let lines = Explainer.explain(tree, node: 0)
        #expect(texts(lines) == [
            "heading: SEQUENCE at offset 0 (depth 0, 15 bytes)",
            "bytes: 30 0D 02 01 05 06 03 55 04 03 0C 03 61 62 63",
            "identifier: 0x30 = 0b00110000: class bits 00 → UNIVERSAL; bit 6 = 1 → constructed; tag bits 10000 = 16 → SEQUENCE",
            "length: 0x0D = 0b00001101: bit 8 = 0 → short form: 13 content octets",
            "content: 13 octets holding 3 elements: the SEQUENCE's components, in order",
        ])
        #expect(lines.map(\.range) == [0..<15, 0..<15, 0..<1, 1..<2, 2..<15])
        #expect(lines.allSatisfy { $0.severity == nil })
    }

    @Test func primitiveValues() {
        let tree = ASN1Parser.parse(Self.der("30 0D 02 01 05 06 03 55 04 03 0C 03 61 62 63"))
        #expect(Explainer.explain(tree, node: 1).last?.text == "1 octet: two's-complement big-endian integer: 5")
        #expect(Explainer.explain(tree, node: 2).last?.text
            == "3 octets: object identifier 2.5.4.3 = commonName; the first octet packs the first two arcs as 40 × X + Y, then each arc is base 128")
        #expect(Explainer.explain(tree, node: 3).last?.text == "3 octets: text: \"abc\"")
        #expect(Explainer.explain(tree, node: 3).last?.range == 12..<15)
    }

    @Test func longTagForm() {
        let tree = ASN1Parser.parse(Self.der("9F 81 00 01 05"))
        let lines = Explainer.explain(tree, node: 0)
        #expect(texts(lines) == [
            "heading: [128] at offset 0 (depth 0, 5 bytes)",
            "bytes: 9F 81 00 01 05",
            "identifier: 0x9F = 0b10011111: class bits 10 → CONTEXT-SPECIFIC; bit 6 = 0 → primitive; tag bits 11111 → the tag number follows in long form (base 128, bit 8 = more octets follow)",
            "identifier: 0x81 = 0b10000001: bit 8 = 1 → more octets follow; 7 bits 0000001 → tag number so far 1",
            "identifier: 0x00 = 0b00000000: bit 8 = 0 → last octet; 7 bits 0000000 → tag number 128 → [128] (context-specific: its meaning comes from the enclosing type)",
            "length: 0x01 = 0b00000001: bit 8 = 0 → short form: 1 content octet",
            "content: 1 octet whose type is given by the enclosing definition (implicit tagging): (1 byte) 05",
        ])
        #expect(lines[2].range == 0..<1)
        #expect(lines[3].range == 1..<2)
        #expect(lines[4].range == 2..<3)
        #expect(lines[5].range == 3..<4)
    }

    @Test func longLengthFormAndLongBytes() {
        let tree = ASN1Parser.parse([0x04, 0x82, 0x01, 0x00] + (0..<256).map { UInt8($0) })
        let lines = Explainer.explain(tree, node: 0)
        #expect(texts(lines) == [
            "heading: OCTET STRING at offset 0 (depth 0, 260 bytes)",
            "bytes: 04 82 01 00 00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 … (260 bytes)",
            "identifier: 0x04 = 0b00000100: class bits 00 → UNIVERSAL; bit 6 = 0 → primitive; tag bits 00100 = 4 → OCTET STRING",
            "length: 0x82 = 0b10000010: bit 8 = 1 → long form: the next 2 octets hold the length",
            "length: 01 00 → 256 content octets",
            "content: 256 octets: (256 bytes) 000102030405060708090A0B0C0D0E0F…",
        ])
        #expect(lines[3].range == 1..<2)
        #expect(lines[4].range == 2..<4)
        #expect(lines[5].range == 4..<260)
    }

    @Test func indefiniteLengthEOCAndDiagnostics() {
        let tree = ASN1Parser.parse(Self.der("30 80 04 03 02 01 07 01 01 01 00 00"))
        let lines = Explainer.explain(tree, node: 0)
        #expect(texts(lines) == [
            "heading: SEQUENCE at offset 0 (depth 0, 12 bytes)",
            "bytes: 30 80 04 03 02 01 07 01 01 01 00 00",
            "identifier: 0x30 = 0b00110000: class bits 00 → UNIVERSAL; bit 6 = 1 → constructed; tag bits 10000 = 16 → SEQUENCE",
            "length: 0x80 = 0b10000000: indefinite form (BER only): the content runs to the end-of-contents marker 00 00 at offset 10",
            "content: 8 octets holding 2 elements: the SEQUENCE's components, in order",
            "end-of-contents: 00 00 at offset 10: the end-of-contents marker that closes this indefinite length",
            "diagnostic: der indefinite-length byte 1: indefinite length (0x80): the content ends at an end-of-contents marker",
        ])
        #expect(lines[5].range == 10..<12)
        #expect(lines[6].severity == .notDER)
        #expect(lines[6].range == 1..<2)
        #expect(Explainer.explain(tree, node: 1).last?.text
            == "3 octets: bytes that are themselves DER/BER: it encapsulates 1 element (shown as children)")
        #expect(texts(Explainer.explain(tree, node: 3)).suffix(2) == [
            "content: 1 octet: BOOLEAN TRUE (DER: 0xFF is TRUE, 0x00 is FALSE)",
            "diagnostic: der boolean-value byte 9: BOOLEAN TRUE encoded as 0x01; DER requires 0xFF",
        ])
    }

    @Test func truncatedLengthClaimIsExplained() {
        let tree = ASN1Parser.parse(Self.der("04 82 01 00 41 42"))
        let lines = texts(Explainer.explain(tree, node: 0))
        #expect(lines.contains("length: 01 00 → 256 content octets (only 2 are present)"))
        #expect(lines.contains { $0.hasPrefix("diagnostic: error truncated-content bytes 1-3: ") })
    }

    @Test func unparsedRegion() {
        let tree = ASN1Parser.parse(Self.der("30 05 02 01 01 04 84"))
        let index = tree.deepestNode(containing: 6)!
        #expect(texts(Explainer.explain(tree, node: index)) == [
            "heading: UNPARSED at offset 5 (depth 1, 2 bytes)",
            "bytes: 04 84",
            "content: 2 bytes that cannot be read as identifier, length and content; the diagnostic below says why",
            "diagnostic: error truncated-length bytes 5-6: the length announces 4 length octets but only 0 byte(s) remain before offset 7",
        ])
    }

    @Test func extraDiagnosticsAppearToo() {
        let tree = ASN1Parser.parse(Self.der("02 01 05"))
        let extra = [Diagnostic(severity: .warning, code: TestCode.receiptX.code, message: "odd \u{1B}[2J", offset: 2, length: 1, node: NodeIndex(0))]
        let last = Explainer.explain(tree, node: 0, extra: extra).last
        #expect(last?.text == "warning receipt-x byte 2: odd \\x1b[2J")
        #expect(last?.severity == .warning)
    }

    @Test func hostileTextIsEscaped() {
        let text: [UInt8] = [0x61, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0xE2, 0x80, 0xAE, 0x07]
        let tree = ASN1Parser.parse([0x0C, UInt8(text.count)] + text)
        let rendered = Explainer.render(Explainer.explain(tree, node: 0))
        #expect(rendered.contains("text: \"a\\x1b[31m\\u{202E}\\x07\""))
        #expect(!rendered.utf8.contains { $0 < 0x20 && $0 != 0x0A })
    }

    @Test func renderAlignsSections() {
        let tree = ASN1Parser.parse(Self.der("02 01 05"))
        #expect(Explainer.render(Explainer.explain(tree, node: 0)) == """
            INTEGER at offset 0 (depth 0, 3 bytes)
              bytes            02 01 05
              identifier       0x02 = 0b00000010: class bits 00 → UNIVERSAL; bit 6 = 0 → primitive; tag bits 00010 = 2 → INTEGER
              length           0x01 = 0b00000001: bit 8 = 0 → short form: 1 content octet
              content          1 octet: two's-complement big-endian integer: 5

            """)
    }

    @Test
    func everyNodeOfARealReceiptExplains() throws {
        let tree = ASN1Parser.parse(try Paths.sample("typical.receipt"))
        #expect(tree.count > 100)
        for index in tree.nodes.indices {
            let lines = Explainer.explain(tree, node: index)
            #expect(lines.first?.section == .heading)
            for line in lines { if let r = line.range { #expect(r.upperBound <= tree.bytes.count) } }
        }
    }
}
