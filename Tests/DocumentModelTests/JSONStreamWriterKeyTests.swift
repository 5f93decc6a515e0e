import Testing
@testable import DocumentCore
@testable import DocumentFormats

/// The writer's constant keys and strings are copied without escaping, table keys are written from
/// bytes quoted once, and data keys are escaped: exact bytes, compact and pretty.
@Suite struct JSONStreamWriterKeyTests {
    static func document(compact: Bool, _ body: (inout JSONStreamWriter) -> Void) -> String {
        var w = JSONStreamWriter(compact: compact)
        w.openObject()
        body(&w)
        w.closeObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func everyKindOfKeyCompactAndPretty() {
        let body: (inout JSONStreamWriter) -> Void = { w in
            w.key("a_constant"); w.constant("in_app")
            w.key(quoted: Array("\"bundle_id\"".utf8)); w.string("com.example")
            w.key(escaping: "pro\"duct\u{1B}"); w.int(-12)
        }
        #expect(Self.document(compact: true, body)
                == #"{"a_constant":"in_app","bundle_id":"com.example","pro\"duct\u001b":-12}"#)
        #expect(Self.document(compact: false, body)
                == "{\n  \"a_constant\": \"in_app\",\n  \"bundle_id\": \"com.example\",\n  \"pro\\\"duct\\u001b\": -12\n}")
    }

    @Test func constantsAreCheckedPlain() {
        #expect(JSONStreamWriter.isPlain("expires_date_ms"))
        #expect(!JSONStreamWriter.isPlain("a\"b"))
        #expect(!JSONStreamWriter.isPlain("a\\b"))
        #expect(!JSONStreamWriter.isPlain("tab\there"))
        #expect(!JSONStreamWriter.isPlain("é"))
    }

    /// The receipt's field keys, quoted once, are what escaping each one would write.
    @Test func fieldKeysQuotedOnceAreTheEscapedKeys() {
        let keys = JSONFieldKeys.shared
        #expect(keys.quoted.count == keys.names.count && keys.names.count > 40)
        for (name, quoted) in zip(keys.names, keys.quoted) {
            var escaped: [UInt8] = []
            ReceiptJSON.writeString(name, into: &escaped)
            #expect(quoted == escaped, "\(name)")
        }
    }

    /// The writer's own buffer grows past its first capacity without losing or moving a byte: the
    /// same document as the dictionary serializer writes, compact and pretty.
    @Test func growsPastItsCapacityAsTheSerializerWrites() {
        let values: [String] = (0..<600).map { "value \($0) \u{1B} é \"q\" " + String(repeating: "x", count: $0 % 90) }
        for compact in [true, false] {
            var w = JSONStreamWriter(compact: compact, capacity: 1)
            w.openArray()
            for v in values { w.element(); w.string(v) }
            w.closeArray()
            #expect(String(decoding: w.finishLine(), as: UTF8.self) == ReceiptJSON.serialize(values, compact: compact))
        }
    }
}
