import Foundation
import Testing
@testable import ASN1Lenient
@testable import TextLoader

/// `RequestBodyJSON` replaced `JSONSerialization` in the loader when the tool dropped full Foundation:
/// it must give the same verdict and the same message for every input. The oracle is Foundation's
/// own JSONSerialization (tests may link full Foundation), on hand-picked inputs, every prefix of a
/// body and every single-byte change of it.
@Suite struct RequestBodyJSONTests {
    /// What the loader reads from a parse: the message of a failure, or the keys and the kind of
    /// "receipt-data" (as `InputLoader.jsonKind` names it) of an object.
    enum Reading: Equatable {
        case failure(String)
        case object(keys: [String], receiptData: String)
        case notAnObject
    }

    static func oracle(_ bytes: [UInt8]) -> Reading {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            return .failure((error as NSError).userInfo["NSDebugDescription"] as? String ?? "?")
        }
        guard let dictionary = object as? [String: Any] else { return .notAnObject }
        let kind: String
        switch dictionary["receipt-data"] {
        case nil: kind = "absent"
        case let s as String: kind = "string " + s
        case is NSNull: kind = "null"
        case is [Any]: kind = "an array"
        case is [String: Any]: kind = "an object"
        case is Bool: kind = "a boolean"
        case is NSNumber, is Int, is Double: kind = "a number"
        default: kind = "not a string"
        }
        return .object(keys: dictionary.keys.sorted(), receiptData: kind)
    }

    static func ours(_ bytes: [UInt8]) -> Reading {
        let value: RequestBodyJSON.Value
        do {
            value = try RequestBodyJSON.parse(bytes)
        } catch {
            return .failure(error.message)
        }
        guard case .object(let members) = value else { return .notAnObject }
        let kind: String
        switch members["receipt-data"] {
        case nil: kind = "absent"
        case .string(.verbatim(let range))?: kind = "string " + String(decoding: bytes[range], as: UTF8.self)
        case .string(.decoded(let s))?: kind = "string " + s
        case let other?: kind = InputLoader.jsonKind(other)
        }
        return .object(keys: members.keys.sorted(), receiptData: kind)
    }

    static let body = Array(#"{"receipt-data": "MIIB+w==", "password" : "x\/y", "n": [1, 2.5e3, -0.5, true, false, null, {"a": "\u00e9\ud83d\ude00\n"}],}"#.utf8)

    static let handPicked: [String] = [
        "{}", "{ }", "{\"receipt-data\": \"QUJD\"}", "{\"a\":1,}", "{\"a\":[1,2,],}", "{\"a\" 1}", "{\"a\":\"\\x\"}",
        "{\"a\":tru}", "{\"a\":trux", "{\"a\":trux}", "{\"a\":nul}", "{\"a\":fals}", "{\"a\":1} x", "{\"a\":1}  \n",
        "{'a':1}", "{\"a\":01}", "{\"a\":-01}", "{\"a\":-}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":1e}", "{\"a\":1e+}",
        "{\"a\":1e999}", "{\"a\":-1e999}", "{\"a\":1e-999}", "{\"a\":18446744073709551615}", "{\"a\":18446744073709551616}",
        "{\"a\":-9223372036854775808}", "{\"a\":-9223372036854775809}", "{\"a\":1E5}", "{\"a\":1-2}",
        "{\"receipt-data\": 1}", "{\"receipt-data\": 0}", "{\"receipt-data\": 2}", "{\"receipt-data\": 1.0}",
        "{\"receipt-data\": 0.0}", "{\"receipt-data\": -0}", "{\"receipt-data\": true}", "{\"receipt-data\": null}",
        "{\"receipt-data\": []}", "{\"receipt-data\": {}}", "{\"receipt-data\": \"a\", \"receipt-data\": 5}",
        "{\"a\":\"\\ud800\"}", "{\"a\":\"\\ud800\\u0041\"}", "{\"a\":\"\\ud800x\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\\uZZ00\"}",
        "{\"a\":\"\\u12\"}", "{\"a\":\"\\", "{\"a\":\"\\u", "{\"a\":\"\\ud800\\", "{\"a\":\"\\ud800\\u", "{\"a\":\"ab",
        "{\"a\":\"\u{1}\"}", "{\"a\":\"\t\"}", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "{", " {\"a\":1}", "\u{0C}{}",
        "{1:2}", "{\"a\":[}", "{\"a\":[1 2]}", "{\"a\":{\"b\":}}", "{\"a\":\"é\"}", "{\"é\":1,\"e\":2,\"Z\":3,\"a\":4}",
        "{\"" + String(repeating: "k", count: 3) + "\":[" + String(repeating: "[", count: 600) + "]}",
        "{\"a\":" + String(repeating: "{\"b\":", count: 520) + "1" + String(repeating: "}", count: 520) + "}",
    ]

    /// A string written as itself is read as its place in the text (its content is never copied: a
    /// 67 MB "receipt-data"); one with an escape is decoded.
    @Test func aStringWithoutEscapesIsReadAsItsPlace() throws {
        let text = Array(#"{"receipt-data": "MIIB+w==", "password": "x\/y"}"#.utf8)
        guard case .object(let members) = try RequestBodyJSON.parse(text) else { Issue.record("not an object"); return }
        guard case .string(.verbatim(let range))? = members["receipt-data"] else { Issue.record("not verbatim"); return }
        #expect(range == 18..<26)
        #expect(String(decoding: text[range], as: UTF8.self) == "MIIB+w==")
        guard case .string(.decoded(let password))? = members["password"] else { Issue.record("not decoded"); return }
        #expect(password == "x/y")
    }

    @Test func handPickedInputsReadAsJSONSerializationReadsThem() {
        for text in Self.handPicked {
            let bytes = Array(text.utf8)
            #expect(Self.ours(bytes) == Self.oracle(bytes), "\(text.prefix(80))")
        }
    }

    @Test func invalidUTF8ReadsAsJSONSerializationReadsIt() {
        let cases: [[UInt8]] = [
            [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x22, 0x7D],
            [0x7B, 0x22, 0xFF, 0x01, 0x22], [0x7B, 0x22, 0x61, 0x5C, 0xC3, 0xA9, 0x22, 0x3A, 0x31, 0x7D],
            [0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D], [0x7B, 0x22, 0xC0, 0xAF, 0x22, 0x3A, 0x31, 0x7D],
            [0x7B, 0x22, 0x61, 0x5C, 0x75, 0xFF, 0x30, 0x30, 0x30, 0x22, 0x3A, 0x31, 0x7D],
            Array(#"{"a":"\ud800"#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
        ]
        for bytes in cases {
            #expect(Self.ours(bytes) == Self.oracle(bytes), "\(bytes)")
        }
    }

    @Test func everyPrefixOfABodyReadsAsJSONSerializationReadsIt() {
        for end in 0...Self.body.count {
            let bytes = Array(Self.body[..<end])
            #expect(Self.ours(bytes) == Self.oracle(bytes), "prefix \(end)")
        }
    }

    @Test func everySingleByteChangeOfABodyReadsAsJSONSerializationReadsIt() {
        let replacements: [UInt8] = [0x00, 0x01, 0x09, 0x0A, 0x20, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A,
                                     0x30, 0x31, 0x2D, 0x2E, 0x65, 0x2B, 0x61, 0x74, 0x6E, 0x75, 0x7F, 0x80, 0xC3, 0xFF]
        var compared = 0
        for position in Self.body.indices {
            for byte in replacements where byte != Self.body[position] {
                var bytes = Self.body
                bytes[position] = byte
                #expect(Self.ours(bytes) == Self.oracle(bytes), "byte \(position) → \(byte)")
                compared += 1
            }
        }
        #expect(compared > 3000)
    }

    @Test func theLoaderNamesTheReceiptDataKindsAsBefore() {
        #expect(Self.ours(Array("{\"receipt-data\": 1}".utf8)) == .object(keys: ["receipt-data"], receiptData: "a boolean"))
        #expect(Self.ours(Array("{\"receipt-data\": 2}".utf8)) == .object(keys: ["receipt-data"], receiptData: "a number"))
        #expect(Self.ours(Array("{\"a\":01}".utf8)) == .failure("Number with leading zero around character 6."))
    }
}
