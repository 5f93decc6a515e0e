import Foundation
import DocumentCore
import DocumentFormats
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

/// The receipt module's payload findings (the hand-built containers have no certificates or
/// signer infos, which the pkcs7- findings report).
func rf(_ a: ReceiptAnalysis) -> [Diagnostic] { a.findings.filter { $0.code.receiptCode?.concernsPayload == true } }

/// Hand-built receipts (no signature: decoding only), one defect at a time.
@Suite struct DecoderTests {
    @Test func minimalDecodesWithoutFindings() throws {
        let a = decode(container(payload: minimalPayload()))
        let r = try #require(a.receipt)
        #expect(rf(a).isEmpty, "\(rf(a).map(\.message))")
        #expect(r.bundleID == "com.example.app")
        #expect(r.bundleIDTLV == DER.utf8("com.example.app"))
        #expect(r.opaqueValue == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(r.field(4)?.version == 2)
        #expect(r.creationDate?.epochMilliseconds == epochMS("2024-03-01T12:00:00Z"))
        #expect(a.parseCount == 1)
    }

    @Test func integers() throws {
        let a = decode(container(payload: minimalPayload([
            attribute(1, DER.int(1_091_189_122)),
            attribute(17, DER.tlv(0x31, attribute(1701, DER.int(3)) + attribute(1702, DER.utf8("p")) + attribute(1703, DER.utf8("t"))
                              + attribute(1704, DER.ia5("2024-01-01T00:00:00Z"))
                              + attribute(1711, DER.tlv(0x02, [0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
                              + attribute(1713, DER.int(1)) + attribute(1719, DER.int(0)) + attribute(1707, DER.tlv(0x02, [0xFF])))),
        ])))
        let r = try #require(a.receipt)
        #expect(rf(a).isEmpty, "\(rf(a).map(\.message))")
        #expect(r.appItemID == "1091189122")
        let p = try #require(r.inApp.first)
        #expect(p.quantity == 3)
        #expect(p.webOrderLineItemID == "4722366482869645213695")  // 2^72 - 1, past 64 bits
        #expect(p.isTrialPeriod == true)
        #expect(p.isInIntroOfferPeriod == false)
        #expect(p.productType == -1)
        let doc = try jsonDocument(a)
        let inApp = try #require((doc["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
        #expect(inApp[0]["is_trial_period"] as? String == "true")
        #expect(inApp[0]["is_in_intro_offer_period"] as? String == "false")
        #expect(inApp[0]["quantity"] as? String == "3")
        #expect(inApp[0]["web_order_line_item_id"] as? String == "4722366482869645213695")
    }

    @Test func strings() throws {
        let a = decode(container(payload: minimalPayload([attribute(19, DER.utf8("ünïcödé 1.0")), attribute(10, DER.ia5("17+"))])))
        let r = try #require(a.receipt)
        #expect(r.originalAppVersion == "ünïcödé 1.0")
        #expect(r.ageRating == "17+")
        #expect(rf(a).isEmpty)
    }

    @Test func wrongTypeIsPinnedToTheInnerValue() throws {
        let payload = minimalPayload(bundle: DER.ia5("com.example.app"))
        let bytes = container(payload: payload)
        let a = decode(bytes)
        let f = try #require(rf(a).first)
        #expect(rf(a).count == 1)
        #expect(f.code == ReceiptCode.wrongType.code)
        #expect(f.severity == .error)
        #expect(f.message == "attribute 2: value is an IA5String, a UTF8String was expected")
        let node = try #require(f.node?.index)
        #expect(a.tree.tagName(of: node) == "IA5String")
        #expect(f.offset == Int(a.tree.nodes[node].offset))
        #expect(f.length == 2 + 15)
        // The text is still shown.
        #expect(a.receipt?.bundleID == "com.example.app")
        #expect(a.tree.diagnostics.contains(f))
    }

    @Test func rawBytesWhereAStringBelongs() throws {
        let a = decode(container(payload: minimalPayload([attribute(3, [0xDE, 0xAD, 0xBE])], bundle: DER.utf8("x"))))
        // attribute 3 now appears twice: the second is raw bytes where a UTF8String belongs.
        #expect(rf(a).map(\.code).sorted() == [ReceiptCode.duplicate.code, ReceiptCode.wrongType.code])
        #expect(a.receipt?.appVersion == "1.0")
        let b = decode(container(payload: DER.tlv(0x31, attribute(0, [0x01, 0x02, 0x03]) + minimalAttributes())))
        #expect(b.findings.contains { $0.code == ReceiptCode.wrongType.code && $0.message.contains("not an ASN.1 element (3 raw byte(s))") })
    }

    @Test func hashLength() throws {
        let attrs = DER.tlv(0x31, attribute(5, [1, 2, 3]) + minimalAttributes())
        let a = decode(container(payload: attrs))
        #expect(rf(a).contains { $0.code == ReceiptCode.duplicate.code })
        #expect(rf(a).contains { $0.code == ReceiptCode.wrongType.code && $0.message.contains("3 raw byte(s)") })
    }

    @Test func dates() throws {
        let a = decode(container(payload: minimalPayload([
            attribute(18, DER.ia5("")),
            attribute(21, DER.ia5("2024-02-30T00:00:00Z")),
            attribute(17, DER.tlv(0x31, attribute(1702, DER.utf8("p")) + attribute(1703, DER.utf8("t")) + attribute(1704, DER.ia5("yesterday"))
                              + attribute(1708, DER.ia5("2024-04-01T12:59:59.250+0100")))),
        ])))
        let r = try #require(a.receipt)
        #expect(r.field(18)?.value == .absentDate)
        #expect(r.originalPurchaseDate == nil)
        let bad = rf(a).filter { $0.code == ReceiptCode.dateInvalid.code }
        #expect(bad.count == 2)
        #expect(bad[0].message.hasPrefix("attribute 21 (expiration date): '2024-02-30T00:00:00Z' is not an RFC 3339 date"))
        #expect(bad[1].message.hasPrefix("in-app 1704 (purchase date): 'yesterday' is not an RFC 3339 date"))
        #expect(a.tree.tagName(of: bad[1].node!.index) == "IA5String")
        #expect(r.inApp[0].expiresDate?.epochMilliseconds == epochMS("2024-04-01T11:59:59.250Z"))
        #expect(r.inApp[0].purchaseDate == nil)
        // The expiration step cannot read attribute 21.
        #expect(a.step(StepID.expiration)?.status.isFailed == true)
    }

    @Test func duplicateAndMissing() throws {
        let payload = DER.tlv(0x31, attribute(0, DER.utf8("Production")) + attribute(2, DER.utf8("a.b")) + attribute(2, DER.utf8("c.d"))
                          + attribute(12, DER.ia5("2024-01-01T00:00:00Z")))
        let a = decode(container(payload: payload))
        let r = try #require(a.receipt)
        #expect(r.bundleID == "a.b")
        let dup = rf(a).filter { $0.code == ReceiptCode.duplicate.code }
        #expect(dup.count == 1)
        #expect(a.tree.nodes[dup[0].node!.index].offset == a.tree.nodes[r.fields[2].attributeNode].offset)
        let missing = rf(a).filter { $0.code == ReceiptCode.missing.code }.map(\.message)
        #expect(missing == ["required attribute 3 (app version) is missing from the receipt",
                            "required attribute 4 (opaque value) is missing from the receipt",
                            "required attribute 5 (SHA-1 hash) is missing from the receipt"])
        #expect(rf(a).filter { $0.code == ReceiptCode.missing.code }.allSatisfy { $0.node?.index == r.payloadNode })
        // The device hash cannot be computed over an ambiguous bundle id.
        let b = ReceiptAnalyzer.analyze(bytes: container(payload: payload),
                                        options: AnalysisOptions(validate: false, deviceID: try DeviceIdentifier.parse("6c:40:08:b5:94:5e")))
        #expect(b.step(StepID.deviceHash)?.status.isPassed == false)
        #expect(b.step(StepID.deviceHash)?.status.isFailed == false)
    }

    @Test func inAppMissingAndUnlisted() throws {
        let a = decode(container(payload: minimalPayload([
            attribute(17, DER.tlv(0x31, attribute(1702, DER.utf8("p")) + attribute(1750, DER.utf8("private")) + attribute(1704, DER.ia5("2024-01-01T00:00:00Z")))),
            attribute(31, [0xFF, 0x00]),
        ])))
        let r = try #require(a.receipt)
        #expect(rf(a).map(\.message) == ["required in-app 1703 (transaction id) is missing from in-app purchase #1"])
        #expect(rf(a)[0].node?.index == r.inApp[0].setNode)
        #expect(r.unlistedFields.map(\.type) == [1750, 31])
        let doc = try jsonDocument(a)
        let unlisted = try #require(doc["unlisted_attributes"] as? [[String: Any]])
        #expect(unlisted[0]["type"] as? Int == 1750)
        #expect(unlisted[0]["level"] as? String == "in_app")
        #expect(unlisted[0]["in_app_index"] as? Int == 0)
        #expect((unlisted[0]["inner"] as? [String: String])?["value"] == "private")
        #expect(unlisted[1]["value_hex"] as? String == "ff00")
        #expect(unlisted[1]["inner"] == nil)
    }

    @Test func notAReceipt() throws {
        for garbage: [UInt8] in [[], [0x00], [0xFF, 0xFF, 0xFF], Array("hello world".utf8), DER.tlv(0x30, DER.int(5)),
                                 DER.tlv(0x30, [0x06, 0x03, 0x2A, 0x03, 0x04])] {
            let a = ReceiptAnalyzer.analyze(bytes: garbage)
            #expect(a.receipt == nil)
            #expect(!a.findings.isEmpty)
            #expect(a.findings.allSatisfy { $0.code.receiptCode?.concernsPayload == false })
            #expect(!a.verdict.isValid)
            #expect(a.step(StepID.contents)?.status.isFailed == true)
            _ = ReceiptJSON.text(a)
            _ = VerifyReport.text(a, inputName: "garbage")
        }
        let notSigned = ReceiptAnalyzer.analyze(bytes: DER.tlv(0x30, [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01] + DER.tlv(0xA0, DER.tlv(0x04, [1]))))
        #expect(notSigned.findings.map(\.code) == [ReceiptCode.notSignedData.code])
        #expect(notSigned.findings[0].message.contains("1.2.840.113549.1.7.1"))
    }

    @Test func payloadNotASet() throws {
        let a = decode(container(payload: DER.tlv(0x30, attribute(2, DER.utf8("x")))))
        #expect(a.receipt == nil)
        #expect(rf(a).map(\.code) == [ReceiptCode.payloadNotSet.code])
        #expect(rf(a)[0].message == "the receipt payload is a SEQUENCE, a SET of attributes was expected")
    }

    @Test func malformedAttributes() throws {
        let base: [UInt8] = minimalAttributes()
        let noValue: [UInt8] = DER.tlv(0x30, DER.int(19) + DER.int(1))
        let notASequence: [UInt8] = DER.tlv(0x02, [0x05])
        let notAnOctetString: [UInt8] = DER.tlv(0x30, DER.int(19) + DER.int(1) + DER.utf8("x"))
        let payload = DER.tlv(0x31, base + noValue + notASequence + notAnOctetString)
        let a = decode(container(payload: payload))
        let found = rf(a).map(\.code)
        #expect(found == [ReceiptCode.attributeMalformed.code, ReceiptCode.attributeMalformed.code, ReceiptCode.attributeMalformed.code])
        #expect(a.receipt?.originalAppVersion == nil)
        #expect(a.receipt?.bundleID == "com.example.app")
    }

    @Test func invalidUTF8IsParsedOnPurpose() throws {
        // C3 28 is not UTF-8: the parser's guess at the value fails, so the payload is parsed again
        // with the value on purpose and the parser's own utf8-invalid diagnostic appears.
        let payload = minimalPayload(bundle: DER.tlv(0x0C, Array("com.".utf8) + [0xC3, 0x28] + Array("x".utf8)))
        let bytes = container(payload: payload)
        let a = decode(bytes)
        #expect(a.parseCount == 2)
        let d = try #require(a.tree.diagnostics.first { $0.code == ParserCode.utf8Invalid.code })
        let node = try #require(d.node?.index)
        #expect(a.tree.tagName(of: node) == "UTF8String")
        #expect(a.receipt?.field(2)?.innerNode == node)
        #expect(rf(a).isEmpty)
    }

    @Test func severalChunksAreReassembled() throws {
        // A BER container whose content OCTET STRING is split into three segments.
        let payload = minimalPayload([attribute(17, DER.tlv(0x31, attribute(1702, DER.utf8("p")) + attribute(1703, DER.utf8("t")) + attribute(1704, DER.ia5("yesterday"))))])
        let cut1 = 30, cut2 = 70
        let chunks = [Array(payload[..<cut1]), Array(payload[cut1..<cut2]), Array(payload[cut2...])]
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let constructed: [UInt8] = [0x24, 0x80] + chunks.flatMap { DER.tlv(0x04, $0) } + [0, 0]
        let eci = DER.tlv(0x30, dataOID + DER.tlv(0xA0, constructed))
        let bytes = DER.tlv(0x30, signedDataOID + DER.tlv(0xA0, DER.tlv(0x30, DER.int(1) + DER.tlv(0x31, []) + eci + DER.tlv(0x31, []))))
        let a = decode(bytes)
        let c = try #require(a.container)
        #expect(c.payloadChunks.count == 3)
        #expect(c.payloadIsReassembled)
        let pt = try #require(a.payloadTree)
        #expect(pt.bytes == payload)
        let r = try #require(a.receipt)
        #expect(r.bundleID == "com.example.app")
        #expect(r.inApp.count == 1)
        // Links point into the payload tree.
        let f = try #require(r.field(2))
        #expect(a.location(of: f.innerNode!)?.attributeType == 2)
        #expect(a.receiptTree.tagName(of: f.innerNode!) == "UTF8String")
        // Source ranges map back to the input bytes.
        let range = a.fileRange(f.valueRange)
        #expect(Array(bytes[range]) == DER.utf8("com.example.app"))
        // The date finding is mapped to input offsets, pinned to the chunk holding it.
        let d = try #require(rf(a).first { $0.code == ReceiptCode.dateInvalid.code })
        #expect(Array(bytes[d.range]) == DER.ia5("yesterday"))
        #expect(c.payloadChunks.contains(d.node!.index))
    }
}

/// The `json` document of `a` as printed (ReceiptJSON's one writer), read back into values.
func jsonDocument(_ a: ReceiptAnalysis) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(ReceiptJSON.text(a).utf8)) as? [String: Any])
}
