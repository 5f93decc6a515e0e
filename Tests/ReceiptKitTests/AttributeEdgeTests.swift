import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

/// Attributes that are wrong in one way each, at the app level and inside a purchase, decoded
/// whole: the findings (code, severity, offset, length, message) and the fields (type, version,
/// nodes' offsets, value range, value) are pinned as the decoder gave them before it read
/// attributes in one pass over the node buffer (issue 12), so the one-pass reader changes nothing.
@Suite struct AttributeEdgeTests {
    /// One attribute per defect; `type` is the listed UTF8String type used (19 app, 1702 in-app).
    static func edgeAttributes(_ type: Int) -> [[UInt8]] {
        let value = DER.utf8("x")
        let int = DER.int(type), one = DER.int(1), octets = DER.octets(value)
        return [
            attribute(type, value),                                             // good (a duplicate below)
            DER.tlv(0x02, [0x05]),                                              // not a SEQUENCE
            DER.tlv(0xB0, int + one + octets),                                  // context-specific [16]
            DER.tlv(0x10, int + one + octets),                                  // primitive SEQUENCE
            DER.tlv(0x30, []),                                                  // no children
            DER.tlv(0x30, int),                                                 // type only
            DER.tlv(0x30, int + one),                                           // type and version only
            DER.tlv(0x30, int + one + octets + DER.null),                       // an extra child
            DER.tlv(0x30, DER.utf8("19") + one + octets),                       // type is a UTF8String
            DER.tlv(0x30, DER.tlv(0x22, int) + one + octets),                   // type is a constructed INTEGER
            DER.tlv(0x30, DER.tlv(0x82, [0x13]) + one + octets),                // type is a context [2]
            DER.tlv(0x30, DER.tlv(0x02, [0xFB]) + one + octets),                // type -5
            DER.tlv(0x30, DER.tlv(0x02, [0x80] + [UInt8](repeating: 0, count: 7)) + one + octets),     // -2^63
            DER.tlv(0x30, DER.tlv(0x02, [0x7F] + [UInt8](repeating: 0xFF, count: 7)) + one + octets),  // 2^63-1
            DER.tlv(0x30, DER.tlv(0x02, [0x01] + [UInt8](repeating: 0, count: 8)) + one + octets),     // 2^64: too big
            DER.tlv(0x30, DER.tlv(0x02, []) + one + octets),                    // an empty type INTEGER
            DER.tlv(0x30, int + DER.utf8("1") + octets),                        // version is a UTF8String
            DER.tlv(0x30, int + DER.tlv(0x22, one) + octets),                   // version is constructed
            DER.tlv(0x30, int + DER.tlv(0x02, [0x01] + [UInt8](repeating: 0, count: 8)) + octets),     // version too big
            DER.tlv(0x30, int + one + DER.tlv(0x24, octets)),                   // constructed OCTET STRING, one segment
            DER.tlv(0x30, int + one + DER.tlv(0x24, octets + octets)),          // constructed, two segments
            DER.tlv(0x30, int + one + DER.tlv(0x24, DER.tlv(0x24, octets))),    // constructed, nested
            DER.tlv(0x30, int + one + DER.tlv(0x24, [])),                       // constructed, empty
            DER.tlv(0x30, int + one + value),                                   // value is not an OCTET STRING
            [0x30, 0x80] + int + one + octets + [0, 0],                         // indefinite attribute
            DER.tlv(0x30, int + one + [0x24, 0x80] + octets + [0, 0]),          // indefinite constructed value
            DER.tlv(0x30, int + one + DER.octets([0x0C, 0x05, 0x61])),          // value's TLV cut inside
        ]
    }

    /// The required attributes, every edge case at both levels, and a last attribute cut short
    /// (its length runs past the SET) in the purchase and in the payload.
    static func edgeReceipt() -> [UInt8] {
        let purchaseRequired = [attribute(1701, DER.int(1)), attribute(1703, DER.utf8("1000000001")),
                                attribute(1705, DER.utf8("1000000001")), attribute(1704, DER.ia5("2024-03-01T12:00:00Z"))]
        let cut: [UInt8] = [0x30, 0x7F] + DER.int(1706) + DER.int(1)
        let purchaseSet = DER.tlv(0x31, (purchaseRequired + edgeAttributes(1702)).flatMap { $0 } + cut)
        let appCut: [UInt8] = [0x30, 0x7F] + DER.int(20) + DER.int(1)
        let payload = DER.tlv(0x31, minimalAttributes([attribute(17, purchaseSet)] + edgeAttributes(19)) + appCut)
        return container(payload: payload)
    }

    static func lines(_ a: ReceiptAnalysis) -> (findings: [String], fields: [String]) {
        let tree = a.receiptTree
        let findings = a.findings.map {
            "\($0.code) \($0.severity) \($0.offset)+\($0.length) \($0.node.map { String($0.index) } ?? "-") \($0.message)"
        }
        var fields: [String] = []
        func describe(_ f: ReceiptField) -> String {
            let nodes = [f.typeNode, f.versionNode, f.valueNode, f.innerNode].map { $0.map { String(tree.nodes[$0].offset) } ?? "-" }
            return "\(f.level) \(f.type) v\(f.version.map { String($0) } ?? "-") @\(tree.nodes[f.attributeNode].offset) "
                + "\(nodes.joined(separator: ",")) \(f.valueRange) \(f.value) p\(f.inAppIndex.map { String($0) } ?? "-")"
        }
        if let r = a.receipt {
            fields += r.fields.map(describe)
            for p in r.inApp {
                fields.append("purchase \(p.index) set \(p.setNode.map { String(tree.nodes[$0].offset) } ?? "-") complete \(p.isComplete)")
                fields += p.fields.map(describe)
            }
        }
        return (findings, fields)
    }

    @Test func edgeAttributesDecodeAsPinned() throws {
        let a = decode(Self.edgeReceipt())
        let (findings, fields) = Self.lines(a)
        if ProcessInfo.processInfo.environment["PRINT_EDGE"] != nil {
            print("FINDINGS\n" + findings.joined(separator: "\n") + "\nFIELDS\n" + fields.joined(separator: "\n"))
        }
        #expect(findings == Self.expectedFindings)
        #expect(fields == Self.expectedFields)
    }

    static let expectedFindings: [String] = [
        "pkcs7-no-certificates warning 19+1069 3 the SignedData embeds no certificates: the signer cannot be identified",
        "pkcs7-no-signer-infos error 1086+2 322 the SignedData has no SignerInfo: nothing is signed",
        "receipt-attribute-malformed error 331+3 69 an element of in-app purchase #1 is an INTEGER, an attribute SEQUENCE was expected",
        "receipt-attribute-malformed error 334+14 70 an element of in-app purchase #1 is a [16], an attribute SEQUENCE was expected",
        "receipt-attribute-malformed error 348+14 75 an element of in-app purchase #1 is a SEQUENCE, an attribute SEQUENCE was expected",
        "receipt-attribute-malformed error 362+2 76 an attribute of in-app purchase #1 does not start with its type INTEGER",
        "receipt-attribute-malformed error 364+6 77 in-app 1702: the attribute has 1 element(s), 3 expected (type, version, value)",
        "receipt-attribute-malformed error 370+9 79 in-app 1702: the attribute has 2 element(s), 3 expected (type, version, value)",
        "receipt-attribute-malformed warning 379+16 82 in-app 1702: the attribute has 4 elements, 3 expected (type, version, value); the extra ones are ignored",
        "receipt-attribute-duplicate error 379+16 82 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-malformed error 395+14 88 an attribute of in-app purchase #1 does not start with its type INTEGER",
        "receipt-attribute-malformed error 409+16 93 an attribute of in-app purchase #1 does not start with its type INTEGER",
        "receipt-attribute-malformed error 425+13 99 an attribute of in-app purchase #1 does not start with its type INTEGER",
        "receipt-attribute-malformed error 491+21 119 an attribute of in-app purchase #1 does not start with its type INTEGER",
        "receipt-attribute-malformed error 512+12 124 an attribute of in-app purchase #1 does not start with its type INTEGER",
        "receipt-attribute-malformed error 530+3 131 in-app 1702: the version is a UTF8String, an INTEGER was expected",
        "receipt-attribute-duplicate error 524+14 129 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-duplicate error 538+16 134 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-malformed error 560+11 142 in-app 1702: the version is an INTEGER, an INTEGER was expected",
        "receipt-attribute-duplicate error 554+22 140 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-duplicate error 576+16 145 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-malformed error 601+12 154 in-app 1702: the value is a constructed OCTET STRING, a primitive OCTET STRING was expected",
        "receipt-attribute-malformed error 622+9 162 in-app 1702: the value is a constructed OCTET STRING, a primitive OCTET STRING was expected",
        "receipt-attribute-malformed error 640+2 169 in-app 1702: the value is a constructed OCTET STRING, a primitive OCTET STRING was expected",
        "receipt-attribute-malformed error 651+3 173 in-app 1702: the value is a UTF8String, a primitive OCTET STRING was expected",
        "receipt-attribute-duplicate error 654+16 174 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-duplicate error 670+18 179 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-duplicate error 688+14 185 in-app 1702 (product id) appears more than once; the first occurrence, at offset 317, is the one used",
        "receipt-attribute-malformed error 724+3 198 an element of the payload is an INTEGER, an attribute SEQUENCE was expected",
        "receipt-attribute-malformed error 727+13 199 an element of the payload is a [16], an attribute SEQUENCE was expected",
        "receipt-attribute-malformed error 740+13 204 an element of the payload is a SEQUENCE, an attribute SEQUENCE was expected",
        "receipt-attribute-malformed error 753+2 205 an attribute of the payload does not start with its type INTEGER",
        "receipt-attribute-malformed error 755+5 206 attribute 19: the attribute has 1 element(s), 3 expected (type, version, value)",
        "receipt-attribute-malformed error 760+8 208 attribute 19: the attribute has 2 element(s), 3 expected (type, version, value)",
        "receipt-attribute-malformed warning 768+15 211 attribute 19: the attribute has 4 elements, 3 expected (type, version, value); the extra ones are ignored",
        "receipt-attribute-duplicate error 768+15 211 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-malformed error 783+14 217 an attribute of the payload does not start with its type INTEGER",
        "receipt-attribute-malformed error 797+15 222 an attribute of the payload does not start with its type INTEGER",
        "receipt-attribute-malformed error 812+13 228 an attribute of the payload does not start with its type INTEGER",
        "receipt-attribute-malformed error 878+21 248 an attribute of the payload does not start with its type INTEGER",
        "receipt-attribute-malformed error 899+12 253 an attribute of the payload does not start with its type INTEGER",
        "receipt-attribute-malformed error 916+3 260 attribute 19: the version is a UTF8String, an INTEGER was expected",
        "receipt-attribute-duplicate error 911+13 258 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-duplicate error 924+15 263 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-malformed error 944+11 271 attribute 19: the version is an INTEGER, an INTEGER was expected",
        "receipt-attribute-duplicate error 939+21 269 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-duplicate error 960+15 274 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-malformed error 983+12 283 attribute 19: the value is a constructed OCTET STRING, a primitive OCTET STRING was expected",
        "receipt-attribute-malformed error 1003+9 291 attribute 19: the value is a constructed OCTET STRING, a primitive OCTET STRING was expected",
        "receipt-attribute-malformed error 1020+2 298 attribute 19: the value is a constructed OCTET STRING, a primitive OCTET STRING was expected",
        "receipt-attribute-malformed error 1030+3 302 attribute 19: the value is a UTF8String, a primitive OCTET STRING was expected",
        "receipt-attribute-duplicate error 1033+15 303 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-duplicate error 1048+17 308 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
        "receipt-attribute-duplicate error 1065+13 314 attribute 19 (original app version) appears more than once; the first occurrence, at offset 711, is the one used",
    ]

    static let expectedFields: [String] = [
        "app 0 v1 @55 57,60,63,65 65..<84 string(\"ProductionSandbox\") p-",
        "app 2 v1 @84 86,89,92,94 94..<111 string(\"com.example.app\") p-",
        "app 3 v1 @111 113,116,119,121 121..<126 string(\"1.0\") p-",
        "app 4 v2 @126 128,131,134,- 136..<144 bytes p-",
        "app 5 v1 @144 146,149,152,- 154..<174 bytes p-",
        "app 12 v1 @174 176,179,182,184 184..<206 date(2024-03-01T12:00:00Z) p-",
        "app 17 v1 @206 210,213,216,220 220..<711 inAppPurchase(0) p-",
        "app 19 v1 @711 713,716,719,721 721..<724 string(\"x\") p-",
        "app 19 v1 @768 770,773,776,778 778..<781 string(\"x\") p-",
        "app -5 v1 @825 827,830,833,835 835..<838 bytes p-",
        "app -9223372036854775808 v1 @838 840,850,853,855 855..<858 bytes p-",
        "app 9223372036854775807 v1 @858 860,870,873,875 875..<878 bytes p-",
        "app 19 v- @911 913,916,919,921 921..<924 string(\"x\") p-",
        "app 19 v131329 @924 926,929,934,936 936..<939 string(\"x\") p-",
        "app 19 v- @939 941,944,955,957 957..<960 string(\"x\") p-",
        "app 19 v1 @960 962,965,970,972 972..<975 string(\"x\") p-",
        "app 19 v1 @1033 1035,1038,1041,1043 1043..<1046 string(\"x\") p-",
        "app 19 v1 @1048 1050,1053,1058,1060 1060..<1063 string(\"x\") p-",
        "app 19 v1 @1065 1067,1070,1073,1075 1075..<1078 string(\"a\") p-",
        "purchase 0 set 220 complete true",
        "inApp 1701 v1 @224 226,230,233,235 235..<238 integer(1) p0",
        "inApp 1703 v1 @238 240,244,247,249 249..<261 string(\"1000000001\") p0",
        "inApp 1705 v1 @261 263,267,270,272 272..<284 string(\"1000000001\") p0",
        "inApp 1704 v1 @284 286,290,293,295 295..<317 date(2024-03-01T12:00:00Z) p0",
        "inApp 1702 v1 @317 319,323,326,328 328..<331 string(\"x\") p0",
        "inApp 1702 v1 @379 381,385,388,390 390..<393 string(\"x\") p0",
        "inApp -5 v1 @438 440,443,446,448 448..<451 bytes p0",
        "inApp -9223372036854775808 v1 @451 453,463,466,468 468..<471 bytes p0",
        "inApp 9223372036854775807 v1 @471 473,483,486,488 488..<491 bytes p0",
        "inApp 1702 v- @524 526,530,533,535 535..<538 string(\"x\") p0",
        "inApp 1702 v131329 @538 540,544,549,551 551..<554 string(\"x\") p0",
        "inApp 1702 v- @554 556,560,571,573 573..<576 string(\"x\") p0",
        "inApp 1702 v1 @576 578,582,587,589 589..<592 string(\"x\") p0",
        "inApp 1702 v1 @654 656,660,663,665 665..<668 string(\"x\") p0",
        "inApp 1702 v1 @670 672,676,681,683 683..<686 string(\"x\") p0",
        "inApp 1702 v1 @688 690,694,697,699 699..<702 string(\"a\") p0",
    ]
}
