import Testing
import ASN1Lenient
@testable import DocumentCore
@testable import DocumentFormats
@testable import ReceiptKit

/// What the writer writes in place (numbers, short copies, strings from bytes, an unlisted
/// attribute's ASN.1 type and value) is byte for byte what building the `String` and escaping it
/// wrote, hostile values included.
@Suite struct JSONStreamWriterInPlaceTests {
    static func written(compact: Bool = true, _ body: (inout JSONStreamWriter) -> Void) -> [UInt8] {
        var w = JSONStreamWriter(compact: compact, capacity: 1)
        body(&w)
        return w.bytes
    }

    static func escaped(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        ReceiptJSON.writeString(s, into: &out)
        return out
    }

    /// Kept whole past `spillFrom`, the document moves to an array as the buffer fills: the line
    /// handed over is the bytes a sink is given, whatever size was expected.
    @Test func aDocumentPastTheBufferIsHandedOverWhole() {
        func write(_ w: inout JSONStreamWriter) {
            w.openArray()
            for i in 0..<200_000 { w.element(); w.string("value \(i) ✓") }
            w.closeArray()
        }
        var streamed: [UInt8] = []
        var sunk = JSONStreamWriter(compact: true, capacity: 1 << 16, sink: { streamed.append(contentsOf: $0) })
        write(&sunk)
        sunk.finishStreamedLine()
        #expect(streamed.count == 3_688_892 && streamed.last == 0x0A)
        for expected in [1, 1 << 20, 8 << 20] {
            var w = JSONStreamWriter(compact: true, capacity: expected)
            write(&w)
            #expect(w.bytes == streamed.dropLast(), "\(expected)")
            #expect(w.finishLine() == streamed, "\(expected)")
        }
    }

    /// Every digit count and both sides of every power of ten, signed and quoted.
    @Test func numbersAreWhatStringWrites() {
        var values: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 170_200, .max, .min, .min + 1, -1, -9, -10]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -(power - 1), -power]
        }
        for v in values {
            #expect(Self.written { $0.int64(v) } == Array(String(v).utf8), "\(v)")
            #expect(Self.written { $0.quotedInt(v) } == Array("\"\(v)\"".utf8), "\(v)")
        }
        for v in [0, 7, 42, 1_000, Int.max] { #expect(Self.written { $0.int(v) } == Array(String(v).utf8)) }
    }

    /// Copies of every length from 0 to 70 (the word moves overlap for lengths that are not a
    /// multiple of the word), as constants, keys and values.
    @Test func copiesOfEveryLengthAreExact() {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,;:!?()[]{}<>=+*/@#$%&~^".utf8)
        for n in 0...70 {
            let text = String(decoding: alphabet.prefix(n), as: UTF8.self)
            let quoted = Self.escaped(text)
            #expect(Self.written { w in
                _ = text.utf8.withContiguousStorageIfAvailable { w.value(quoted: $0) }
            } == Array(text.utf8), "\(n)")
            #expect(Self.written { $0.string(text) } == quoted, "\(n)")
            #expect(Self.written { w in w.openObject(); w.key(quoted: quoted); w.int(n); w.closeObject() }
                    == Array("{".utf8) + quoted + Array(":\(n)}".utf8), "\(n)")
        }
    }

    /// Bytes that are all plain are copied; any other byte (control bytes, `"`, `\`, DEL,
    /// invalid UTF-8, Latin-1, a long value) writes `decoded()`'s text escaped.
    @Test func stringFromBytesIsTheDecodedTextEscaped() {
        let cases: [[UInt8]] = [
            [], Array("com.example.app".utf8), Array(repeating: 0x41, count: 300),
            [0x41, 0x00, 0x42], [0x01, 0x1B, 0x7F], Array("say \"hi\" \\ now\n\t\r".utf8),
            [0xFF, 0xFE, 0x41], [0xC3, 0xA9], [0xE9, 0x20, 0x41], [0xED, 0xA0, 0x80],
            Array(repeating: 0x41, count: 200) + [0x0A] + Array(repeating: 0x42, count: 200),
        ]
        for bytes in cases {
            for decode in [{ String(decoding: $0, as: UTF8.self) },
                           { String($0.map { Character(Unicode.Scalar($0)) }) }] as [([UInt8]) -> String] {
                var called = false
                let out = Self.written { w in
                    bytes.withUnsafeBufferPointer { b in w.string(b) { called = true; return decode(bytes) } }
                }
                #expect(out == Self.escaped(decode(bytes)), "\(bytes)")
                #expect(called == !bytes.withUnsafeBufferPointer { ReceiptJSON.isPlain($0) }, "\(bytes)")
            }
        }
    }

    /// Each universal tag's name, quoted once, is the escaped name.
    @Test func quotedTagNamesAreTheEscapedNames() {
        let names = ReceiptJSON.QuotedTagNames.universal
        #expect(names.count == UniversalTag.names.count)
        for (i, name) in UniversalTag.names.enumerated() {
            #expect(Self.written { names.write(i, into: &$0) } == Self.escaped(name), "\(name)")
        }
    }

    /// Every node of a SEQUENCE of hostile and ordinary values: the streamed `asn1_type` and
    /// `value` are what `tagName(of:)` and `InnerValue.text` escaped wrote.
    @Test func innerValuesAreTheTreeTextEscaped() {
        func tlv(_ tag: [UInt8], _ content: [UInt8]) -> [UInt8] {
            precondition(content.count < 0x10000)
            let length: [UInt8] = content.count < 0x80 ? [UInt8(content.count)]
                : content.count < 0x100 ? [0x81, UInt8(content.count)] : [0x82, UInt8(content.count >> 8), UInt8(content.count & 0xFF)]
            return tag + length + content
        }
        let long = Array(repeating: UInt8(0x7A), count: 600)
        let children: [[UInt8]] = [
            tlv([0x02], [0x80]), tlv([0x02], [0x00]), tlv([0x02], [0xFF]), tlv([0x02], [0x00, 0x05]),
            tlv([0x02], [0x80, 0, 0, 0, 0, 0, 0, 0]), tlv([0x02], [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]),
            tlv([0x02], [0x01, 0, 0, 0, 0, 0, 0, 0, 0]), tlv([0x02], []), tlv([0x02], Array(repeating: 0x11, count: 600)),
            tlv([0x0A], [0x03]), tlv([0x0C], Array("plain".utf8)), tlv([0x0C], []),
            tlv([0x0C], [0x41, 0x01, 0x22, 0x5C, 0x1B, 0x7F]), tlv([0x0C], [0x41, 0xFF, 0xC3]), tlv([0x0C], long),
            tlv([0x0C], Array("\u{2028}é".utf8)), tlv([0x13], Array("Printable".utf8)), tlv([0x16], [0x41, 0xE9, 0x0A]),
            tlv([0x17], Array("240101000000Z".utf8)), tlv([0x18], Array("2024\"0101".utf8)), tlv([0x12], [0x31, 0x80]),
            tlv([0x1E], [0x00, 0x41, 0x00]), tlv([0x1C], [0x00, 0x00, 0x00, 0x41]), tlv([0x01], [0xFF]), tlv([0x01], [0x00, 0x01]),
            tlv([0x05], []), tlv([0x06], [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D]), tlv([0x06], [0x2A, 0x86]),
            tlv([0x04], [0x01, 0x02]), tlv([0x03], [0x00, 0xFF]), tlv([0x80], [0x01]), tlv([0x43], [0x01]),
            tlv([0xC1], [0x01]), tlv([0x1F, 0x2A], [0x01]), tlv([0x31], tlv([0x02], [0x01])), tlv([0x30], []),
        ]
        let tree = ASN1Parser.parse(tlv([0x30], children.flatMap { $0 }))
        #expect(tree.nodes.count > children.count)
        let names = ReceiptJSON.QuotedTagNames.universal
        func streamed(_ index: Int) -> String {
            String(decoding: Self.written { w in
                w.openObject()
                w.key("asn1_type"); ReceiptJSON.writeTagName(index, tree, names, into: &w)
                ReceiptJSON.writeInnerValue(index, tree, into: &w)
                w.closeObject()
            }, as: UTF8.self)
        }
        // Node 0 is the SEQUENCE; its children follow in order.
        #expect(streamed(0) == #"{"asn1_type":"SEQUENCE"}"#)
        #expect(streamed(1) == #"{"asn1_type":"INTEGER","value":"-128"}"#)
        #expect(streamed(4) == #"{"asn1_type":"INTEGER","value":"5"}"#)
        #expect(streamed(5) == #"{"asn1_type":"INTEGER","value":"-9223372036854775808"}"#)
        #expect(streamed(7) == #"{"asn1_type":"INTEGER","value":"18446744073709551616"}"#)
        #expect(streamed(8) == #"{"asn1_type":"INTEGER"}"#)
        #expect(streamed(13) == #"{"asn1_type":"UTF8String","value":"A\u0001\"\\\u001b\u007f"}"#)
        #expect(streamed(14) == "{\"asn1_type\":\"UTF8String\",\"value\":\"A\u{FFFD}\u{FFFD}\"}")  // replaced, as String(decoding:) does
        for index in 0..<tree.nodes.count {
            for compact in [true, false] {
                let streamed = Self.written(compact: compact) { w in
                    w.openObject()
                    w.key("asn1_type"); ReceiptJSON.writeTagName(index, tree, names, into: &w)
                    ReceiptJSON.writeInnerValue(index, tree, into: &w)
                    w.closeObject()
                }
                let built = Self.written(compact: compact) { w in
                    w.openObject()
                    w.key("asn1_type"); w.string(tree.tagName(of: index))
                    if let text = InnerValue.text(of: index, in: tree) { w.key("value"); w.string(text) }
                    w.closeObject()
                }
                #expect(streamed == built, "node \(index): \(String(decoding: built, as: UTF8.self))")
            }
        }
    }
}
