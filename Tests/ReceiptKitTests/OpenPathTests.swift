import Foundation
import Testing
import TestSupport
import ASN1Lenient
@testable import ReceiptKit

/// The open path's shortcuts (issue 12): dates that keep no copy of their text, the decoder's own
/// node reads and the links it fills while decoding must give what the general paths give.
@Suite struct OpenPathTests {
    /// Text kept as written, whether or not the date stores a copy of it (canonical texts do not).
    @Test(arguments: [
        "2024-03-01T12:30:00Z",        // canonical: no copy, rebuilt by iso8601
        "0000-01-01T00:00:00Z",        // first year of the fast formatter
        "9999-12-31T23:59:59Z",        // last second it writes
        "1969-12-31T23:59:59Z",        // negative epoch
        "2016-12-31T23:59:60Z",        // a leap second: iso8601 would say 2017-01-01T00:00:00Z, so kept
        "2024-03-01t12:30:00Z", "2024-03-01T12:30:00z", "2024-03-01 12:30:00Z",
        "2024-03-01T12:30:00.000Z",    // iso8601 leaves out .000, so kept
        "2024-03-01T12:30:00.250Z", "2024-03-01T12:30:00+0000", "2024-03-01T13:30:00+01:00",
    ])
    func dateTextIsAsWritten(_ text: String) throws {
        guard case .date(let d) = ReceiptDate.parse(text) else {
            Issue.record("\(text) did not parse")
            return
        }
        #expect(d.text == text)
        #expect(d.description == text)
        // The same bytes read in place (as the decoder does) give the same date and text.
        let bytes = Array(text.utf8)
        let inPlace = bytes.withUnsafeBufferPointer { ReceiptDate.parse($0) }
        guard case .date(let e) = inPlace else {
            Issue.record("\(text) did not parse in place")
            return
        }
        #expect(e.text == text && e.epochMilliseconds == d.epochMilliseconds && e.utcOffsetMinutes == d.utcOffsetMinutes)
    }

    /// The digit-by-digit ISO 8601 writer against the general one (`civil`), on both sides of its range.
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_432_383_489_000, "2015-05-23T12:18:09Z"),
        (1_432_383_489_250, "2015-05-23T12:18:09.250Z"),
        (1_432_383_489_007, "2015-05-23T12:18:09.007Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-62_167_219_200_000, "0000-01-01T00:00:00Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
        (253_402_300_800_000, "10000-01-01T00:00:00Z"),      // general path
        (-62_167_219_200_001, "-1-12-31T23:59:59.999Z"),     // general path (the year unpadded)
    ])
    func iso8601(_ ms: Int64, _ expected: String) {
        let date = ReceiptDate(epochMilliseconds: ms)
        #expect(date.iso8601 == expected)
        #expect(date.text == expected)
        let general = ReceiptDate.civil(ms, offsetSeconds: 0).replacingOccurrences(of: " ", with: "T")
        #expect(expected.hasPrefix(general))
    }

    @Test func invalidDatesStillSayWhy() {
        #expect(ReceiptDate.parse("2024-03-01T12:30:00") == .invalid("no time zone ('Z' or an offset such as +01:00)"))
        #expect(ReceiptDate.parse("2024-02-30T12:30:00Z") == .invalid("day 30 does not exist in 2024-02"))
        #expect(ReceiptDate.parse("2024-03-01\u{FF}12:30:00Z") == .invalid("expected 'T' between the date and the time"))
        #expect(ReceiptDate.parse("") == .absent)
    }

    /// The links the decoder fills while decoding are the links built from the decoded receipt
    /// (`ReceiptLinks(receipt:tree:)`): same count, same answer for every node.
    @Test(arguments: [
        "typical.receipt", "unlisted-attributes.receipt", "malformed-duplicate-attribute.receipt",
        "malformed-wrong-type.receipt", "malformed-truncated.receipt", "malformed-bad-date.receipt",
        "malformed-indefinite-in-payload.receipt", "xcode-ber.receipt",
    ])
    func decoderLinksEqualReceiptLinks(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Paths.samples.appendingPathComponent(name)))
        let a = decode(bytes)
        let receipt = try #require(a.receipt)
        let rebuilt = ReceiptLinks(receipt: receipt, tree: a.receiptTree)
        #expect(a.links.count == rebuilt.count)
        #expect(a.links.count == receipt.fields.count + receipt.inApp.reduce(0) { $0 + $1.fields.count })
        for node in -1...a.receiptTree.count {
            #expect(a.links.location(of: node) == rebuilt.location(of: node), "node \(node)")
        }
    }

    /// The decoder reads class and constructed bit from the identifier octet: a non-minimal
    /// two-octet SEQUENCE identifier (1F 10, high-tag form for 16) is still an attribute SEQUENCE,
    /// and a context-specific [16] is not.
    @Test func identifierReadsMatchTheNode() throws {
        let bundle = attribute(2, DER.utf8("com.example.app"))
        var highForm = bundle
        highForm.replaceSubrange(0..<1, with: [0x3F, 0x10])
        let context = [UInt8(0xB0)] + bundle.dropFirst()
        let a = decode(container(payload: DER.tlv(0x31, highForm + context)))
        let r = try #require(a.receipt)
        #expect(r.fields.count == 1)
        #expect(r.bundleID == "com.example.app")
        let malformed = a.findings.filter { $0.code == ReceiptCode.attributeMalformed.code }
        #expect(malformed.count == 1)
        #expect(malformed.first?.message == "an element of the payload is a [16], an attribute SEQUENCE was expected")
    }
}

extension OpenPathTests {
    /// A date's text is fixed when it is made, as before texts were rebuilt on access: moving the
    /// instant afterwards does not rewrite it.
    @Test func textStaysWhenTheInstantMoves() throws {
        guard case .date(var parsed) = ReceiptDate.parse("2024-03-01T12:30:00Z") else {
            Issue.record("did not parse")
            return
        }
        parsed.epochMilliseconds += 1000
        #expect(parsed.text == "2024-03-01T12:30:00Z")
        var made = ReceiptDate(epochMilliseconds: 0)
        made.epochMilliseconds = 86_400_000
        #expect(made.text == "1970-01-01T00:00:00Z")
        #expect(made.iso8601 == "1970-01-02T00:00:00Z")
    }
}
