import ASN1Lenient
import Testing
@testable import JSONLenient

private func parse(_ text: String) -> JSONTree { JSONParser.parse(Array(text.utf8)) }
private func codes(_ tree: JSONTree) -> [JSONCode?] { tree.diagnostics.map(\.code.jsonCode) }

@Suite("JSON reader: structure and ranges")
struct JSONStructureTests {
    @Test func objectMembersHaveKeyAndValueRanges() {
        //          0123456789012345678901234
        let tree = parse(#"{"alg":"ES256", "n": 12}"#)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.nodes.map(\.kind) == [.object, .member, .string, .member, .number])
        #expect(tree[0].range == 0..<24)
        #expect(tree[1].keyRange == 1..<6)
        #expect(tree[1].range == 1..<14)
        #expect(tree.valueRange(of: 1) == 7..<14)
        #expect(tree[2].range == 7..<14)
        #expect(tree[3].keyRange == 16..<19)
        #expect(tree[4].range == 21..<23)
        #expect(tree.string(at: 2) == "ES256")
        #expect(tree.key(ofMember: 3) == "n")
        #expect(tree.number(at: 4)?.integer == 12)
        #expect(tree[0].subtreeEnd == 5)
        #expect(tree[1].subtreeEnd == 3)
        #expect(tree.nodes.map(\.depth) == [0, 1, 2, 1, 2])
        #expect(tree.nodes.map(\.parent) == [-1, 0, 1, 0, 3])
    }

    @Test func arraysAndLiteralsInPreOrder() {
        let tree = parse(#"[true, false, null, [1.5e3], {}]"#)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.nodes.map(\.kind) == [.array, .true, .false, .null, .array, .number, .object])
        #expect(tree.children(of: 0) == [1, 2, 3, 4, 6])
        #expect(tree[3].range == 14..<18)
        #expect(tree.number(at: 5)?.double == 1500)
        #expect(tree.number(at: 5)?.integer == nil)
    }

    @Test func lookupFollowsKeys() {
        let tree = parse(#"{"data": {"bundleId": "com.example", "appAppleId": 1234}}"#)
        let node = tree.lookup(["data", "bundleId"])
        #expect(node.flatMap(tree.string(at:)) == "com.example")
        #expect(tree.lookup(["data", "appAppleId"]).flatMap(tree.number(at:))?.integer == 1234)
        #expect(tree.lookup(["data", "missing"]) == nil)
    }

    @Test func escapesAreDecodedWithSourceOffsets() {
        // x5c entries carry `\/`; surrogate pairs make one 4-byte scalar.
        let tree = parse(#"["MII\/a", "\ud83d\ude00\n\u00e9"]"#)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.string(at: 1) == "MII/a")
        #expect(tree.sourceOffsets(ofString: 1) == [2, 3, 4, 5, 7])
        #expect(tree.string(at: 2) == "😀\né")
    }
}

@Suite("JSON reader: diagnostics with exact ranges")
struct JSONDiagnosticTests {
    @Test func duplicateKeyPointsAtTheSecondKeyAndFirstWins() {
        //          0123456789012345
        let tree = parse(#"{"a":1,"a":2}"#)
        #expect(codes(tree) == [.duplicateKey])
        #expect(tree.diagnostics[0].range == 7..<10)
        #expect(tree.diagnostics[0].severity == .error)
        #expect(tree.diagnostics[0].node == NodeIndex(3))
        // The first, as Apple's JSONSerialization reads it and as StoreKitPayload.field takes it.
        #expect(tree.member("a", in: 0) == 1)
        #expect(tree.value("a", in: 0).flatMap(tree.number(at:))?.integer == 1)
    }

    @Test func numbersBeyond53BitsAreFlagged() {
        let tree = parse(#"{"id": 1152921504606846976, "ok": 9007199254740992}"#)
        #expect(codes(tree) == [.numberBeyond53Bits])
        #expect(tree.diagnostics[0].range == 7..<26)
        #expect(tree.diagnostics[0].severity == .warning)
        #expect(tree.number(at: 2)?.integer == 1_152_921_504_606_846_976)
    }

    @Test func invalidUTF8InAStringIsPinnedToItsBytes() {
        let bytes: [UInt8] = Array(#"{"k":"a"#.utf8) + [0xC3, 0x28] + Array(#"b"}"#.utf8)
        let tree = JSONParser.parse(bytes)
        #expect(codes(tree) == [.invalidUTF8])
        #expect(tree.diagnostics[0].range == 7..<8)
        #expect(tree.diagnostics[0].node == NodeIndex(2))
        #expect(tree.string(at: 2) == "a\u{FFFD}(b")
    }

    @Test func overlongAndSurrogateEncodingsAreInvalidUTF8() {
        let overlong = JSONParser.parse([0x22, 0xC0, 0xAF, 0x22])
        #expect(codes(overlong) == [.invalidUTF8])
        #expect(overlong.diagnostics[0].range == 1..<3)
        let surrogate = JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22])
        #expect(codes(surrogate) == [.invalidUTF8])
        #expect(surrogate.diagnostics[0].range == 1..<4)
    }

    @Test func loneSurrogatesAreFlagged() {
        let tree = parse(#"["\ud800x", "\udc00"]"#)
        #expect(codes(tree) == [.loneSurrogate, .loneSurrogate])
        #expect(tree.diagnostics[0].range == 2..<8)
        #expect(tree.diagnostics[1].range == 13..<19)
    }

    @Test func controlCharactersAndBadEscapes() {
        let tree = JSONParser.parse([0x22, 0x61, 0x09, 0x5C, 0x71, 0x22])
        #expect(codes(tree) == [.controlCharacter, .invalidEscape])
        #expect(tree.diagnostics[0].range == 2..<3)
        #expect(tree.diagnostics[1].range == 3..<5)
    }

    @Test func trailingDataAfterTheValue() {
        let tree = parse("{} x")
        #expect(codes(tree) == [.trailingData])
        #expect(tree.diagnostics[0].range == 3..<4)
    }

    @Test func syntaxErrorsKeepGoing() {
        //          0123456789012345678901234
        let tree = parse(#"{"a" 1, "b": tru, "c": 3,}"#)
        #expect(codes(tree) == [.expectedColon, .invalidLiteral, .trailingComma])
        #expect(tree.diagnostics.map(\.range) == [5..<6, 13..<16, 24..<25])
        #expect(tree.value("c", in: 0).flatMap(tree.number(at:))?.integer == 3)
        #expect(tree.value("a", in: 0).flatMap(tree.number(at:))?.integer == 1)
    }

    @Test func unterminatedInputs() {
        let tree = parse(#"{"a": [1, 2"#)
        #expect(codes(tree) == [.unexpectedEnd, .unexpectedEnd])
        #expect(tree.diagnostics.allSatisfy { $0.offset == 11 && $0.length == 0 })
        let string = parse(#"{"a": "xy"#)
        #expect(codes(string).first == .unterminatedString)
        #expect(string.diagnostics[0].range == 6..<9)
    }

    @Test func malformedNumbers() {
        let tree = parse("[01, -, 1.e5, 2]")
        #expect(codes(tree) == [.invalidNumber, .invalidNumber, .invalidNumber])
        #expect(tree.diagnostics.map(\.range) == [1..<3, 5..<6, 8..<12])
    }

    @Test func mismatchedBracketAndMissingComma() {
        let tree = parse(#"[1 2}"#)
        #expect(codes(tree) == [.expectedComma, .mismatchedBracket])
        #expect(tree.diagnostics.map(\.range) == [3..<4, 4..<5])
        #expect(tree.children(of: 0).count == 2)
    }

    /// The character a message names is worded as every other message words it (`CharacterName`).
    @Test func anUnexpectedCharacterIsNamedInTheMessage() {
        #expect(parse("[1 #]").diagnostics.map(\.message).first == "expected ',' or ']', found character '#'")
        #expect(parse("{\u{1B}: 1}").diagnostics.map(\.message).first == "expected a quoted key, found byte 0x1B")
        #expect(parse("é").diagnostics.map(\.message).first == "character U+00E9 'é' cannot start a value")
    }

    @Test func emptyInput() {
        let tree = parse("  ")
        #expect(codes(tree) == [.emptyInput])
        #expect(tree.root == nil)
    }

    @Test func nestingBeyondTheLimitIsOneNode() {
        let depth = JSONParser.maximumDepth + 10
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let tree = parse(text)
        #expect(codes(tree) == [.nestingTooDeep])
        #expect(tree.diagnostics[0].range == JSONParser.maximumDepth..<(2 * depth - JSONParser.maximumDepth))
        #expect(tree.count == JSONParser.maximumDepth + 1)
        #expect(tree[0].range == 0..<(2 * depth))
    }

    @Test func everyCodeIsKebabCaseWithPrefix() {
        for code in JSONCode.allCases {
            #expect(code.rawValue.hasPrefix("json-"))
            #expect(code.rawValue.allSatisfy { $0.isLowercase || $0 == "-" || $0.isNumber })
        }
    }
}

@Suite("JSON reader: hostile input")
struct JSONHostileTests {
    /// Random mutations of a valid document: no crash, every range inside the input, pre-order intact.
    @Test func mutationsKeepTheInvariants() {
        let seed = Array(#"{"a":[1,-2.5e3,"x\u00e9\/",true,null],"b":{"c":"d"},"e":""}"#.utf8)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[i] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes.remove(at: i)
                default: bytes.insert(Array(#"{}[]",:\"#.utf8).randomElement(using: &generator)!, at: i)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            let tree = JSONParser.parse(bytes)
            for (index, node) in tree.nodes.enumerated() {
                #expect(node.start <= node.end && node.end <= bytes.count)
                #expect(node.subtreeEnd > index && node.subtreeEnd <= tree.count)
                if node.parent >= 0 { #expect(node.parent < index && tree[node.parent].subtreeEnd >= node.subtreeEnd) }
            }
            for diagnostic in tree.diagnostics {
                #expect(diagnostic.offset >= 0 && diagnostic.range.upperBound <= bytes.count)
            }
        }
    }
}

@Suite("JSON reader: depth")
struct JSONDepthTests {
    @Test func unclosedDeepArraysStayBounded() {
        let tree = JSONParser.parse(Array(repeating: UInt8(ascii: "["), count: 200_000))
        #expect(tree.count == JSONParser.maximumDepth + 1)
        #expect(codes(tree).first == .nestingTooDeep)
        #expect(tree.diagnostics.first?.range == JSONParser.maximumDepth..<200_000)
    }

    @Test func deepObjectsCountContainersNotMembers() {
        let depth = JSONParser.maximumDepth
        let text = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        let tree = JSONParser.parse(Array(text.utf8))
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.count == 2 * depth + 1)
        #expect(tree[2 * depth].depth == 2 * depth)
    }
}

@Suite("JSON reader: string runs")
struct JSONStringRunTests {
    @Test func everyDecodedByteKeepsItsOwnSourceOffset() {
        // 0 " · 1 a · 2 b · 3-4 \/ · 5 c · 6-7 é · 8 space · 9 d · 10 "
        let tree = parse("\"ab\\/c\u{E9} d\"")
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.string(at: 0) == "ab/c\u{E9} d")
        // ASCII runs byte by byte, an escape at its backslash, a multi-byte character at its lead byte.
        #expect(tree.sourceOffsets(ofString: 0) == [1, 2, 3, 5, 6, 6, 8, 9])
    }

    @Test func aControlCharacterEndsARunAndIsReportedWhereItIs() {
        let tree = parse("\"abc\u{01}de\"")
        #expect(codes(tree) == [.controlCharacter])
        #expect(tree.diagnostics.map(\.offset) == [4])
        #expect(tree.string(at: 0) == "abc\u{01}de")
        #expect(tree.sourceOffsets(ofString: 0) == [1, 2, 3, 4, 5, 6])
    }
}

/// Plain ASCII strings take a shortcut past the scanner (issue 12): the same values and ranges,
/// and every string the shortcut must not take still decoded and diagnosed by the scanner.
@Suite("JSON reader: plain strings")
struct JSONPlainStringTests {
    @Test func plainAndEscapedStringsNextToEachOther() {
        //          0         1         2         3
        //          0123456789012345678901234567890123456789
        let tree = parse(#"["a.b-c_d", "x\/y", "é", "", "q"]"#)
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.strings == ["a.b-c_d", "x/y", "é", "", "q"])
        #expect(tree.nodes.map(\.range) == [0..<34, 1..<10, 12..<18, 20..<24, 26..<28, 30..<33])
    }

    @Test func controlCharacterAndUnterminatedStringsAreStillDiagnosed() {
        let control = JSONParser.parse(Array("[\"a\u{01}b\"]".utf8))
        #expect(codes(control) == [.controlCharacter])
        #expect(control.diagnostics.map(\.offset) == [3])
        #expect(control.strings == ["a\u{01}b"])
        let open = parse(#"["abc"#)
        #expect(codes(open).first == .unterminatedString)
        #expect(open.diagnostics.first?.offset == 1)
        #expect(open.strings == ["abc"])
    }
}
