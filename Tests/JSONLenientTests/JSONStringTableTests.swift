import Foundation
import ASN1Lenient
import Testing
@testable import JSONLenient

/// Strings are kept as ranges of the input when they need no decoding, and decoded by the scanner
/// otherwise (issue 12): every value, key, comparison and diagnostic must be what decoding each
/// string into a `String` gave.
@Suite("JSON string table: input ranges and decoded strings")
struct JSONStringTableTests {
    func parse(_ text: String) -> JSONTree { JSONParser.parse(Array(text.utf8)) }
    func codes(_ tree: JSONTree) -> [JSONCode] { tree.diagnostics.compactMap { d in JSONCode.allCases.first { $0.code == d.code } } }

    /// A string's character count is its byte count when it is its input range, and the decoded
    /// `String`'s otherwise: an escaped CR LF is one character, "é" and a combining accent count
    /// as one each; a value that is no string has none.
    @Test func characterCountIsTheStringsCount() {
        let tree = parse(#"["plain text", "a\r\nb", "\u00e9t\u00e9", "e\u0301", 7]"#)
        let values = tree.children(of: 0)
        #expect(values.map { tree.characterCount(ofString: $0) } == [10, 3, 3, 1, nil])
        #expect(values.dropLast().map { tree.characterCount(ofString: $0) } == values.dropLast().map { tree.string(at: $0)?.count })
    }

    /// `hasString(at:)` answers what `string(at:) != nil` does, for every node (keys, values,
    /// escaped, broken and non-string ones), without making the string.
    @Test func hasStringIsWhetherThereIsAString() {
        let tree = parse(#"{"k": "plain", "e": "a\nb", "bad": "\q", "n": 1, "o": {"t": true}, "u": "\ud800"}"#)
        #expect(tree.nodes.count > 10)
        for index in tree.nodes.indices {
            #expect(tree.hasString(at: index) == (tree.string(at: index) != nil), "node \(index)")
        }
        #expect(tree.nodes.indices.filter { tree.hasString(at: $0) }.count >= 4)
    }

    @Test func escapesDecodeToTheirValuesWithExactDiagnostics() {
        //                    0         1         2         3         4         5
        //                    0123456789012345678901234567890123456789012345678901234567
        let tree = parse(#"["a\u0000b", "x\/y", "\ud83d\ude00", "\ud800!", "\udc00", "plain"]"#)
        #expect(tree.strings == ["a\u{0}b", "x/y", "😀", "\u{FFFD}!", "\u{FFFD}", "plain"])
        #expect(tree.children(of: 0).map { tree.string(at: $0) } == ["a\u{0}b", "x/y", "😀", "\u{FFFD}!", "\u{FFFD}", "plain"])
        #expect(codes(tree) == [.loneSurrogate, .loneSurrogate])
        #expect(tree.diagnostics.map(\.range) == [38..<44, 49..<55])
        #expect(tree.diagnostics.map(\.node?.index) == [4, 5])
        // The escaped "x\/y" is ASCII once decoded and compares by bytes; the plain one is its input range.
        #expect(tree.string(at: 2, is: "x/y"))
        #expect(!tree.string(at: 2, is: "x\\/y"))
        #expect(tree.string(at: 6, is: "plain"))
        #expect(!tree.string(at: 6, is: "plai"))
        #expect(tree.string(at: 3, is: "😀"))
    }

    @Test func nonASCIIAndInvalidUTF8KeepTheScannersValues() {
        let bytes: [UInt8] = Array(#"{"é":"ü","k":"a"#.utf8) + [0xFF, 0xC3] + Array(#"b"}"#.utf8)
        let tree = JSONParser.parse(bytes)
        #expect(tree.strings == ["é", "ü", "k", "a\u{FFFD}\u{FFFD}b"])
        #expect(codes(tree) == [.invalidUTF8, .invalidUTF8])
        #expect(tree.diagnostics.map(\.range) == [17..<18, 18..<19])
        #expect(tree.key(ofMember: 1) == "é")
        #expect(tree.memberKey(1, is: "é"))
        #expect(tree.memberKey(1, is: "e\u{301}"))  // canonically equivalent, as String's == says
        #expect(tree.value("k", in: 0).flatMap(tree.string(at:)) == "a\u{FFFD}\u{FFFD}b")
    }

    @Test func aKeyWrittenPlainAndEscapedIsOneKey() {
        //                    0123456789012345678
        let tree = parse(#"{"ab":1,"a\u0062":2}"#)
        #expect(codes(tree) == [.duplicateKey])
        #expect(tree.diagnostics[0].range == 8..<17)
        #expect(tree.diagnostics[0].message == #"key "ab" already appears at offset 1; readers disagree on which one counts"#)
        #expect(tree.value("ab", in: 0).flatMap(tree.number(at:))?.integer == 1)
    }

    @Test func canonicallyEquivalentKeysAreDuplicatesAsInADictionary() {
        // KELVIN SIGN is canonically "K"; "é" precomposed and decomposed are one key for String.
        let tree = parse("{\"K\":1,\"\u{212A}\":2,\"é\":3,\"e\u{301}\":4,\"k\":5}")
        #expect(codes(tree) == [.duplicateKey, .duplicateKey])
        #expect(tree.diagnostics.map(\.offset) == [7, 22])
        #expect(tree.diagnostics[0].message.contains("already appears at offset 1"))
        #expect(tree.diagnostics[1].message.contains("already appears at offset 15"))
        #expect(tree.member("K", in: 0) == 1)
        #expect(tree.member("\u{212A}", in: 0) == 1)
        #expect(tree.member("k", in: 0) == 9)
    }

    /// A lookup compares a key's own UTF-8 byte by byte with every member's of its length: small
    /// (inline) and large (heap) keys, differing only in their last byte.
    @Test func lookupsCompareEveryByteOfKeysOfOneLength() {
        let tree = parse(#"{"transactionIdA":1,"transactionIdB":2,"signedTransactionInfoXX":3,"signedTransactionInfoXY":4}"#)
        #expect(tree.member("transactionIdA", in: 0) == 1)
        #expect(tree.member("transactionIdB", in: 0) == 3)
        #expect(tree.member("transactionIdC", in: 0) == nil)
        #expect(tree.member("signedTransactionInfoXY", in: 0) == 7)
        #expect(tree.member("signedTransactionInfoXZ", in: 0) == nil)
        #expect(tree.member(String("xsignedTransactionInfoXX".dropFirst()), in: 0) == 5)
    }

    @Test func duplicatesInALargeObjectNameTheLatestEarlierKey() {
        // Beyond `SeenKeys.scanLimit` keys the object switches from a scan to a dictionary.
        var members = (0..<40).map { #""k\#($0)":\#($0)"# }
        members.append(#""k3":40"#)  // after the switch
        members.append(#""k3":41"#)  // names the previous duplicate, as a dictionary that overwrites did
        members.insert(#""k1":99"#, at: 5)  // before the switch
        let text = "{" + members.joined(separator: ",") + "}"
        let tree = parse(text)
        func offset(of fragment: String, occurrence: Int) -> Int {
            var ranges: [Int] = []
            var search = text.startIndex
            while let r = text.range(of: fragment, range: search..<text.endIndex) {
                ranges.append(text.utf8.distance(from: text.startIndex, to: r.lowerBound))
                search = r.upperBound
            }
            return ranges[occurrence]
        }
        #expect(codes(tree) == [.duplicateKey, .duplicateKey, .duplicateKey])
        #expect(tree.diagnostics.map(\.offset) == [offset(of: #""k1":"#, occurrence: 1), offset(of: #""k3":"#, occurrence: 1),
                                                  offset(of: #""k3":"#, occurrence: 2)])
        #expect(tree.diagnostics[0].message.contains("offset \(offset(of: #""k1":"#, occurrence: 0))"))
        #expect(tree.diagnostics[1].message.contains("offset \(offset(of: #""k3":"#, occurrence: 0))"))
        #expect(tree.diagnostics[2].message.contains("offset \(offset(of: #""k3":"#, occurrence: 1))"))
        #expect(tree.value("k3", in: 0).flatMap(tree.number(at:))?.integer == 3)  // the first wins
    }

    @Test func eightBytesAtATimeFlagsExactlyTheBytesThatNeedALook() {
        for position in 0..<8 {
            for value in 0...255 {
                var word = Array(repeating: UInt8(ascii: "a"), count: 8)
                word[position] = UInt8(value)
                let packed = word.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
                let needs = value < 0x20 || value >= 0x80 || value == 0x22 || value == 0x5C
                #expect(JSONReader.mayNeedALook(packed) == needs, "byte \(value) at \(position)")
            }
        }
    }

    @Test func aSpecialByteAtEveryOffsetOfALongStringIsFound() {
        // The quote, an escape, a control byte and a non-ASCII letter at each offset of a 40-byte
        // string: the same value and diagnostics as the scanner alone gives.
        for offset in 0..<40 {
            let head = String(repeating: "x", count: offset), tail = String(repeating: "y", count: 39 - offset)
            #expect(parse("[\"\(head)\"]").strings == [head], "quote at \(offset)")
            #expect(parse("[\"\(head)\\n\(tail)\"]").strings == [head + "\n" + tail], "escape at \(offset)")
            #expect(parse("[\"\(head)é\(tail)\"]").strings == [head + "é" + tail], "é at \(offset)")
            let control = JSONParser.parse(Array("[\"\(head)".utf8) + [0x01] + Array("\(tail)\"]".utf8))
            #expect(control.strings == [head + "\u{1}" + tail], "control at \(offset)")
            #expect(control.diagnostics.map(\.range) == [(2 + offset)..<(3 + offset)], "control at \(offset)")
            let open = parse("[\"\(head)")
            #expect(open.strings == [head], "unterminated at \(offset)")
            #expect(codes(open).first == .unterminatedString, "unterminated at \(offset)")
        }
    }

    @Test func smallIntegersReadAsTheGeneralPathReadsThem() {
        let texts = ["0", "7", "10", "4990", "1708430400000", "999999999999999", "1000000000000000", "-0", "-5", "01",
                     "1.5", "1e3", "12345678901234567890", "", "-", "1a"]
        for text in texts {
            let bytes = Array(text.utf8)[...]
            #expect(JSONNumberReader.read(bytes) == JSONNumberReader.readGeneral(bytes), "\(text)")
        }
        #expect(JSONNumberReader.readSmallInteger(Array("999999999999999".utf8)[...])?.integer == 999_999_999_999_999)
        for slow in ["-0", "01", "1000000000000000", "1.5", ""] {
            #expect(JSONNumberReader.readSmallInteger(Array(slow.utf8)[...]) == nil, "\(slow)")
        }
        #expect(JSONNumberReader.read(Array("-0".utf8)[...])?.double.sign == .minus)
    }
}
