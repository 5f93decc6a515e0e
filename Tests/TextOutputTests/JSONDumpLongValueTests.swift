import Foundation
import Testing
@testable import ByteText
@testable import ASN1Lenient
@testable import TextOutput

/// `dump --format json` of values far longer than a chunk: written out as they are escaped, so the
/// writer's buffer stays near one chunk (issue 32: 50 MB of base64 held 355 MB, a 37 MB
/// VideotexString's text three times over), and the text is what the whole value escapes to.
@Suite struct JSONDumpLongValueTests {
    static func der(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        var n = content.count
        while n > 0 { length.insert(UInt8(n & 0xFF), at: 0); n >>= 8 }
        return [tag, 0x80 | UInt8(length.count)] + length + content
    }

    /// The one node's object, as a dictionary, and the largest the node writer's buffer grew to.
    static func dumpOne(_ bytes: [UInt8]) throws -> (node: [String: Any], bufferCapacity: Int) {
        let tree = ASN1Parser.parse(bytes)
        let out = OutputWriter(.memory)
        var writer = JSONDump.NodeWriter(tree: tree, out: out)
        tree.bytes.withUnsafeBufferPointer { writer.node($0, 0, tree.nodes[0], parent: -1) }
        writer.buf.drain(to: out, force: true)
        let capacity = writer.buf.capacity
        writer.buf.deallocate()
        let object = try JSONSerialization.jsonObject(with: Data(out.collected))
        return (try #require(object as? [String: Any]), capacity)
    }

    /// 2 MB of every byte value in turn: bytes ≥ 0x80 are Latin-1, C0 and C1 controls and the soft
    /// hyphen are escaped.
    @Test func aLongVideotexStringIsWrittenInPiecesAsItsWholeText() throws {
        let content = (0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let (node, capacity) = try Self.dumpOne(Self.der(tag: 21, content))
        #expect(node["value_type"] as? String == "string")
        #expect(node["lossy"] as? Bool == true)
        let expected = String(String.UnicodeScalarView(content.map { Unicode.Scalar($0) }))
        #expect(node["value"] as? String == expected)
        #expect(capacity < 1 << 20, "the buffer grew to \(capacity) bytes")
        // Escaped as the whole value is: no raw control or soft hyphen in the bytes written.
        var whole = TextBuffer()
        JSONDump.string(expected, &whole)
        #expect(whole.bytes.count > content.count * 2)
        #expect(!String(decoding: whole.bytes, as: UTF8.self).unicodeScalars.contains(where: TerminalSafe.mustEscape))
    }

    @Test func aLongUTF8StringWithBadBytesIsTheLossyText() throws {
        let content = Array(repeating: Array("€ok\u{1F600}".utf8) + [0xC3], count: 40_000).flatMap { $0 }
        let (node, capacity) = try Self.dumpOne(Self.der(tag: 12, content))
        #expect(node["value"] as? String == String(decoding: content, as: UTF8.self))
        #expect(node["lossy"] as? Bool == true)
        #expect(capacity < 1 << 20)
    }

    @Test func aLongOctetStringIsItsHexInPieces() throws {
        let content = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 ^ ($0 >> 8)) }
        let (node, capacity) = try Self.dumpOne(Self.der(tag: 4, content))
        #expect(node["value_type"] as? String == "octets")
        #expect(node["value"] as? String == Hex.string(content[...], .upper))
        #expect(capacity < 1 << 20, "the buffer grew to \(capacity) bytes")
    }

    @Test func aLongIntegerHasItsHexAndNoDecimal() throws {
        let content: [UInt8] = [0x01] + Array(repeating: 0xAB, count: 600_000)
        let (node, capacity) = try Self.dumpOne(Self.der(tag: 2, content))
        #expect(node["value_type"] as? String == "integer")
        #expect(node["value"] == nil)
        #expect(node["hex"] as? String == "01" + String(repeating: "AB", count: 600_000))
        #expect(capacity < 1 << 20)
    }

    /// Below 513 octets an INTEGER keeps its decimal; the long-value path leaves it as it was.
    @Test func aShortLongIntegerKeepsItsDecimal() throws {
        let (node, _) = try Self.dumpOne(Self.der(tag: 2, [0x01] + Array(repeating: 0, count: 20)))
        #expect(node["value"] as? String == "1461501637330902918203684832716283019655932542976")  // 2^160
        #expect(node["hex"] as? String == "01" + String(repeating: "00", count: 20))
    }

    /// `TerminalSafe.mustEscape` answers U+00A0–U+00FF without a property lookup (a lookup a
    /// scalar was a tenth of a long Latin-1 value's time): the answer is the general category's.
    @Test func theLatin1ShortcutAgreesWithTheGeneralCategory() {
        for v in 0xA0...0xFF {
            let scalar = Unicode.Scalar(UInt8(v))
            let byCategory: Bool
            switch scalar.properties.generalCategory {
            case .format, .lineSeparator, .paragraphSeparator, .control, .surrogate: byCategory = true
            default: byCategory = false
            }
            #expect(TerminalSafe.mustEscape(scalar) == byCategory, "U+\(String(v, radix: 16))")
        }
        #expect(TerminalSafe.mustEscape("\u{AD}"))
    }
}
