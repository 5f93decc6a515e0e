import ASN1Lenient
import DocumentModel
import ReceiptKit
import Testing
import TestSupport

/// The tour's stops on every receipt sample and on plain ASN.1: exact node, focus and byte range
/// per step, computed from the document.
@Suite struct TourTests {
    static func open(_ name: String) throws -> Document {
        let bytes = try Paths.sample(name)
        return Document.open(LoadedInput(bytes: bytes, name: name, encoding: .binary, note: "raw"), options: AnalysisOptions(validate: false))
    }

    /// (node index in the file layer, focus, range, title) per step.
    static func stops(_ document: Document) -> [String] {
        document.tour.steps.map { "\($0.node.layer.index):\($0.node.index) \($0.focus.rawValue) \($0.range.lowerBound)..<\($0.range.upperBound) \($0.title)" }
    }

    static let receiptTitles = [
        "ContentInfo: the PKCS#7 wrapper", "The content type OID, arc by arc", "[0] EXPLICIT: a tag around the content",
        "SignedData version", "Digest algorithms", "Encapsulated content", "The OCTET STRING that holds the payload",
        "The payload SET", "One attribute: bundle id (attribute 2)", "The value inside the attribute's OCTET STRING",
        "One in-app purchase", "A date", "Certificates", "SignerInfo", "The signature",
    ]

    @Test func typicalReceiptRoute() throws {
        let stops = Self.stops(try Self.open("typical.receipt"))
        #expect(stops == [
            "0:0 length 1..<4 ContentInfo: the PKCS#7 wrapper",
            "0:1 content 6..<15 The content type OID, arc by arc",
            "0:2 identifier 15..<16 [0] EXPLICIT: a tag around the content",
            "0:4 content 25..<26 SignedData version",
            "0:5 whole 26..<41 Digest algorithms",
            "0:8 identifier 41..<42 Encapsulated content",
            "0:11 content 64..<4206 The OCTET STRING that holds the payload",
            "0:12 identifier 64..<65 The payload SET",
            "0:61 whole 295..<334 One attribute: bundle id (attribute 2)",
            "0:65 content 307..<334 The value inside the attribute's OCTET STRING",
            "0:66 whole 334..<694 One in-app purchase",
            "0:55 content 243..<263 A date",
            "0:1046 identifier 4206..<4207 Certificates",
            "0:1293 identifier 7239..<7240 SignerInfo",
            "0:1319 content 7430..<7686 The signature",
        ])
    }

    @Test func everyValidReceiptSampleTakesTheWholeRoute() throws {
        for name in ["typical.receipt", "unlisted-attributes.receipt", "malformed-tampered.receipt"] {
            let titles = try Self.open(name).tour.steps.map(\.title)
            #expect(titles == Self.receiptTitles, "\(name)")
        }
    }

    @Test func aReceiptWithoutPurchasesSkipsThatStopAndSaysSo() throws {
        let tour = try Self.open("minimal.receipt").tour
        #expect(tour.steps.map(\.title) == Self.receiptTitles.filter { $0 != "One in-app purchase" })
        let date = try #require(tour.steps.first { $0.title == "A date" })
        #expect(date.node == NodeID(.file, 45) && date.range == 215..<235)
        #expect(date.lesson.contains(Tour.noPurchases))
        #expect(!(try Self.open("typical.receipt").tour.steps.contains { $0.lesson.contains(Tour.noPurchases) }))
    }

    @Test func xcodeReceiptShowsIndefiniteLengthLongFormAndUnsortedSet() throws {
        let tour = try Self.open("xcode-ber.receipt").tour
        let stops = Self.stops(try Self.open("xcode-ber.receipt"))
        #expect(stops[0] == "0:0 length 1..<2 ContentInfo: the PKCS#7 wrapper")
        #expect(stops[6] == "0:11 content 52..<701 The OCTET STRING that holds the payload")
        // The BER container's lengths are indefinite up to the payload chunk: the long-form stop goes there.
        #expect(stops[7] == "0:12 length 53..<56 A long-form length")
        #expect(stops[8] == "0:13 identifier 56..<57 The payload SET")
        #expect(tour.steps[0].lesson.contains { $0.hasPrefix("length: 0x80 = 0b10000000: indefinite form (BER only)") })
        #expect(tour.steps[7].check?.question == "How many length octets follow 0x82?")
        #expect(tour.steps[8].lesson.last == "order: member at offset 77 sorts before the one at 60: not in DER order (BER allows any order; DER sorts a SET OF by the members' encodings)")
        #expect(tour.steps.count == 16)
    }

    @Test func oidStopDecodesEveryArc() throws {
        let step = try Self.open("typical.receipt").tour.steps[1]
        #expect(step.lesson.filter { $0.hasPrefix("arc: ") } == [
            "arc: 2A (one octet, bit 8 clear) = 42 = 40 × 1 + 2 → arcs 1.2",
            "arc: 86 48 (2 octets, bit 8 set on all but the last; 7-bit groups 0000110 1001000) = 840",
            "arc: 86 F7 0D (3 octets, bit 8 set on all but the last; 7-bit groups 0000110 1110111 0001101) = 113549",
            "arc: 01 (one octet, bit 8 clear) = 1",
            "arc: 07 (one octet, bit 8 clear) = 7",
            "arc: 02 (one octet, bit 8 clear) = 2",
        ])
    }

    @Test func firstLongFormLengthCarriesTheSelfCheck() throws {
        let step = try Self.open("typical.receipt").tour.steps[0]
        let check = try #require(step.check)
        #expect(check.question == "How many length octets follow 0x82?")
        #expect(check.answer == "b")
        #expect(check.reply(to: "b")?.correct == true)
        #expect(check.reply(to: "c")?.text == "not quite: 130 is the whole octet; with bit 8 set, it is not a length but a count of length octets (2)")
        #expect(check.reply(to: "a")?.text == "not quite: the low 7 bits of 0x82 count the octets that follow, and they say 2")
        #expect(check.reply(to: "z") == nil)
        #expect(step.lesson.contains("length: 1E 02 → 7,682 content octets"))
    }

    @Test func certificateGetsTheGenericRoute() throws {
        let document = Document.open(LoadedInput(bytes: try Paths.sample("pki/test-root.cer"), name: "root", encoding: .binary, note: "raw"))
        #expect(Self.stops(document) == [
            "0:0 length 1..<4 The outermost element",
            "0:1 content 8..<707 A constructed element",
            "0:3 whole 10..<13 A primitive: INTEGER",
            "0:6 content 31..<40 A primitive: OBJECT IDENTIFIER",
            "0:7 whole 40..<42 A primitive: NULL",
            "0:12 whole 53..<57 A primitive: PrintableString",
            "0:16 whole 66..<89 A primitive: UTF8String",
            "0:26 whole 163..<178 A primitive: UTCTime",
            "0:49 whole 331..<606 A primitive: BIT STRING",
            "0:57 whole 617..<620 A primitive: BOOLEAN",
            "0:58 whole 620..<627 A primitive: OCTET STRING",
        ])
        #expect(document.tour.steps[0].check?.answer == "b")
    }

    @Test func handBuiltASN1WithIndefiniteLength() {
        // SEQUENCE (indefinite) { INTEGER 5, OCTET STRING (130 bytes, long form) } 00 00
        let bytes = [0x30, 0x80] + DER.int(5) + DER.octets(Array(repeating: 0xAB, count: 130)) + [0x00, 0x00]
        let document = Document.open(LoadedInput(bytes: bytes, name: "x", encoding: .binary, note: "raw"))
        #expect(Self.stops(document) == [
            "0:0 length 1..<2 The outermost element",
            "0:1 whole 2..<5 A primitive: INTEGER",
            "0:2 length 6..<8 A long-form length",
        ])
        #expect(document.tour.steps[0].lesson.last?.hasPrefix("length: 0x80 alone is the indefinite form") == true)
        #expect(document.tour.steps[2].check?.question == "How many length octets follow 0x81?")
        #expect(document.tour.steps[2].check?.answer == "a")
    }

    @Test func reassembledPayloadStopsAreInThePayloadLayer() {
        let document = DocumentOpenTests.open(DocumentOpenTests.twoChunks)
        let set = document.tour.steps.first { $0.title == "The payload SET" }
        #expect(set?.node == NodeID(LayerID(1), 0))
        #expect(set?.range == 0..<1)
        #expect(set.map(document.fileRange(of:)) == 41..<42)
        let value = document.tour.steps.first { $0.title == "The value inside the attribute's OCTET STRING" }
        // UTF8String "a" is payload node 5; its content octet is payload offset 14, in chunk 2 (file 49-57).
        #expect(value?.node == NodeID(LayerID(1), 5))
        #expect(value?.range == 14..<15)
        #expect(value.map(document.fileRange(of:)) == 57..<58)
    }
}

/// The StoreKit 2 route on the committed JWS sample.
@Suite struct JWSTourTests {
    @Test func transactionTokenRoute() throws {
        let text = try Paths.sample("jws/transaction.jws")
        let input = try InputLoader.decode(text, name: "transaction.jws")
        let document = Document.open(input, options: AnalysisOptions(validate: false))
        let steps = document.tour.steps
        #expect(steps.map(\.title) == [
            "A compact JWS: three base64url parts", "The header, decoded: JSON", "The payload, decoded: JSON",
            "An x5c certificate: DER inside base64 inside JSON", "The ES256 signature: raw r‖s vs DER",
        ])
        #expect(steps.map { "\($0.node.layer.index):\($0.node.index)" } == ["0:0", "1:0", "2:0", "4:0", "3:0"])
        #expect(steps.map(document.fileRange(of:)) == [0..<3638, 0..<3638, 3639..<4469, 32..<39, 4470..<4556])
        #expect(steps[4].range == 0..<64)
        #expect(steps[4].lesson.contains("der: OpenSSL's verify wants ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }: 71 bytes, 30 45 02 20 79 18 05 E2 …"))
        #expect(steps[3].check?.answer == "b")
    }
}
