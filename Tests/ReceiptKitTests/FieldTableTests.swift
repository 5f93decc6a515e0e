import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

/// The receipt's fields are kept as compact records in one table and built when read (issue 12):
/// what a consumer reads must be what the bytes say, the O(1) lookup must find the first field of
/// a type, and the links must name the same fields.
@Suite struct FieldTableTests {
    static let sampleNames = [
        "typical.receipt", "minimal.receipt", "unlisted-attributes.receipt", "xcode-ber.receipt",
        "malformed-bad-date.receipt", "malformed-duplicate-attribute.receipt", "malformed-wrong-type.receipt",
        "malformed-truncated.receipt", "malformed-indefinite-in-payload.receipt", "malformed-hostile-strings.receipt",
        "malformed-invalid-utf8.receipt", "malformed-missing-required.receipt", "malformed-length-past-parent.receipt",
        "diff/base.receipt", "diff/refund.receipt", "diff/base-ber.receipt",
    ]

    @Test(arguments: sampleNames)
    func samplesReadBackFromTheirBytes(_ name: String) throws {
        #expect(try checkAgainstBytes(try Paths.sample(name), name))
    }

    @Test(.enabled(if: Paths.corpusAvailable))
    func corpusReadsBackFromItsBytes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Paths.receipts.path).filter { $0.hasSuffix(".receipt") }
        #expect(names.count >= 10)
        var decoded = 0
        for name in names.sorted() where try checkAgainstBytes(try Paths.corpusReceipt(name), name) { decoded += 1 }
        #expect(decoded == names.count)
    }

    /// Every field against an independent reading of its attribute's bytes: nodes, value range,
    /// value, purchase index and position; each purchase's typed values against its first field of
    /// the type; `field(type)` against a scan.
    /// False when the input holds no decodable payload (nothing to compare).
    @discardableResult
    func checkAgainstBytes(_ bytes: [UInt8], _ name: String) throws -> Bool {
        let a = decode(bytes)
        guard let r = a.receipt else { return false }
        let tree = a.receiptTree
        let nodes = tree.nodes
        func content(_ node: Int) -> Range<Int> {
            let n = nodes[node]
            let start = Int(n.offset) + Int(n.identifierLength) + Int(n.lengthLength)
            return start..<(start + Int(n.contentLength))
        }
        func check(_ f: ReceiptField, level: AttributeLevel, purchase: Int?, position: Int) {
            #expect(f.level == level, "\(name)")
            #expect(f.inAppIndex == (level == .inApp ? purchase : nil), "\(name)")
            #expect(nodes[f.attributeNode].tagNumber == 16, "\(name)")
            #expect(f.typeNode.flatMap { IntegerValue.int64(tree.bytes[content($0)]) } == Int64(f.type), "\(name)")
            if let v = f.versionNode, f.version != nil { #expect(f.version == IntegerValue.int64(tree.bytes[content(v)]), "\(name)") }
            #expect(f.valueNode.map(content) == f.valueRange, "\(name) type \(f.type)")
            #expect(f.isListed == (ReceiptSchema.spec(type: f.type, level: level) != nil), "\(name)")
            // The location the links give for the attribute names this field back.
            let location = a.links.location(of: f.attributeNode)
            #expect(location?.fieldIndex == position && location?.attributeType == f.type, "\(name)")
            #expect(r.field(at: location!) == f, "\(name)")
            let value = tree.bytes[f.valueRange]
            let header = InnerTLV.read(tree.bytes, at: f.valueRange.lowerBound, limit: f.valueRange.upperBound)
            let inner = header.map { tree.bytes[$0.contentStart..<$0.contentEnd] }
            switch f.value {
            case .string(let s):
                #expect(inner.map { String(decoding: $0, as: UTF8.self) } == s, "\(name) type \(f.type)")
            case .integer(let v):
                #expect(inner.flatMap { IntegerValue.int64($0) } == v, "\(name) type \(f.type)")
            case .bigInteger(let s):
                #expect(inner.map { IntegerValue.decimal($0) } == s, "\(name) type \(f.type)")
            case .date(let d):
                let text = inner.map { String(decoding: $0, as: UTF8.self) }
                #expect(d.text == text, "\(name) type \(f.type)")
                if case .date(let e)? = text.map(ReceiptDate.parse) {
                    #expect(e.epochMilliseconds == d.epochMilliseconds && e.utcOffsetMinutes == d.utcOffsetMinutes)
                } else {
                    Issue.record("\(name) type \(f.type): \(text ?? "nil") does not parse")
                }
            case .absentDate:
                #expect(inner?.isEmpty == true, "\(name) type \(f.type)")
            case .inAppPurchase(let i):
                #expect(f.type == 17 && level == .app && r.inApp[i].attributeNode == f.attributeNode, "\(name)")
            case .bytes, .invalid:
                #expect(value.count == f.valueRange.count)
            }
        }
        for (i, f) in r.fields.enumerated() { check(f, level: .app, purchase: nil, position: i) }
        #expect(r.fields.filter { $0.type == 17 }.count == r.inApp.count, "\(name)")
        for p in r.inApp {
            for (j, f) in p.fields.enumerated() { check(f, level: .inApp, purchase: p.index, position: j) }
            let first = { (type: Int) in p.fields.first { $0.type == type } }
            #expect(p.productID == first(1702)?.value.string, "\(name)")
            #expect(p.transactionID == first(1703)?.value.string, "\(name)")
            #expect(p.originalTransactionID == first(1705)?.value.string, "\(name)")
            #expect(p.webOrderLineItemID == first(1711)?.value.integerText, "\(name)")
            #expect(p.promotionalOfferID == first(1721)?.value.string, "\(name)")
            #expect(p.purchaseDate?.text == first(1704)?.value.date?.text, "\(name)")
            #expect(p.quantity == first(1701)?.value.integer, "\(name)")
            // Every typed value is its first field's (read from the record when asked for).
            #expect(p.originalPurchaseDate?.text == first(1706)?.value.date?.text, "\(name)")
            #expect(p.expiresDate?.text == first(1708)?.value.date?.text, "\(name)")
            #expect(p.cancellationDate?.text == first(1712)?.value.date?.text, "\(name)")
            #expect(p.productType == first(1707)?.value.integer, "\(name)")
            #expect(p.isTrialPeriod == first(1713)?.value.integer.map { $0 != 0 }, "\(name)")
            #expect(p.isInIntroOfferPeriod == first(1719)?.value.integer.map { $0 != 0 }, "\(name)")
            #expect(p.cancellationReason == first(1720)?.value.integer, "\(name)")
            #expect(p.field(1702) == first(1702), "\(name)")
        }
        for type in -2...40 {
            #expect(r.field(type) == r.fields.first { $0.type == type }, "\(name) type \(type)")
            #expect(r.fields(type) == r.fields.filter { $0.type == type }, "\(name) type \(type)")
        }
        #expect(r.unlistedCount == r.unlistedFields.count, "\(name)")
        return true
    }

    /// The lookup is a table: the slot of each type below 32 is the first app-level record of that type.
    @Test func lookupTableHoldsTheFirstOfEachType() throws {
        let duplicateBundle = attribute(2, DER.utf8("com.example.second"))
        // Type -1 and type 2^32 (DER written by hand: `DER.int` writes unsigned values).
        let negative = DER.tlv(0x30, [0x02, 0x01, 0xFF] + DER.int(1) + DER.tlv(0x04, [3]))
        let wide = DER.tlv(0x30, [0x02, 0x05, 0x01, 0, 0, 0, 0] + DER.int(1) + DER.tlv(0x04, [4]))
        let a = decode(container(payload: minimalPayload([duplicateBundle, attribute(40, [1, 2]), negative, wide])))
        let r = try #require(a.receipt)
        for type in 0..<32 {
            let first = r.table.app.firstIndex { r.table.typeNumber($0) == type }
            #expect(r.table.firstByType[type] == Int32(first ?? -1), "type \(type)")
        }
        #expect(r.bundleID == "com.example.app")
        #expect(r.fields(2).map(\.value.string) == ["com.example.app", "com.example.second"])
        // Types outside the table's range are found by a scan.
        #expect(r.field(40)?.valueRange.count == 2 && r.field(40)?.isUnlisted == true)
        #expect(r.field(-1)?.value == .bytes && r.field(-1)?.isUnlisted == true)
        #expect(r.field(1 << 32)?.valueRange.count == 1 && r.field(1 << 32)?.type == 1 << 32)
        #expect(r.field(0) == r.fields.first)
    }

    /// Values a record cannot hold go to the side list and come back unchanged; the usual ones stay
    /// in the record (no side entry).
    @Test func sideValuesComeBackExactly() throws {
        let purchase = DER.tlv(0x31, [
            attribute(1701, [0x02, 0x09, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]),   // 2^64: a big integer
            attribute(1702, DER.ia5("com.example.ia5")),                    // another string type
            attribute(1703, DER.utf8("20000006000000000042")),              // longer than 15 bytes
            attribute(1704, DER.ia5("2024-03-01T13:30:00+01:00")),          // an offset: kept as written
            attribute(1706, DER.ia5("2024-03-01T12:30:00Z")),               // canonical: in the record
            attribute(1708, DER.ia5("")),                                   // absent
            attribute(1712, DER.ia5("2024-02-30T00:00:00Z")),               // invalid
            attribute(1707, DER.utf8("3")),                                 // wrong type
        ].flatMap { $0 })
        let a = decode(container(payload: minimalPayload([attribute(17, purchase)])))
        let r = try #require(a.receipt)
        let p = try #require(r.inApp.first)
        let values = p.fields.map(\.value)
        #expect(values[0] == .bigInteger("18446744073709551616"))
        #expect(values[1] == .string("com.example.ia5"))
        #expect(values[2] == .string("20000006000000000042"))
        #expect(values[3].date?.text == "2024-03-01T13:30:00+01:00" && values[3].date?.utcOffsetMinutes == 60)
        #expect(values[4].date?.text == "2024-03-01T12:30:00Z")
        #expect(values[4].date?.epochMilliseconds == epochMS("2024-03-01T12:30:00Z"))
        #expect(values[5] == .absentDate)
        #expect(values[6] == .invalid("not an RFC 3339 date: day 30 does not exist in 2024-02"))
        #expect(values[7] == .invalid("a UTF8String instead of an INTEGER"))
        #expect(p.transactionID == "20000006000000000042")
        #expect(p.purchaseDate?.text == "2024-03-01T13:30:00+01:00")
        #expect(p.originalPurchaseDate?.text == "2024-03-01T12:30:00Z")
        #expect(p.expiresDate == nil && p.cancellationDate == nil && p.productType == nil)
        #expect(r.table.side.count == 4)
        let kinds = r.table.inApp.map(\.kind)
        #expect(kinds == [.side, .string, .string, .side, .date, .absentDate, .side, .side])
    }

    /// A record is 8 bytes (issue 32: 64 when it kept what the tree says again, 16 with its value's
    /// scalar), and a purchase keeps its place and its fields only.
    @Test func recordAndPurchaseSizes() {
        #expect(MemoryLayout<FieldRecord>.stride == 8)
        #expect(MemoryLayout<InAppPurchase>.stride <= 48)
    }

    /// An in-app record's purchase and position come from the purchases' first records: against the
    /// plain definition (the purchase whose fields hold the record) on every record, with purchases
    /// that have no fields (a value that is not a SET, an empty SET) before, between and after others.
    @Test func purchaseAndPositionOfEveryRecord() throws {
        let one = DER.tlv(0x31, attribute(1702, DER.utf8("a")) + attribute(1703, DER.utf8("1")))
        let three = DER.tlv(0x31, attribute(1702, DER.utf8("b")) + attribute(1703, DER.utf8("2"))
                                 + attribute(1704, DER.ia5("2024-03-01T12:30:00Z")))
        let notASet = DER.utf8("not a purchase")
        let empty = DER.tlv(0x31, [])
        let purchases = [notASet, one, empty, notASet, three, one, empty].map { attribute(17, $0) }
        let a = decode(container(payload: minimalPayload(purchases)))
        let r = try #require(a.receipt)
        #expect(r.inApp.map(\.fields.count) == [0, 2, 0, 0, 3, 2, 0])
        #expect(r.table.purchaseStarts == [0, 0, 2, 2, 2, 5, 7])
        for p in r.inApp {
            for (j, f) in p.fields.enumerated() {
                let i = p.fields.range.lowerBound + j
                #expect(r.table.purchase(holding: i) == p.index && f.inAppIndex == p.index)
                let place = r.table.position(.inApp, i)
                #expect(place.purchase == p.index && place.position == j)
                #expect(a.links.location(of: f.attributeNode)?.fieldIndex == j)
                #expect(a.links.location(of: f.attributeNode)?.inAppIndex == p.index)
            }
        }
        #expect(r.inApp[4].purchaseDate?.epochMilliseconds == epochMS("2024-03-01T12:30:00Z"))
        #expect(r.inApp[4].transactionID == "2" && r.inApp[5].productID == "a" && r.inApp[0].productID == nil)
    }

    /// Types outside 0...65534 are read back from the type INTEGER (the record keeps 16 bits);
    /// 65534 is the widest kept in the record.
    @Test func wideTypesAreReadFromTheTree() throws {
        let types = [65534, 65535, 65536, 1 << 40, -1, -70000]
        let attrs = types.map { type -> [UInt8] in
            var v = Int64(type).bigEndian
            let octets = withUnsafeBytes(of: &v) { Array($0) }
            // Minimal two's complement: drop leading octets that only repeat the sign.
            var start = 0
            while start < 7, (octets[start] == 0 && octets[start + 1] & 0x80 == 0) || (octets[start] == 0xFF && octets[start + 1] & 0x80 != 0) { start += 1 }
            return DER.tlv(0x30, DER.tlv(0x02, Array(octets[start...])) + DER.int(1) + DER.tlv(0x04, [9]))
        }
        let a = decode(container(payload: minimalPayload(attrs)))
        let r = try #require(a.receipt)
        let extra = Array(r.fields.suffix(types.count))
        #expect(extra.map(\.type) == types)
        #expect(r.table.app.suffix(types.count).map(\.shortType) == [65534] + Array(repeating: FieldRecord.wideType, count: 5))
        for type in types {
            #expect(r.fields(type).count == 1 && r.fields(type).first?.valueRange.count == 1, "type \(type)")
            #expect(a.links.location(of: r.fields(type)[0].attributeNode)?.attributeType == type)
        }
    }
}
