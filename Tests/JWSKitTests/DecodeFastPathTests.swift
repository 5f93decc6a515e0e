@testable import ASN1Lenient
import Foundation
import JSONLenient
import Testing
@testable import JWSKit
import TestSupport
@testable import ByteText

/// The fast paths of a token's decode (issue 12) give exactly what the general code gives: base64
/// without anything to report, dates in years 0-9999, splitting at the dots by `memchr`.
@Suite("JWS decode fast paths")
struct DecodeFastPathTests {
    @Test func cleanBase64DecodesLikeTheReportingDecoder() {
        let url = Array("AZaz09-_".utf8), standard = Array("AZaz09+/".utf8)
        var texts: [[UInt8]] = []
        // Up to 29 characters: the two-groups step (from 12), its 8-byte store, and every tail after it.
        for length in 0...29 {
            texts.append((0..<length).map { url[$0 % url.count] })
            texts.append((0..<length).map { standard[($0 * 3) % standard.count] })
        }
        // Nonzero unused bits, padding, a standard character in base64url, a bad byte at each position.
        texts += ["QQ", "QR", "QUI", "QUJ", "QQ==", "QUI=", "a+b_", "ab\u{0}c", "abc.", "abcde", "eyJhbGciOiJFUzI1NiJ9"].map { Array($0.utf8) }
        for position in 0..<8 {
            var text = Array("eyJhbGci".utf8)
            text[position] = UInt8(ascii: "!")
            texts.append(text)
        }
        // A bad byte (and a padding character) at every place of the two-groups step and of the tail.
        for position in 0..<26 {
            for bad in [UInt8(ascii: "!"), UInt8(ascii: "="), 0xFF] {
                var text = Array("eyJhbGciOiJFUzI1NiIsIng1Yy".utf8)
                text[position] = bad
                texts.append(text)
            }
        }
        for text in texts {
            for alphabet in [Base64Decoder.Alphabet.url, .standard] {
                let fast = Base64Decoder.decode(text[...], alphabet: alphabet)
                let general = Base64Decoder.decodeReporting(text[...], alphabet: alphabet)
                let note = "\(String(decoding: text, as: UTF8.self)) \(alphabet)"
                #expect(fast.bytes == general.bytes, "\(note)")
                #expect(fast.diagnostics == general.diagnostics, "\(note)")
                // The fast path takes exactly the texts with nothing to report, except padded ones
                // (valid in standard base64), which it leaves to the reporting decoder.
                let padded = text.contains(UInt8(ascii: "="))
                #expect((Base64Decoder.decodeClean(text[...], placed: Base64Decoder.placed(alphabet)) != nil) == (general.diagnostics.isEmpty && !padded), "\(note)")
            }
        }
        // A slice not starting at 0 keeps its diagnostics' offsets in the caller's coordinates.
        let sliced = Array("xxQR".utf8)[2...]
        #expect(Base64Decoder.decode(sliced, alphabet: .url).diagnostics.map(\.range) == [3..<4])
        #expect(Base64Decoder.decode(Array("QUJD".utf8)[...], alphabet: .url).bytes == Array("ABC".utf8))
        // Two groups a step: each of the six bytes in place (the store's two extra bytes overwritten).
        #expect(Base64Decoder.decode(Array("xxQUJDREVGR0hJSktM".utf8)[2...], alphabet: .url).bytes == Array("ABCDEFGHIJKL".utf8))
        #expect(Base64Decoder.decode(Array("QUJDREVGR0hJSktM".utf8)[...], alphabet: .url).bytes == Array("ABCDEFGHIJKL".utf8))
        #expect(Base64Decoder.decode(Array("QUJDREVGR0hJSktMTU4".utf8)[...], alphabet: .url).bytes == Array("ABCDEFGHIJKLMN".utf8))
    }

    @Test func fixedWidthDatesMatchThePaddedForm() {
        // Components from Foundation's calendar (proleptic Gregorian from 1583 on), printed by
        // printf: the fixed-width writer (ISO8601Text) must give the same text.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let year: Double = 365.2425 * 86_400_000
        var instants: [Double] = [0, -1, 1, 999, 1000, 951_782_400_000, 1_759_302_518_835, 1_708_430_400_000.5, 253_402_300_799_999]
        instants += stride(from: -380.0, through: 8029.0, by: 41.0).map { $0 * year + 12_345_678 }
        for ms in instants {
            let totalMs = Int64(ms.rounded(.down))
            let subsecond = ((totalMs % 1000) + 1000) % 1000
            let date = Date(timeIntervalSince1970: Double(totalMs - subsecond) / 1000)
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let padded = String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", c.year!, c.month!, c.day!,
                                c.hour!, c.minute!, c.second!, Int(subsecond))
            #expect(ISODate.string(milliseconds: ms) == padded, "\(ms)")
        }
        #expect(ISODate.string(milliseconds: -62_167_219_200_000) == "0000-01-01T00:00:00.000Z")
        #expect(ISODate.string(milliseconds: -62_167_219_200_001) == "-000001-12-31T23:59:59.999Z")
        #expect(ISODate.string(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        #expect(ISODate.string(milliseconds: 253_402_300_800_000) == "+010000-01-01T00:00:00.000Z")
        #expect(ISO8601Text.fixedWidth(year: 7, month: 3, day: 9, second: 3 * 3600 + 4 * 60 + 5, ms: 6) == "0007-03-09T03:04:05.006Z")
    }

    @Test func splittingFindsEveryDot() {
        let cases: [(String, [Range<Int>])] = [
            ("a.b.c", [0..<1, 2..<3, 4..<5]),
            (".b.c", [0..<0, 1..<2, 3..<4]),
            ("a.b.", [0..<1, 2..<3, 4..<4]),
            ("a..", [0..<1, 2..<2, 3..<3]),
            ("abc", [0..<3]),
            ("a.b.c.d.e", [0..<1, 2..<3, 4..<5]),
            ("a.b.c \n", [0..<1, 2..<3, 4..<5]),
        ]
        for (text, ranges) in cases {
            let document = JWSDocument.decode(text: Array(text.utf8))
            #expect(document.segments.map(\.characterRange) == ranges, "\(text)")
        }
        #expect(JWSDocument.decode(text: Array("a.b.c.d.e".utf8)).diagnostics.first?.diagnostic.message
            == "a compact JWS has 3 dot-separated parts, this has 5 (five parts is JWE, an encrypted token, which StoreKit does not use)")
    }

    @Test func aDuplicateKeyReadsTheSameValueInTheSummaryAndTheJSON() {
        let payload = #"{"transactionId":"1","transactionId":"2","price":10,"currency":"USD","currency":"EUR"}"#
        let document = JWSDocument.decode(text: token(payload: payload))
        guard let tree = document.payloadJSON, let root = tree.root else {
            Issue.record("no payload JSON"); return
        }
        #expect(document.payload.string("transactionId") == "1")
        #expect(tree.value("transactionId", in: root).flatMap(tree.string(at:)) == "1")
        #expect(tree.member("currency", in: root) == document.payload.field("currency")?.member.index)
        #expect(document.payload.value("price") == .price(milliunits: 10, currency: "USD"))
        #expect(document.codes(.payload) == [JSONCode.duplicateKey.code, JSONCode.duplicateKey.code])
    }

    @Test
    func theDuplicateKeySampleNamesOneMemberPerKey() throws {
        let document = JWSDocument.decode(text: try Paths.bytes(Paths.samples.appendingPathComponent("jws/malformed-duplicate-keys.jws")))
        guard let tree = document.payloadJSON, let root = tree.root else {
            Issue.record("no payload JSON"); return
        }
        let names = tree.members(of: root).compactMap { tree.key(ofMember: $0) }
        #expect(Set(names).count < names.count)  // the sample has a duplicate
        for name in Set(names) {
            #expect(tree.member(name, in: root) == document.payload.field(name)?.member.index, "\(name)")
        }
    }
}
