import ASN1Lenient
import DocumentCore
import DocumentTour
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader
import X509Trust

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
        "The payload SET", "One attribute: type, version, value", "The value inside the attribute's OCTET STRING",
        "One in-app purchase", "A date", "Certificates", "SignerInfo", "What the signature covers", "The signature",
        "The device hash (attribute 5)",
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
            "0:61 whole 295..<334 One attribute: type, version, value",
            "0:65 content 307..<334 The value inside the attribute's OCTET STRING",
            "0:66 whole 334..<694 One in-app purchase",
            "0:55 content 243..<263 A date",
            "0:1046 identifier 4206..<4207 Certificates",
            "0:1293 identifier 7239..<7240 SignerInfo",
            "0:1314 whole 7398..<7411 What the signature covers",
            "0:1319 content 7430..<7686 The signature",
            "0:50 content 211..<231 The device hash (attribute 5)",
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
        // The indefinite length is asked about, so explain's line for it is kept for the answer.
        #expect(!tour.steps[0].lesson.contains { $0.hasPrefix("length: 0x80 = 0b10000000") })
        #expect(tour.steps[0].check?.question == "The length octet is 0x80 and no length octets follow: how long is the content?")
        #expect(tour.steps[7].check?.question == "How many length octets follow 0x82?")
        #expect(tour.steps[8].lesson.last == "order: member at offset 77 sorts before the one at 60: not in DER order (BER allows any order; DER sorts a SET OF by the members' encodings)")
        #expect(tour.steps.count == 18)
    }

    @Test func oidStopDecodesEveryArcButTheOneItAsksAbout() throws {
        let step = try Self.open("typical.receipt").tour.steps[1]
        #expect(step.lesson.filter { $0.hasPrefix("arc: ") } == [
            "arc: 2A (one octet, bit 8 clear) = 42 = 40 × 1 + 2 → arcs 1.2",
            "arc: 86 48 (2 octets, bit 8 set on all but the last; 7-bit groups 0000110 1001000) = 840",
            "arc: 113549 (how is it written? the self-check below asks)",
            "arc: 01 (one octet, bit 8 clear) = 1",
            "arc: 07 (one octet, bit 8 clear) = 7",
            "arc: 02 (one octet, bit 8 clear) = 2",
        ])
        let check = try #require(step.check)
        #expect(check.question == "The arc 113549 needs 17 bits; base 128 puts 7 bits in each octet: how many octets does it take?")
        #expect(check.rightChoice?.text == "3")
        #expect(!step.lesson.contains { $0.hasPrefix("arc: ") && $0.contains("86 F7 0D") })
    }

    /// The answer is not printed above the question (it was: "the next 2 octets hold the length").
    @Test func firstLongFormLengthAsksWhatTheLengthIs() throws {
        let step = try Self.open("typical.receipt").tour.steps[0]
        let check = try #require(step.check)
        #expect(check.line == "check: The length octets are 82 1E 02: how many content octets follow? [a] 130  [b] 7,682  [c] 542")
        #expect(check.answer == "b")
        #expect(check.reply(to: "b")?.text == "right: 0x82 has bit 8 set, so its low 7 bits (2) count the length octets; 1E 02 big-endian is 7,682")
        #expect(check.reply(to: "a")?.text == "not quite: 130 is 0x82 itself; with bit 8 set it only says how many length octets follow (2)")
        #expect(check.reply(to: "c")?.text == "not quite: that reads 1E 02 backwards: lengths are big-endian, the first octet is the most significant")
        #expect(check.reply(to: "z") == nil)
        #expect(!step.lesson.contains { $0.contains("7,682") || $0.contains("the next 2 octets hold the length") })
        #expect(step.lesson.contains("30 82 1E 02 06 09 2A 86 48 86 F7 0D 01 07 02 A0 82 1D F3 30 82 1D EF 02 … (7,686 bytes)"))
    }

    @Test func certificateGetsTheRFC5280Route() throws {
        let document = Document.open(LoadedInput(bytes: try Paths.sample("pki/test-root.cer"), name: "root", encoding: .binary, note: "raw"))
        #expect(Self.stops(document) == [
            "0:0 length 1..<4 Certificate: signed part, algorithm, signature",
            "0:1 identifier 4..<5 tbsCertificate: the bytes the issuer signs",
            "0:2 identifier 8..<9 version: [0] EXPLICIT",
            "0:4 content 15..<27 serialNumber",
            "0:8 whole 42..<161 issuer: who signed it",
            "0:25 whole 161..<193 validity: notBefore and notAfter",
            "0:28 whole 193..<312 subject: whose key this is",
            "0:45 whole 312..<606 subjectPublicKeyInfo: the key",
            "0:53 identifier 606..<607 extensions: [3] EXPLICIT",
            "0:75 whole 707..<722 signatureAlgorithm",
            "0:78 content 726..<983 signatureValue: a BIT STRING",
        ])
        let steps = document.tour.steps
        #expect(steps[6].lesson.contains("subject: C=US, O=receipt-explorer TEST, OU=TEST ONLY - not Apple, CN=receipt-explorer TEST Root CA"))
        #expect(steps[8].lesson.contains("extension: 2.5.29.19 = basic constraints (is it a CA?)"))
        // The key size is read from the modulus: 257 content octets, a leading 00.
        #expect(steps[7].check?.rightChoice?.text == "2048")
        #expect(steps[5].check?.line == "check: The UTCTime \"450101000000Z\" has a two-digit year: which year is it? [a] 1945  [b] 2045  [c] 2046")
        #expect(steps[5].check?.reply(to: "a")?.text == "not quite: the century is not free: 45 is below 50, so 20xx")
    }

    @Test func ecCertificateKeyCheckReadsThePoint() throws {
        let input = try InputLoader.decode(try Paths.sample("pki/test-ec-signer.pem"), name: "signer.pem")
        let key = try #require(Document.open(input).tour.steps.first { $0.title == "subjectPublicKeyInfo: the key" })
        #expect(key.check?.question == "The point is 65 bytes, 04 then X then Y: how many bits is each coordinate?")
        #expect(key.check?.rightChoice?.text == "256")
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
        #expect(document.tour.steps[0].check?.question == "The length octet is 0x80 and no length octets follow: how long is the content?")
        #expect(document.tour.steps[2].check?.question == "How many length octets follow 0x81?")
        #expect(document.tour.steps[2].check?.rightChoice?.text == "1")
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

/// The StoreKit 2 route on the committed JWS samples.
@Suite struct JWSTourTests {
    static func open(_ name: String) throws -> Document {
        let input = try InputLoader.decode(try Paths.sample(name), name: name)
        return Document.open(input, options: AnalysisOptions(validate: false))
    }

    @Test func transactionTokenRoute() throws {
        let document = try Self.open("jws/transaction.jws")
        let steps = document.tour.steps
        #expect(steps.map(\.title) == [
            "A compact JWS: three base64url parts", "The header, decoded: JSON", "The payload, decoded: JSON",
            "x5c[0], the leaf: Apple's marker OID", "x5c[1], the intermediate: its marker OID",
            "Why validity is judged at signedDate", "The ES256 signature: raw r‖s vs DER",
        ])
        #expect(steps.map { "\($0.node.layer.index):\($0.node.index)" } == ["0:0", "1:0", "2:0", "4:71", "5:73", "4:24", "3:0"])
        #expect(steps.map(document.fileRange(of:)) == [0..<3638, 0..<3638, 3639..<4469, 982..<1002, 2221..<2240, 346..<404, 4470..<4556])
        #expect(steps[6].range == 0..<64)
        // DER length: r starts 0x79 (32 octets), s needs a 00: 2 + 2 + 32 + 2 + 33.
        #expect(steps[6].check?.rightChoice?.text == "71")
        #expect(steps[6].check?.rightChoice?.why == "30 45, then 02 20 and r in 32 octets, 02 21 and s in 33: 2 + 2 + 32 + 2 + 33 = 71")
        #expect(!steps[6].lesson.contains { $0.contains("71") })
        #expect(steps[0].check?.rightChoice?.text == "2,728")
        #expect(steps[2].check?.rightChoice?.text == "2024-03-01T12:00:00.000Z")
        #expect(steps[5].check?.rightChoice?.text == "yes: signedDate is inside the leaf's validity")
    }

    @Test func notificationRouteTakesDataAndTheNestedToken() throws {
        let document = try Self.open("jws/notification.jws")
        let steps = document.tour.steps
        #expect(steps.map(\.title) == [
            "A compact JWS: three base64url parts", "The header, decoded: JSON", "The payload, decoded: JSON",
            "The notification's data", "A nested token: data.signedTransactionInfo",
            "x5c[0], the leaf: Apple's marker OID", "x5c[1], the intermediate: its marker OID",
            "Why validity is judged at signedDate", "The ES256 signature: raw r‖s vs DER",
        ])
        #expect(steps[3].lesson.first == "text: data holds appAppleId, bundleId, bundleVersion, environment, signedTransactionInfo, signedRenewalInfo, status")
        #expect(document.fileRange(of: steps[4]) == 3951..<10026)
        #expect(steps[4].check?.rightChoice?.text == "3")
    }

    @Test func aLeafWithoutTheMarkerSaysSo() throws {
        let steps = try Self.open("jws/malformed-leaf-without-marker.jws").tour.steps
        #expect(steps[3].title == "x5c[0], the leaf: no marker OID")
    }
}

/// Every self-check of every sample's tour: one right answer, every choice explained and distinct,
/// no question asked twice in one tour, and one at least every three stops.
@Suite struct SelfCheckTests {
    static var samples: [String] {
        let root = Paths.packageRoot.appendingPathComponent("samples")
        let names = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        return names.filter { $0.hasSuffix(".receipt") || $0.hasSuffix(".jws") || $0.hasSuffix(".json") && !$0.hasSuffix("manifest.json")
            || $0.hasSuffix(".cer") || $0.hasSuffix(".pem") || $0.hasSuffix(".b64") }.sorted()
    }

    @Test func everyTourChecksAtLeastEveryThirdStopAndExplainsEveryChoice() throws {
        #expect(Self.samples.count > 60)
        for name in Self.samples {
            // Through the one way in, as `tour` reads it (a JSON reply without token keys is text to the bare loader).
            let input = try DocumentInput.path(Paths.samples.appendingPathComponent(name).path).read().loaded
            let tour = Document.open(input, options: AnalysisOptions(validate: false)).tour
            #expect(!tour.steps.isEmpty, "\(name)")
            for i in tour.steps.indices where i >= 2 || i == tour.steps.count - 1 {
                let window = tour.steps[max(0, i - 2)...i]
                #expect(window.contains { $0.check != nil }, "\(name): no self-check in steps \(max(0, i - 2) + 1)-\(i + 1)")
            }
            let questions = tour.steps.compactMap(\.check).map(\.question)
            #expect(Set(questions).count == questions.count, "\(name): a question asked twice")
            for step in tour.steps {
                // The lesson above a question never prints its answer (numbers of 4 characters or
                // more, and words: shorter numbers also occur as hex octets in the bytes line).
                guard let right = step.check?.rightChoice?.text, right.count >= 4 else { continue }
                #expect(!step.lesson.contains { Self.containsWord($0, right) }, "\(name): \(step.title) prints its answer \(right)")
            }
            for check in tour.steps.compactMap(\.check) {
                #expect(check.choices.count >= 2 && check.choices.filter { $0.key == check.answer }.count == 1, "\(name): \(check.question)")
                #expect(Set(check.choices.map(\.text)).count == check.choices.count, "\(name): \(check.question)")
                for choice in check.choices {
                    #expect(!choice.why.isEmpty, "\(name): \(check.question) [\(choice.key)]")
                    #expect(check.reply(to: choice.key)?.text.hasPrefix(choice.key == check.answer ? "right: " : "not quite: ") == true)
                }
            }
        }
    }

    /// `text` occurs in `line` not as part of a longer number or word.
    static func containsWord(_ line: String, _ text: String) -> Bool {
        var rest = line[...]
        while let r = rest.range(of: text) {
            let before = r.lowerBound == line.startIndex ? nil : line[line.index(before: r.lowerBound)]
            let after = r.upperBound == line.endIndex ? nil : line[r.upperBound]
            let joins: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "," || $0 == "." } ?? false }
            if !joins(before) && !joins(after) { return true }
            rest = line[r.upperBound...]
        }
        return false
    }
}
