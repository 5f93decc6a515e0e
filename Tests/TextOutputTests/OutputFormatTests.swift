import Foundation
import Testing
@testable import ByteText
@testable import ASN1Lenient
@testable import TextLoader
@testable import TextOutput

/// The three dump formats and terminal safety, with exact expected lines on hand-built inputs.
@Suite struct OutputFormatTests {
    static func der(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { $0.isHexDigit })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// SEQUENCE { INTEGER 5, OID 2.5.4.3, UTF8String "abc" }
    static let simple = der("30 0D 02 01 05 06 03 55 04 03 0C 03 61 62 63")
    /// BER: SEQUENCE (indefinite) { OCTET STRING encapsulating INTEGER 7, BOOLEAN 01 } EOC,
    /// then a top-level NULL with one content octet (trailing data and an error).
    static let ber = der("30 80 04 03 02 01 07 01 01 01 00 00 05 01 00")

    static func input(_ bytes: [UInt8], _ name: String) -> LoadedInput {
        LoadedInput(bytes: bytes, name: name, encoding: .binary, note: "raw DER/BER, \(bytes.count) bytes")
    }

    // MARK: Tree

    @Test func treeOfASimpleSequence() {
        let tree = ASN1Parser.parse(Self.simple)
        #expect(TreeDump.render(tree, input: Self.input(Self.simple, "a.der")) == """
            # a.der: raw DER/BER, 15 bytes
            offset  hl  length  element
                 0   2      13  SEQUENCE
                 2   2       1    INTEGER 5
                 5   2       3    OBJECT IDENTIFIER 2.5.4.3 (commonName)
                10   2       3    UTF8String "abc"
            # 4 elements; 0 errors, 0 der, 0 warnings, 0 info

            """)
    }

    @Test func treeShowsEncapsulationEOCAndEachDiagnosticUnderItsNode() {
        let tree = ASN1Parser.parse(Self.ber)
        #expect(TreeDump.render(tree) == """
            offset  hl  length  element
                 0   2     inf  SEQUENCE
                                  der indefinite-length byte 1: indefinite length (0x80): the content ends at an end-of-contents marker
                 2   2       3    OCTET STRING (3 bytes), encapsulates:
                 4   2       1      INTEGER 7
                 7   2       1    BOOLEAN TRUE
                                    der boolean-value byte 9: BOOLEAN TRUE encoded as 0x01; DER requires 0xFF
                10   2       0    EOC
                12   2       1  NULL
                                  error null-content byte 14: NULL has 1 content octet(s); it must have none
            warning trailing-data bytes 12-14: 3 byte(s) follow the top-level element, which ends at offset 12
            # 5 elements; 1 error, 2 der, 1 warning, 0 info

            """)
    }

    @Test func treeWithoutDecorations() {
        let tree = ASN1Parser.parse(Self.simple)
        #expect(TreeDump.render(tree, options: TreeDump.Options(decorations: false)) == """
                 0   2      13  SEQUENCE
                 2   2       1    INTEGER 5
                 5   2       3    OBJECT IDENTIFIER 2.5.4.3 (commonName)
                10   2       3    UTF8String "abc"

            """)
    }

    @Test func laterLayerDiagnosticsAreMergedUnderTheirNodes() {
        var tree = ASN1Parser.parse(Self.simple)
        tree.append([
            Diagnostic(severity: .warning, code: TestCode.receiptTest.code, message: "about the string", offset: 12, length: 3, node: NodeIndex(3)),
            Diagnostic(severity: .info, code: TestCode.receiptNote.code, message: "about nothing", offset: 0, length: 0, node: nil),
            Diagnostic(severity: .error, code: TestCode.receiptBadNode.code, message: "index out of range", offset: 1, length: 1, node: NodeIndex(99)),
        ])
        let text = TreeDump.render(tree, options: TreeDump.Options(decorations: false))
        #expect(text == """
                 0   2      13  SEQUENCE
                 2   2       1    INTEGER 5
                 5   2       3    OBJECT IDENTIFIER 2.5.4.3 (commonName)
                10   2       3    UTF8String "abc"
                                    warning receipt-test bytes 12-14: about the string
            info receipt-note at 0: about nothing
            error receipt-bad-node byte 1: index out of range

            """)
        #expect(JSONDump.render(tree).contains(#"{"severity": "warning", "code": "receipt-test", "offset": 12, "length": 3, "message": "about the string", "node": 3}"#))
    }

    @Test func colourWrapsSeveritiesAndTagsOnly() {
        let tree = ASN1Parser.parse(Self.ber)
        let coloured = TreeDump.render(tree, options: TreeDump.Options(color: true))
        #expect(coloured.contains("\u{1B}[1;31merror\u{1B}[0m \u{1B}[1mnull-content\u{1B}[0m byte 14"))
        #expect(coloured.contains("\u{1B}[33mder\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[35mwarning\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[1mSEQUENCE\u{1B}[0m"))
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == TreeDump.render(tree))
        #expect(!TreeDump.render(tree).contains("\u{1B}"))
    }

    @Test func colourChoice() {
        #expect(ColorChoice.auto.enabled(outputIsTerminal: true, environment: [:]))
        #expect(!ColorChoice.auto.enabled(outputIsTerminal: false, environment: [:]))
        #expect(!ColorChoice.auto.enabled(outputIsTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(ColorChoice.auto.enabled(outputIsTerminal: true, environment: ["NO_COLOR": ""]))
        #expect(ColorChoice.always.enabled(outputIsTerminal: false, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.enabled(outputIsTerminal: true, environment: [:]))
    }

    @Test func longValuesAreCut() {
        let text = String(repeating: "x", count: 100)
        let octets = [UInt8](repeating: 0xAB, count: 40)
        let content = [0x0C, 0x64] + Array(text.utf8) + [0x04, 0x28] + octets
        let tree = ASN1Parser.parse([0x30, 0x81, UInt8(content.count)] + content)
        #expect(tree.diagnostics.isEmpty)
        let lines = TreeDump.render(tree, options: TreeDump.Options(decorations: false)).split(separator: "\n")
        #expect(lines[1].hasSuffix("UTF8String \"" + String(repeating: "x", count: 64) + "\"…"))
        #expect(lines[2].hasSuffix("OCTET STRING (40 bytes) " + String(repeating: "AB", count: 32) + "…"))
        #expect(ValueText.summary(tree, 1, limits: .unlimited) == "\"" + text + "\"")
    }

    @Test func valueSummaries() {
        // BOOLEAN FALSE, INTEGER -129, BIT STRING 1 unused bit, NULL, PrintableString, UTCTime, [0] primitive, 20-byte INTEGER
        let tree = ASN1Parser.parse(Self.der("""
            30 41 01 01 00 02 02 FF 7F 03 02 01 FE 05 00 13 02 41 42 17 0D 31 35 31 31 31 33 30 32 31 35 30 39 5A
            80 02 01 02 02 14 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F 10 11 12 13 14 04 05 68 65 6C 6C 6F
            """))
        #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics)")
        let values = (1..<tree.count).map { ValueText.summary(tree, $0) }
        #expect(values == [
            "FALSE", "-129", "(1 byte, 1 unused bit) FE", "", "\"AB\"", "\"151113021509Z\" = 2015-11-13T02:15:09Z",
            "(2 bytes) 0102", "0x0102030405060708090A0B0C0D0E0F1011121314 (20-byte integer)", "(5 bytes) 68656C6C6F \"hello\"",
        ])
    }

    // MARK: openssl

    @Test func opensslShapeOnASimpleSequence() {
        #expect(OpenSSLDump.render(ASN1Parser.parse(Self.simple)) == [
            "    0:d=0  hl=2 l=  13 cons: SEQUENCE          ",
            "    2:d=1  hl=2 l=   1 prim:  INTEGER           :05",
            "    5:d=1  hl=2 l=   3 prim:  OBJECT            :commonName",
            "   10:d=1  hl=2 l=   3 prim:  UTF8STRING        :abc",
        ].map { $0 + "\n" }.joined())
    }

    /// Indefinite length, EOC line, no descent into the OCTET STRING, a second top-level element:
    /// exactly what `openssl asn1parse -i` prints for these bytes.
    @Test func opensslShapeOnBER() {
        #expect(OpenSSLDump.render(ASN1Parser.parse(Self.ber)) == [
            "    0:d=0  hl=2 l=inf  cons: SEQUENCE          ",
            "    2:d=1  hl=2 l=   3 prim:  OCTET STRING      [HEX DUMP]:020107",
            "    7:d=1  hl=2 l=   1 prim:  BOOLEAN           :1",
            "   10:d=1  hl=2 l=   0 prim:  EOC               ",
            "   12:d=0  hl=2 l=   1 prim: NULL              ",
        ].map { $0 + "\n" }.joined())
    }

    /// Every universal type, the tag classes, a long-form tag, a constructed OCTET STRING and the
    /// INTEGER sign rules; the expected lines are `openssl asn1parse -inform DER -i` output (3.0).
    @Test func opensslShapeOnEveryKindOfTag() {
        let bytes = Self.der("3081be0101ff010100020100020200800201ff0201800202feff0202ff000a0105030200ab04000408686920746865726504020102050006092a864886f70d010901060a2a864886f76364060b010c0668c3a96c6c6f130241421603784079170d3135313131333032313530395a180f32303135313131333032313530395a1e04006800691a0376697312033132331403743631800101a103020101410101c201011f810001059f8100000d01010b002408040261620402636404053003020101")
        #expect(OpenSSLDump.render(ASN1Parser.parse(bytes)) == [
            "    0:d=0  hl=3 l= 190 cons: SEQUENCE          ",
            "    3:d=1  hl=2 l=   1 prim:  BOOLEAN           :255",
            "    6:d=1  hl=2 l=   1 prim:  BOOLEAN           :0",
            "    9:d=1  hl=2 l=   1 prim:  INTEGER           :00",
            "   12:d=1  hl=2 l=   2 prim:  INTEGER           :80",
            "   16:d=1  hl=2 l=   1 prim:  INTEGER           :-01",
            "   19:d=1  hl=2 l=   1 prim:  INTEGER           :-80",
            "   22:d=1  hl=2 l=   2 prim:  INTEGER           :-0101",
            "   26:d=1  hl=2 l=   2 prim:  INTEGER           :-0100",
            "   30:d=1  hl=2 l=   1 prim:  ENUMERATED        :05",
            "   33:d=1  hl=2 l=   2 prim:  BIT STRING        ",
            "   37:d=1  hl=2 l=   0 prim:  OCTET STRING      ",
            "   39:d=1  hl=2 l=   8 prim:  OCTET STRING      :hi there",
            "   49:d=1  hl=2 l=   2 prim:  OCTET STRING      [HEX DUMP]:0102",
            "   53:d=1  hl=2 l=   0 prim:  NULL              ",
            "   55:d=1  hl=2 l=   9 prim:  OBJECT            :emailAddress",
            "   66:d=1  hl=2 l=  10 prim:  OBJECT            :1.2.840.113635.100.6.11.1",
            "   78:d=1  hl=2 l=   6 prim:  UTF8STRING        :héllo",
            "   86:d=1  hl=2 l=   2 prim:  PRINTABLESTRING   :AB",
            "   90:d=1  hl=2 l=   3 prim:  IA5STRING         :x@y",
            "   95:d=1  hl=2 l=  13 prim:  UTCTIME           :151113021509Z",
            "  110:d=1  hl=2 l=  15 prim:  GENERALIZEDTIME   :20151113021509Z",
            "  127:d=1  hl=2 l=   4 prim:  BMPSTRING         ",
            "  133:d=1  hl=2 l=   3 prim:  VISIBLESTRING     :vis",
            "  138:d=1  hl=2 l=   3 prim:  NUMERICSTRING     :123",
            "  143:d=1  hl=2 l=   3 prim:  T61STRING         :t61",
            "  148:d=1  hl=2 l=   1 prim:  cont [ 0 ]        ",
            "  151:d=1  hl=2 l=   3 cons:  cont [ 1 ]        ",
            "  153:d=2  hl=2 l=   1 prim:   INTEGER           :01",
            "  156:d=1  hl=2 l=   1 prim:  appl [ 1 ]        ",
            "  159:d=1  hl=2 l=   1 prim:  priv [ 2 ]        ",
            "  162:d=1  hl=4 l=   1 prim:  <ASN1 128>        ",
            "  167:d=1  hl=4 l=   0 prim:  cont [ 128 ]      ",
            "  171:d=1  hl=2 l=   1 prim:  <ASN1 13>         ",
            "  174:d=1  hl=2 l=   0 prim:  <ASN1 11>         ",
            "  176:d=1  hl=2 l=   8 cons:  OCTET STRING      ",
            "  178:d=2  hl=2 l=   2 prim:   OCTET STRING      :ab",
            "  182:d=2  hl=2 l=   2 prim:   OCTET STRING      :cd",
            "  186:d=1  hl=2 l=   5 prim:  OCTET STRING      [HEX DUMP]:3003020101",
        ].map { $0 + "\n" }.joined())
    }

    /// OpenSSL prints the ":" of a string type even when the string is empty, never for an empty
    /// OCTET STRING.
    @Test func opensslEmptyStrings() {
        #expect(OpenSSLDump.render(ASN1Parser.parse(Self.der("30 08 16 00 0C 00 13 00 04 00"))) == [
            "    0:d=0  hl=2 l=   8 cons: SEQUENCE          ",
            "    2:d=1  hl=2 l=   0 prim:  IA5STRING         :",
            "    4:d=1  hl=2 l=   0 prim:  UTF8STRING        :",
            "    6:d=1  hl=2 l=   0 prim:  PRINTABLESTRING   :",
            "    8:d=1  hl=2 l=   0 prim:  OCTET STRING      ",
        ].map { $0 + "\n" }.joined())
    }

    @Test func opensslShowsUnparsedRegions() {
        // SEQUENCE { INTEGER 1, then a header whose length octets run out } inside a parent.
        let tree = ASN1Parser.parse(Self.der("30 05 02 01 01 04 84"))
        let text = OpenSSLDump.render(tree)
        #expect(text.contains("    5:d=1  hl=0 l=   2 prim:  UNPARSED          [HEX DUMP]:0484\n"), "\(text)")
    }

    // MARK: JSON

    @Test func jsonOfASimpleSequence() {
        let tree = ASN1Parser.parse(Self.simple)
        #expect(JSONDump.render(tree, input: Self.input(Self.simple, "a.der")) == """
            {"input": {"name": "a.der", "size": 15, "encoding": "binary", "note": "raw DER/BER, 15 bytes"},
            "nodes": [
            {"index": 0, "parent": null, "offset": 0, "depth": 0, "header_length": 2, "length": 13, "constructed": true, "tag": "SEQUENCE", "tag_class": "universal", "tag_number": 16, "encapsulated": false, "kind": "tlv"},
            {"index": 1, "parent": 0, "offset": 2, "depth": 1, "header_length": 2, "length": 1, "constructed": false, "tag": "INTEGER", "tag_class": "universal", "tag_number": 2, "encapsulated": false, "kind": "tlv", "value_type": "integer", "value": "5"},
            {"index": 2, "parent": 0, "offset": 5, "depth": 1, "header_length": 2, "length": 3, "constructed": false, "tag": "OBJECT IDENTIFIER", "tag_class": "universal", "tag_number": 6, "encapsulated": false, "kind": "tlv", "value_type": "oid", "value": "2.5.4.3", "oid_name": "commonName"},
            {"index": 3, "parent": 0, "offset": 10, "depth": 1, "header_length": 2, "length": 3, "constructed": false, "tag": "UTF8String", "tag_class": "universal", "tag_number": 12, "encapsulated": false, "kind": "tlv", "value_type": "string", "value": "abc"}
            ],
            "diagnostics": [
            ],
            "summary": {"nodes": 4, "errors": 0, "der": 0, "warnings": 0, "info": 0}}

            """)
    }

    @Test func jsonIsValidAndCarriesEveryField() throws {
        let tree = ASN1Parser.parse(Self.ber)
        let text = JSONDump.render(tree, input: Self.input(Self.ber, "b.der"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let nodes = try #require(object["nodes"] as? [[String: Any]])
        #expect(nodes.count == 5)
        #expect(nodes[0]["length"] is NSNull)
        #expect(nodes[0]["end_of_contents"] as? Int == 10)
        #expect(nodes[1]["encapsulated"] as? Bool == true)
        #expect(nodes[1]["value"] == nil, "an encapsulating OCTET STRING's value is its children")
        #expect(nodes[2]["parent"] as? Int == 1)
        #expect(nodes[3]["value"] as? Bool == true)
        #expect(nodes[4]["parent"] is NSNull)
        #expect(nodes[4]["value_type"] as? String == "null")
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["indefinite-length", "boolean-value", "trailing-data", "null-content"])
        #expect(diagnostics[2]["node"] is NSNull)
        #expect(diagnostics[3]["severity"] as? String == "error")
        #expect(diagnostics[3]["offset"] as? Int == 14)
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary == ["nodes": 5, "errors": 1, "der": 2, "warnings": 1, "info": 0])
    }

    @Test func jsonEscapesHostileStrings() throws {
        let text: [UInt8] = Array("a\"\\".utf8) + [0x1B, 0x07, 0x00, 0xE2, 0x80, 0xAE, 0xEF, 0xBB, 0xBF, 0xC2, 0x85] + Array("z".utf8)
        let tree = ASN1Parser.parse([0x0C, UInt8(text.count)] + text)
        let json = JSONDump.render(tree)
        #expect(json.contains(#""value": "a\"\\\u001b\u0007\u0000\u202e\ufeff\u0085z""#), "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let nodes = try #require(object["nodes"] as? [[String: Any]])
        #expect(nodes[0]["value"] as? String == "a\"\\\u{1B}\u{07}\u{00}\u{202E}\u{FEFF}\u{85}z")
    }

    @Test func jsonStreamsLargeTrees() throws {
        // 20,000 INTEGERs in one SEQUENCE: the output (~4 MB, many 64 KB chunks) still parses.
        // Kept modest: every test shares one process, and others measure child memory.
        var content: [UInt8] = []
        for i in 0..<20_000 { content += [0x02, 0x01, UInt8(i % 100)] }
        let bytes = [0x30, 0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)] + content
        let tree = ASN1Parser.parse(bytes)
        #expect(tree.diagnostics.isEmpty)
        let text = JSONDump.render(tree)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["nodes"] as? [Any])?.count == 20_001)
    }

    // MARK: Terminal safety

    @Test func escapeTable() {
        let cases: [(String, String)] = [
            ("plain text", "plain text"),
            ("a\u{1B}[31mred", "a\\x1b[31mred"),
            ("bell\u{07}", "bell\\x07"),
            ("nul\u{00}", "nul\\x00"),
            ("line\nbreak\r\ttab", "line\\nbreak\\r\\ttab"),
            ("del\u{7F}", "del\\x7f"),
            ("c1\u{85}\u{9B}", "c1\\x85\\x9b"),
            ("rlo\u{202E}txt.exe", "rlo\\u{202E}txt.exe"),
            ("zw\u{200B}\u{200D}\u{200F}", "zw\\u{200B}\\u{200D}\\u{200F}"),
            ("iso\u{2066}\u{2069}", "iso\\u{2066}\\u{2069}"),
            ("bom\u{FEFF}", "bom\\u{FEFF}"),
            ("ls\u{2028}", "ls\\u{2028}"),
            ("back\\slash", "back\\\\slash"),
            ("café 日本 🙂", "café 日本 🙂"),
        ]
        for (input, expected) in cases {
            #expect(TerminalSafe.escape(input) == expected)
        }
        #expect(TerminalSafe.quoted("say \"hi\"\u{1B}") == "\"say \\\"hi\\\"\\x1b\"")
    }

    @Test func escapeBytesHandlesInvalidUTF8() {
        var out: [UInt8] = []
        TerminalSafe.appendEscaped([0x61, 0xC3, 0x28, 0xE2, 0x80, 0xAE, 0xC3, 0xA9, 0xFF, 0x1B], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "a\\xc3(\\u{202E}é\\xff\\x1b")
    }

    @Test func everyFormatIsFreeOfRawControls() {
        // Every byte value inside a UTF8String, an IA5String and an OCTET STRING.
        let all = (0...255).map { UInt8($0) }
        let bytes = [0x30, 0x82, 0x03, 0x0C, 0x0C, 0x82, 0x01, 0x00] + all + [0x16, 0x82, 0x01, 0x00] + all + [0x04, 0x82, 0x01, 0x00] + all
        let tree = ASN1Parser.parse(bytes)
        let texts = [TreeDump.render(tree, options: TreeDump.Options(limits: .unlimited)), OpenSSLDump.render(tree), JSONDump.render(tree)]
        for text in texts {
            #expect(!text.utf8.contains { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F })
            #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        }
    }

    // MARK: Writer and numbers

    @Test func writerFlushesInChunksAndKeepsOrder() {
        let out = OutputWriter(.memory)
        var expected = ""
        for i in 0..<30_000 {
            out.write(int: i, width: 7)
            out.write(byte: 0x0A)
            out.lineDone()
            expected += String(repeating: " ", count: 7 - String(i).count) + String(i) + "\n"
        }
        out.write(int: -42, width: 5, leftAlign: true)
        out.write("|")
        expected += "-42  |"
        #expect(out.text == expected)
    }

    @Test func groupedNumbers() {
        #expect(NumberText.grouped(0) == "0")
        #expect(NumberText.grouped(999) == "999")
        #expect(NumberText.grouped(1000) == "1,000")
        #expect(NumberText.grouped(5162) == "5,162")
        #expect(NumberText.grouped(1_234_567) == "1,234,567")
        #expect(NumberText.grouped(-1234) == "-1,234")
    }
}
