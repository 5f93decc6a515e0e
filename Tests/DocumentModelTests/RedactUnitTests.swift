import ASN1Lenient
import ByteText
import DocumentCore
import DocumentRedact
import Foundation
import ReceiptKit
import Testing
import TestSupport
import TextLoader

/// Redaction on hand-made inputs whose layout is known: chunked payloads, JSON escapes and
/// numbers, text forms, and the stand-in classes.
@Suite struct RedactUnitTests {
    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `{"alg":"ES256"}.payload.<64 zero bytes>`.
    static func token(payload: String) -> [UInt8] {
        Array((base64url(Array(#"{"alg":"ES256"}"#.utf8)) + "." + base64url(Array(payload.utf8)) + "."
               + base64url([UInt8](repeating: 0, count: 64))).utf8)
    }

    static func redact(_ raw: [UInt8], bundleID: Bool = false, keep: Set<RedactField> = []) throws -> (RedactRun, [UInt8]) {
        let run = try Redactor.run([try RedactSupport.input(raw)], options: RedactSupport.options(bundleID: bundleID, keep: keep))
        let copy = try #require(run.copies.first)
        return (run, try #require(copy.bytes, "\(copy.failure ?? "")"))
    }

    // MARK: - A payload in two BER chunks

    /// A SignedData whose payload SET { attribute 2 "com.x", attribute 17 { in-app 1703
    /// "2000000123456789" } } comes in two OCTET STRING chunks cut inside the transaction id.
    static let chunked: (bytes: [UInt8], idFileOffsets: [Int]) = {
        let inApp = DER.set(DER.seq(DER.int(1703), DER.int(1), DER.octets(DER.utf8("2000000123456789"))))
        let payload = DER.set(DER.seq(DER.int(2), DER.int(1), DER.octets(DER.utf8("com.x"))),
                              DER.seq(DER.int(17), DER.int(1), DER.octets(inApp)))
        let idStart = payload.count - 16  // the id is the payload's last 16 bytes
        let cut = idStart + 7
        let chunks = DER.tlv(0x24, DER.octets(Array(payload[..<cut])) + DER.octets(Array(payload[cut...])))
        let encapsulated = DER.seq(DER.oid(DER.hex("2A 86 48 86 F7 0D 01 07 01")), DER.tlv(0xA0, chunks))
        let signedData = DER.seq(DER.int(1), DER.set(), encapsulated, DER.set())
        let bytes = DER.seq(DER.oid(DER.hex("2A 86 48 86 F7 0D 01 07 02")), DER.tlv(0xA0, signedData))
        // File offsets of the id's bytes: 7 at the end of chunk 1, 9 at the start of chunk 2.
        let firstChunkContent = Data(bytes).range(of: Data(Array(payload[..<cut])))!.lowerBound
        let secondChunkContent = firstChunkContent + cut + 2  // past chunk 2's header (04 LL)
        return (bytes, Array((firstChunkContent + idStart)..<(firstChunkContent + cut)) + Array(secondChunkContent..<(secondChunkContent + 9)))
    }()

    @Test func idAcrossTwoChunksIsWrittenIntoBoth() throws {
        let original = try RedactSupport.open(Self.chunked.bytes)
        #expect(original.layers.count == 2)  // the reassembled payload
        #expect(original.receipt?.receipt?.inApp.first?.transactionID == "2000000123456789")
        let (run, copy) = try Self.redact(Self.chunked.bytes)
        // Exactly the id's 16 bytes changed, 7 in the first chunk and 9 in the second.
        let changed = Self.chunked.bytes.indices.filter { Self.chunked.bytes[$0] != copy[$0] }
        #expect(copy.count == Self.chunked.bytes.count)
        #expect(Set(changed).isSubset(of: Set(Self.chunked.idFileOffsets)))
        #expect(changed.count >= 14)  // two digits may happen to match
        let redacted = try RedactSupport.open(copy)
        let standIn = try #require(redacted.receipt?.receipt?.inApp.first?.transactionID)
        #expect(run.standIns[.text("2000000123456789")] == .text(standIn))
        #expect(standIn.count == 16 && standIn.allSatisfy(\.isNumber) && !standIn.hasPrefix("0"))
        #expect(DocumentShape(original) == DocumentShape(redacted))
        #expect(run.copies[0].replaced == [.transactionID: 1])
        #expect(run.copies[0].signatures == ["the PKCS#7 signature no longer verifies: it signs the digest of the receipt payload, whose bytes changed"])
    }

    /// A negative in-app 1711 is no id: left, and said so; the rest of the receipt is redacted.
    @Test func negativeWebOrderLineItemIsReported() throws {
        let inApp = DER.set(DER.seq(DER.int(1703), DER.int(1), DER.octets(DER.utf8("2000000123456789"))),
                            DER.seq(DER.int(1711), DER.int(1), DER.octets(DER.tlv(0x02, [0xFF, 0x00]))))
        let payload = DER.set(DER.seq(DER.int(17), DER.int(1), DER.octets(inApp)))
        let encapsulated = DER.seq(DER.oid(DER.hex("2A 86 48 86 F7 0D 01 07 01")), DER.tlv(0xA0, DER.octets(payload)))
        let raw = DER.seq(DER.oid(DER.hex("2A 86 48 86 F7 0D 01 07 02")),
                          DER.tlv(0xA0, DER.seq(DER.int(1), DER.set(), encapsulated, DER.set())))
        let (run, copy) = try Self.redact(raw)
        let offset = Data(raw).range(of: Data([0x04, 0x04, 0x02, 0x02, 0xFF, 0x00]))!.lowerBound + 2
        #expect(run.copies[0].notReplaced == ["in-app purchase #1, web order line item id (in-app 1711) at offset \(offset): -256 is not an id (negative or beyond 64 bits), left as it is"])
        #expect(run.copies[0].replaced == [.transactionID: 1])
        #expect(Array(copy[offset..<(offset + 4)]) == [0x02, 0x02, 0xFF, 0x00])
    }

    // MARK: - JSON

    /// `\u0032` stays a `\u` escape (of another digit), `\/` stays, the lengths stay.
    @Test func escapesKeepTheirForm() throws {
        let payload = #"{"transactionId":"\u0032000000510000004","deviceVerification":"Ab\/cD+e","productId":"p"}"#
        let raw = Self.token(payload: payload)
        let (_, copy) = try Self.redact(raw)
        #expect(copy.count == raw.count)
        let document = try RedactSupport.open(copy)
        let layer = try #require(document.layers.first { $0.role == .jwsPayload })
        let text = String(decoding: layer.bytes, as: UTF8.self)
        #expect(text.count == payload.count)
        let escaped = try #require(text.range(of: #"{"transactionId":"\u00"#))
        let hexDigits = text[escaped.upperBound...].prefix(2).filter { $0.isHexDigit }.count
        #expect(hexDigits == 2)
        let verification = try #require(text.range(of: #""deviceVerification":""#))
        let value = String(text[verification.upperBound...].prefix(9))
        #expect(value.dropFirst(2).hasPrefix(#"\/"#) && value.dropFirst(6).hasPrefix("+"))
        #expect(value != #"Ab\/cD+e""#)
        #expect(text.hasSuffix(#","productId":"p"}"#))
        let json = try #require(layer.json)
        let id = try #require(json.lookup(["transactionId"]).flatMap(json.string(at:)))
        #expect(id.count == 16 && id.allSatisfy(\.isNumber) && id != "2000000510000004")
    }

    /// A legacy numeric id is replaced by digits in place; the JSON stays a number.
    @Test func numericIdStaysANumber() throws {
        let raw = Self.token(payload: #"{"transactionId":2000000510000004,"originalTransactionId":null,"quantity":1}"#)
        let (run, copy) = try Self.redact(raw)
        let layer = try #require(try RedactSupport.open(copy).layers.first { $0.role == .jwsPayload })
        let json = try #require(layer.json)
        let node = try #require(json.lookup(["transactionId"]))
        #expect(json[node].kind == .number)
        let text = json.text(of: node)
        #expect(text.count == 16 && text != "2000000510000004")
        #expect(run.standIns[.text("2000000510000004")] == .text(text))
        let quantity = try #require(json.lookup(["quantity"]))
        #expect(json.text(of: quantity) == "1")
        #expect(run.copies[0].replaced == [.transactionID: 1])
    }

    @Test func fractionalNumberIsReportedNotReplaced() throws {
        let raw = Self.token(payload: #"{"transactionId":2.5}"#)
        let (run, copy) = try Self.redact(raw)
        #expect(copy == raw)
        #expect(run.copies[0].notReplaced == ["payload: transactionId: the number 2.5 is not a plain integer, left as it is"])
    }

    // MARK: - Text forms

    @Test
    func base64AndPEMKeepTheirLines() throws {
        for name in ["typical.b64", "typical.pem", "typical.json"] {
            let raw = try Paths.sample(name)
            let (_, copy) = try Self.redact(raw)
            let lines = { (bytes: [UInt8]) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) }
            #expect(lines(copy).map(\.count) == lines(raw).map(\.count), "\(name)")
            #expect(copy != raw, "\(name)")
            // Armour and JSON around the base64 are untouched.
            let changed = raw.indices.filter { raw[$0] != copy[$0] }
            let text = String(decoding: raw, as: UTF8.self)
            let bodyStart = name == "typical.pem" ? text.utf8.count - text.drop { $0 != "\n" }.utf8.count
                : name == "typical.json" ? Array(raw).firstIndex(of: UInt8(ascii: "M"))! : 0
            #expect(changed.allSatisfy { $0 >= bodyStart }, "\(name)")
            let encodings = (try InputLoader.decode(copy, name: name).encoding, try InputLoader.decode(raw, name: name).encoding)
            #expect(encodings.0 == encodings.1)
        }
    }

    @Test
    func quotedTokenIsSplicedBackInItsQuotes() throws {
        let token = try Paths.sample("jws/transaction.jws").filter { $0 != 0x0A }
        let raw = Array("  \"".utf8) + token + Array("\"\n".utf8)
        let (_, copy) = try Self.redact(raw)
        #expect(copy.prefix(3) == raw.prefix(3) && copy.suffix(2) == raw.suffix(2))
        let encoding = try InputLoader.decode(copy, name: "t").encoding
        #expect(encoding == .jws)
    }

    // MARK: - Stand-ins

    @Test func digitStandInsKeepLengthDERLengthAndOrder() throws {
        let originals: [String] = ["1000000000000001", "2000000510000000", "2000000510000004", "9007199254740993", "127", "128", "5"]
        let table = try StandIns(key: .seeded("t"), originals: Set(originals.map(RedactedValue.text)))
        for original in originals {
            guard case .text(let standIn)? = table[.text(original)] else { Issue.record("no stand-in for \(original)"); continue }
            #expect(standIn.count == original.count)
            #expect(standIn != original)
            #expect(!originals.contains(standIn))
            #expect(standIn.count == 1 || !standIn.hasPrefix("0"))
            // 127 fits one INTEGER octet, 128 needs two (00 80): their stand-ins do too.
            if original == "127" { #expect(UInt64(standIn)! <= 127) }
            if original == "128" { #expect(UInt64(standIn)! >= 128) }
        }
        let sixteen = ["1000000000000001", "2000000510000000", "2000000510000004", "9007199254740993"]
        let standIns = sixteen.map { table[.text($0)]! }
        #expect(standIns == standIns.sorted())
    }

    /// Xcode's one-digit ids 0…5: every stand-in differs from its own value, all are distinct.
    @Test func smallClassesHaveNoFixedPoint() throws {
        let originals = (0...5).map { RedactedValue.text(String($0)) }
        let table = try StandIns(key: .seeded("x"), originals: Set(originals))
        let standIns = originals.map { table[$0]! }
        #expect(Set(standIns).count == 6)
        for (a, b) in zip(originals, standIns) { #expect(a != b) }
        #expect(standIns == standIns.sorted())
    }

    @Test func uuidTextAndBytesKeepTheirClass() throws {
        let uuid = "207262da-1ac8-4e0a-a399-5aa62a82800f"
        let upper = "3B76A7BD-8F5B-46A4-BCB1-CCE8DBD1B3CD"
        let text = "Com.VoiceRecording.Telephone"
        let bytes: [UInt8] = Array(0..<20)
        let table = try StandIns(key: .seeded("u"), originals: [.text(uuid), .text(upper), .text(text), .bytes(bytes)])
        guard case .text(let a)? = table[.text(uuid)], case .text(let b)? = table[.text(upper)],
              case .text(let c)? = table[.text(text)], case .bytes(let d)? = table[.bytes(bytes)] else {
            Issue.record("missing stand-ins"); return
        }
        let shape = try Regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
        let matches = (try shape.wholeMatch(in: a), try shape.wholeMatch(in: b.lowercased()))
        #expect(matches.0 != nil)
        #expect(matches.1 != nil && b == b.uppercased())
        #expect(c.count == text.count && c.split(separator: ".").map(\.count) == [3, 14, 9])
        #expect(c.first!.isUppercase && c.dropFirst().prefix(2).allSatisfy(\.isLowercase))
        #expect(c != text)
        #expect(d.count == 20 && d != bytes)
        // The same key gives the same table; another key another one.
        let again = try StandIns(key: .seeded("u"), originals: [.text(uuid), .text(upper), .text(text), .bytes(bytes)])
        #expect(again == table)
        let other = try StandIns(key: .seeded("v"), originals: [.text(uuid)])
        #expect(other[.text(uuid)] != table[.text(uuid)])
    }

    @Test("the table finds each value by its kind and bytes: text and bytes apart, the empty value and others absent")
    func standInTableLooksUpByKindAndBytes() throws {
        let originals: Set<RedactedValue> = [.text("abc"), .bytes(Array("abc".utf8)), .text("abd"), .text("ab"), .text(""), .bytes([0xFF]),
                                             .text("2000000123456789")]
        let table = try StandIns(key: .seeded("t"), originals: originals)
        #expect(table.count == 6)
        for original in originals where original != .text("") {
            let standIn = try #require(table[original])
            #expect(standIn != original)
            switch (original, standIn) {
            case (.text(let a), .text(let b)): #expect(a.utf8.count == b.utf8.count)
            case (.bytes(let a), .bytes(let b)): #expect(a.count == b.count)
            default: Issue.record("\(original): a stand-in of the other kind")
            }
        }
        #expect(table[.text("abc")] != table[.bytes(Array("abc".utf8))])
        #expect(table[.text("")] == nil && table[.text("abe")] == nil && table[.text("a")] == nil && table[.bytes([0xFE])] == nil)
        // Pinned: the same seed gives the same stand-in (the draw is the one before the table was packed).
        #expect(table[.text("2000000123456789")] == .text("1470358997382529"))
    }

    // MARK: - The shape check

    /// The shape keeps hashes of the nodes, not the tree (the original and its input go before the
    /// copy is opened): a node that differs with the same sizes and counts is found, and named,
    /// by its hash alone.
    @Test func shapeFindsADifferingNodeAndNamesItWithoutTheOriginal() throws {
        let integer = try RedactSupport.open(DER.seq(DER.int(5), DER.int(6)))
        let octets = try RedactSupport.open(DER.seq(DER.int(5), DER.octets([6])))
        let shape = DocumentShape(integer)
        #expect(shape == DocumentShape(try RedactSupport.open(DER.seq(DER.int(5), DER.int(6)))))
        #expect(shape.nodeCount == 3)
        #expect(shape.firstDifference(from: DocumentShape(octets)) == "layer 0 (file): node 2 differs")
        #expect(shape.firstDifference(from: octets) == "layer 0 (file): node 2 differs")
        #expect(shape.firstDifference(from: integer) == nil)
        // Sizes and counts are said before any node.
        let longer = try RedactSupport.open(DER.seq(DER.int(5), DER.int(6), DER.int(7)))
        #expect(shape.firstDifference(from: longer) == "layer 0 (file) is 11 bytes instead of 8")
    }

    /// Beyond `hashBudget` nodes a hash covers a run of nodes (a 50 MB history's 5 million nodes in
    /// 65,536 hashes), and the run that differs is named.
    @Test func aLargeShapeNamesTheRunOfNodesThatDiffers() throws {
        let count = DocumentShape.hashBudget + 10  // two nodes a hash
        let elements = (0..<count).map { _ in DER.int(1) }
        var changed = elements
        changed[count - 3] = DER.octets([1])  // the SEQUENCE is node 0: this is node count - 2
        let shape = DocumentShape(try RedactSupport.open(DER.seq(elements.flatMap { $0 })))
        #expect(shape.nodeCount == count + 1)
        #expect(shape.nodeHashCount == (count + 2) / 2)
        let copy = try RedactSupport.open(DER.seq(changed.flatMap { $0 }))
        #expect(shape.firstDifference(from: copy) == "layer 0 (file): a node among nodes 65,544–65,545 differs")
    }

    /// The names redact keeps of a document (the mapping's layer names) are read back from one
    /// buffer: the kept layers' names as the document has them, every other one empty.
    @Test func packedLayerNamesReadBackTheKeptNames() throws {
        let token = try SharedTokenTextTests.sampleToken("transaction.jws")
        let document = try SharedTokenTextTests.open("{\"signedTransactions\": [\"\(token)\", \"\(token)\"]}", name: "history.json")
        let payloads = Set(document.layers.filter { $0.role == .jwsPayload }.map(\.id.index))
        #expect(payloads.count == 2)
        let names = PackedLayerNames(document, keeping: payloads.union([0]))
        for layer in document.layers {
            let kept = payloads.contains(layer.id.index) || layer.id.index == 0
            #expect(names[layer.id.index] == (kept ? layer.name : ""), "\(layer.id.index)")
        }
        #expect(names[document.layers.count] == "")
        #expect(names[1] == "")
        #expect(payloads.map { names[$0] }.sorted() == ["signedTransactions[0] payload", "signedTransactions[1] payload"])
    }

    // MARK: - Compact targets

    @Test("a target reads its value from the layer's bytes; only one that does not read back as itself keeps it")
    func targetsReadTheirValueFromTheLayer() {
        // Place (24), a reference, 32-bit range and layer, three bytes: 48, not 112 and a string (issue 32).
        #expect(MemoryLayout<RedactTarget>.stride == 48)
        let der: ByteWindow = [0x02, 0x03, 0x00, 0x12, 0x34]
        let integer = RedactTarget(field: .webOrderLineItemID, layer: .file, range: 2..<5, original: .text("4660"), form: .derInteger,
                                   place: "x", in: der)
        #expect(integer.kind == .derInteger && integer.original(in: der) == .text("4660"))
        #expect(integer.original(in: [0x02, 0x03, 0x00, 0x00, 0x07]) == .text("7"))
        let bytes = RedactTarget(field: .sha1Hash, layer: .file, range: 1..<3, original: .bytes([0x03, 0x00]), form: .plain, place: "h", in: der)
        #expect(bytes.kind == .bytes && bytes.original(in: [9, 8, 7]) == .bytes([8, 7]))
        // `"a\/b"`: the escape takes two layer bytes, so the decoded text is kept.
        let escaped = RedactTarget(field: .transactionID, layer: .file, range: 1..<5, original: .text("a/b"),
                                   form: .jsonString(offsets: [1, 2, 4]), place: "y", in: ByteWindow(Array(#""a\/b""#.utf8)))
        #expect(escaped.original(in: ByteWindow(Array(#""xyzw""#.utf8))) == .text("a/b"))
        let literal = RedactTarget(field: .transactionID, layer: .file, range: 1..<4, original: .text("abc"),
                                   form: .jsonString(offsets: [1, 2, 3]), place: "y", in: ByteWindow(Array(#""abc""#.utf8)))
        #expect(literal.original(in: ByteWindow(Array(#""xyz""#.utf8))) == .text("xyz"))
        // Told a value the layer does not hold there: kept as told.
        let odd = RedactTarget(field: .transactionID, layer: .file, range: 0..<3, original: .text("abd"), form: .plain, place: "z",
                               in: ByteWindow(Array("abc".utf8)))
        #expect(odd.original(in: ByteWindow(Array("abc".utf8))) == .text("abd"))
        #expect(RedactPlace("product_id", in: .inAppPurchase, number: 3).text == "in-app purchase #3, product_id")
    }

    @Test("the target list gives back each target as added, in 24 bytes each, its places' names shared")
    func targetListKeepsEveryPart() {
        #expect(RedactTargetList.bytesPerTarget == 24)
        let layer = ByteWindow(Array(#"0123456789"a\/b""#.utf8))
        var list = RedactTargetList()
        #expect(list.isEmpty && list.nameCount == 0)
        list.append(RedactTarget(field: .transactionID, layer: LayerID(2), range: 0..<4, original: .text("0123"), form: .plain,
                                 location: RedactPlace("transaction id", in: .inAppPurchase, number: 20_000), in: layer))
        list.append(RedactTarget(field: .bundleID, layer: .file, range: 4..<10, original: .text("456789"), form: .plain,
                                 location: RedactPlace("transaction id", in: .inAppPurchase, number: 7), isMention: true, in: layer))
        // `"a\/b"`: irregular, its decoded text and offsets kept beside the list.
        list.append(RedactTarget(field: .originalTransactionID, layer: LayerID(1), range: 11..<15, original: .text("a/b"),
                                 form: .jsonString(offsets: [11, 12, 14]), place: "payload: originalTransactionId", in: layer))
        list.append(RedactTarget(field: .sha1Hash, layer: .file, range: 1..<3, original: .bytes([0x31, 0x32]), form: .plain,
                                 place: "SHA-1 hash", in: layer))
        var more = RedactTargetList()
        more.append(RedactTarget(field: .webOrderLineItemID, layer: .file, range: 9..<10, original: .text("9"), form: .plain,
                                 place: "SHA-1 hash", isMention: true, in: layer))
        list.append(contentsOf: more)
        let kept = list.finished()
        #expect(kept.count == 5 && kept.nameCount == 3)
        #expect(kept.map(\.place) == ["in-app purchase #20000, transaction id", "in-app purchase #7, transaction id",
                                      "payload: originalTransactionId", "SHA-1 hash", "SHA-1 hash"])
        #expect(kept.map(\.field) == [.transactionID, .bundleID, .originalTransactionID, .sha1Hash, .webOrderLineItemID])
        #expect(kept.map(\.layer) == [LayerID(2), .file, LayerID(1), .file, .file])
        #expect(kept.map(\.range) == [0..<4, 4..<10, 11..<15, 1..<3, 9..<10])
        #expect(kept.map(\.isMention) == [false, true, false, false, true])
        #expect(kept.map(\.kind) == [.utf8, .utf8, .jsonString, .bytes, .utf8])
        #expect(kept.map { $0.original(in: layer) } == [.text("0123"), .text("456789"), .text("a/b"), .bytes([0x31, 0x32]), .text("9")])
        #expect(kept[2].original(in: ByteWindow(Array(repeating: 0x30, count: 16))) == .text("a/b"))
        #expect(kept[0].original(in: ByteWindow(Array(repeating: 0x30, count: 16))) == .text("0000"))
    }

    @Test("the run's values keep digit ids as numbers by class, once each, and find every value as the set did")
    func valuesKeepDigitIDsAsNumbers() throws {
        let given: [RedactedValue] = [.text("2000000510000004"), .text("17"), .text("2000000510000004"), .text("1000000033000002"),
                                      .text("0123"), .text("12345678901234567890"), .text("com.example"), .bytes([0x31, 0x37]),
                                      .text("9"), .text("17"), .text("")]
        var values = StandIns.Values()
        for value in given { values.insert(value) }
        values.sort()
        // "0123" (a leading zero) and a 20-digit id are no digit ids; the empty value has no stand-in.
        #expect(values.digitIDs == [[9], [17], [1_000_000_033_000_002, 2_000_000_510_000_004]])
        #expect(values.others == [.text("0123"), .text("12345678901234567890"), .text("com.example"), .bytes([0x31, 0x37])])
        for value in given where value != .text("") { #expect(values.contains(value)) }
        #expect(!values.contains(.text("18")) && !values.contains(.text("017")) && !values.contains(.bytes([0x39])))
        #expect(!values.contains(.text("2000000510000005")) && !values.contains(.text("")))
        // Drawn from these, the table is the one drawn from the set of the same values.
        #expect(try StandIns(key: .seeded("v"), values: values) == StandIns(key: .seeded("v"), originals: Set(given)))
    }

    @Test("the mention table finds a value's bytes where they lie, longest first, with the field of the value's chosen place")
    func mentionTableFindsValuesByTheirBytes() {
        var table = MentionTable()
        #expect(table.isEmpty)
        table.add("12345", .transactionID, overriding: true)  // shorter than a mention: left out
        table.add("com.example", .bundleID, overriding: true)
        table.add("2000000510000004", .transactionID, overriding: true)
        table.add("2000000510000004", .originalTransactionID, overriding: true)  // the last place in the data wins
        table.add("com.example", .transactionID, overriding: false)  // around the data: never over the data's
        table.add("abcdef", .webOrderLineItemID, overriding: false)
        table.add("abcdef", .transactionID, overriding: false)  // around the data: the first wins
        table.add("com.examplf", .appAppleID, overriding: true)
        // Digits are kept as numbers, beside the other values of their length.
        table.add("0000000510000004", .appAccountToken, overriding: true)
        table.add("20000005100000041", .transactionID, overriding: true)
        table.add("1234567890123456789", .webOrderLineItemID, overriding: true)
        table.add("12345678901234567890", .appAppleID, overriding: true)  // 20 digits: kept as bytes
        table.add("2000000510000004x", .bundleID, overriding: true)
        table.finish()
        #expect(!table.isEmpty)
        #expect(table.lengths.map(\.length) == [20, 19, 17, 16, 11, 6])
        #expect(table.lengths.map(\.count) == [1, 1, 2, 2, 2, 1])
        let text = Array("xcom.example 2000000510000004 abcdef com.examplf com.exampld abcdeg 0000000510000004 2000000510000005 12345678901234567890 1234567890123456789 20000005100000041 2000000510000004x".utf8)
        func field(_ start: Int, _ length: Int) -> RedactField? {
            guard let group = table.lengths.first(where: { $0.length == length }) else { return nil }
            return text.withUnsafeBufferPointer { table.field(at: start..<(start + length), of: $0, in: group) }
        }
        #expect(field(1, 11) == .bundleID && field(13, 16) == .originalTransactionID && field(30, 6) == .webOrderLineItemID)
        #expect(field(37, 11) == .appAppleID && field(49, 11) == nil && field(61, 6) == nil && field(0, 11) == nil && field(12, 16) == nil)
        #expect(field(68, 16) == .appAccountToken && field(85, 16) == nil && field(102, 20) == .appAppleID && field(123, 19) == .webOrderLineItemID)
        #expect(field(143, 17) == .transactionID && field(161, 17) == .bundleID && field(102, 19) == .webOrderLineItemID && field(103, 19) == nil && field(143, 16) == .originalTransactionID)
        // Found in a scan, longest first: the 17 digits before the 16 they start with.
        var found: [String] = []
        text.withUnsafeBufferPointer { all in
            table.forEachMention(in: all, 68..<text.count, allowed: { _ in true }) { range, field in found.append("\(range.lowerBound) \(field)") }
        }
        #expect(found == ["68 appAccountToken", "102 appAppleID", "123 webOrderLineItemID", "143 transactionID", "161 bundleID"])
    }

    @Test("the targets' spots are found only as they are: the same layer, start and end")
    func sortedSpotsFindExactRanges() {
        let spots = SortedSpots([TargetSpot(layer: LayerID(1), range: 10..<20), TargetSpot(layer: .file, range: 30..<36),
                                 TargetSpot(layer: .file, range: 5..<9), TargetSpot(layer: .file, range: 5..<7)])
        #expect(spots.contains(TargetSpot(layer: .file, range: 5..<9)) && spots.contains(TargetSpot(layer: .file, range: 5..<7)))
        #expect(spots.contains(TargetSpot(layer: LayerID(1), range: 10..<20)) && spots.contains(TargetSpot(layer: .file, range: 30..<36)))
        #expect(!spots.contains(TargetSpot(layer: .file, range: 10..<20)) && !spots.contains(TargetSpot(layer: .file, range: 5..<8)))
        #expect(!spots.contains(TargetSpot(layer: LayerID(2), range: 0..<1)) && !SortedSpots([]).contains(TargetSpot(layer: .file, range: 0..<1)))
    }
}
