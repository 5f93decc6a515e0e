import JSONLenient
import ASN1Lenient
import JWSKit
import Testing

@Suite("JWS decoding: malformed tokens")
struct MalformedTokenTests {
    @Test func badBase64urlCharacterAtItsOffset() {
        var text = token(payload: #"{"transactionId":"1"}"#)
        let dot = text.firstIndex(of: UInt8(ascii: "."))!
        text[dot + 5] = UInt8(ascii: "+")
        let d = JWSDocument.decode(text: text)
        #expect(d.codes(.token) == [JWSCode.base64InvalidCharacter.code])
        #expect(d.diagnostics[0].diagnostic.range == (dot + 5)..<(dot + 6))
        #expect(d.diagnostics[0].diagnostic.message == "'+' is standard base64; base64url uses '-' and '_'")
        #expect(d.segment(.payload)!.bytes.count == 21)
    }

    @Test func paddingIsAnError() {
        let text = Array("\(base64url("{}"))==.e30.".utf8)
        let d = JWSDocument.decode(text: text)
        #expect(d.codes(.token) == [JWSCode.base64Padding.code, JWSCode.emptySegment.code])
        #expect(d.diagnostics[0].diagnostic.range == 3..<5)
    }

    @Test func wrongSegmentCountAndEmptySegments() {
        let two = JWSDocument.decode(text: Array("e30.e30".utf8))
        #expect(two.codes(.token) == [JWSCode.segmentCount.code])
        #expect(two.diagnostics[0].diagnostic.range == 0..<7)
        let empty = JWSDocument.decode(text: Array("e30..".utf8))
        #expect(empty.codes(.token) == [JWSCode.emptySegment.code, JWSCode.emptySegment.code])
        #expect(empty.diagnostics.filter { $0.layer == .token }.map(\.diagnostic.range) == [4..<4, 5..<5])
        #expect(empty.codes(.payload) == [JSONCode.emptyInput.code, JWSCode.payloadNotObject.code])
        let jwe = JWSDocument.decode(text: Array("a.b.c.d.e".utf8))
        #expect(jwe.diagnostics[0].diagnostic.message.contains("JWE"))
    }

    @Test func duplicateKeyInThePayload() {
        let d = JWSDocument.decode(text: token(payload: #"{"productId":"a","productId":"b"}"#))
        #expect(d.codes(.payload) == [JSONCode.duplicateKey.code])
        #expect(d.diagnostics[0].diagnostic.range == 17..<28)
    }

    @Test func hugeNumberInThePayload() {
        let d = JWSDocument.decode(text: token(payload: #"{"transactionId":"1","quantity":1152921504606846976}"#))
        #expect(d.codes(.payload) == [JSONCode.numberBeyond53Bits.code])
        #expect(d.diagnostics[0].diagnostic.range == 32..<51)
    }

    @Test func invalidUTF8InAPayloadString() {
        let payload: [UInt8] = Array(#"{"productId":"a"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        let text = Array("\(base64url(#"{"alg":"ES256","x5c":[]}"#)).\(base64url(payload)).\(base64url(Array(repeating: 1, count: 64)))".utf8)
        let d = JWSDocument.decode(text: text)
        #expect(d.codes(.payload) == [JSONCode.invalidUTF8.code])
        #expect(d.diagnostics[0].diagnostic.range == 15..<16)
    }

    @Test func algNoneAndHS256() {
        let none = JWSDocument.decode(text: token(header: #"{"alg":"none"}"#, payload: "{}"))
        #expect(none.codes(.header) == [JWSCode.algNone.code, JWSCode.x5cMissing.code])
        #expect(none.diagnostics[0].diagnostic.range == 7..<13)
        let hs = JWSDocument.decode(text: token(header: #"{"alg":"HS256","x5c":[]}"#, payload: "{}"))
        #expect(hs.codes(.header) == [JWSCode.algUnsupported.code])
    }

    @Test func truncatedSignature() {
        let d = JWSDocument.decode(text: token(payload: "{}", signature: Array(repeating: 7, count: 63)))
        #expect(d.codes(.signature) == [JWSCode.signatureLength.code])
        #expect(d.diagnostics[0].diagnostic.range == 0..<63)
        #expect(d.signature == nil)
    }

    @Test func derSignatureInsteadOfRawIsRecognised() {
        let raw = Array(repeating: UInt8(0x80), count: 32) + Array(repeating: UInt8(0x01), count: 32)
        let der = ECDSASignature(raw: raw)!.der
        let d = JWSDocument.decode(text: token(payload: "{}", signature: der))
        #expect(d.codes(.signature) == [JWSCode.signatureIsDER.code])
        #expect(d.signature?.raw == raw)
    }

    @Test func wrongTypeAndUnknownValues() {
        let d = JWSDocument.decode(text: token(payload: #"{"transactionId":"1","purchaseDate":"yesterday","offerType":9,"newField":true}"#))
        #expect(d.codes(.payload) == [JWSCode.fieldWrongType.code, JWSCode.fieldUnknownValue.code, JWSCode.fieldNotInSchema.code])
        #expect(d.diagnostics[0].diagnostic.range == 36..<47)
        // The unknown value and the unknown member are kept and flagged at info severity: the value
        // itself (offset 60, "9"), the member's quoted key (offset 62, "\"newField\"").
        #expect(d.diagnostics.map(\.diagnostic.severity) == [.error, .info, .info])
        #expect(d.diagnostics[1].diagnostic.range == 60..<61)
        #expect(d.diagnostics[1].diagnostic.message
                == "offerType = 9 is not a known offerType value: not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(d.diagnostics[2].diagnostic.range == 62..<72)
        #expect(d.diagnostics[2].diagnostic.message == "newField is not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(d.payload.value("offerType") == .enumerated(raw: "9", meaning: nil))
        #expect(d.payload.unknownFields == ["newField"])
        #expect(d.payload.value("newField") == .bool(true))
    }

    @Test("only a recognised kind's unknown members are flagged; members of its nested objects too")
    func notInSchemaNeedsAKnownKind() {
        let unrecognised = JWSDocument.decode(text: token(payload: #"{"foo":1,"bar":"x"}"#))
        #expect(unrecognised.payload.kind == .unknown)
        #expect(unrecognised.codes(.payload).isEmpty)
        let notification = JWSDocument.decode(text: token(payload: #"{"notificationType":"TEST","data":{"bundleId":"a","appData":"x"}}"#))
        #expect(notification.codes(.payload) == [JWSCode.fieldNotInSchema.code])
        #expect(notification.diagnostics.first?.diagnostic.message
                == "data.appData is not in this tool's schema (Apple may have added it after 2026-04-27)")
        #expect(notification.payload.unknownFields == ["data.appData"])
    }

    @Test func garbageNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("eyJ0.-_=+/ \"{}".utf8) + [0, 0xFF]
        for _ in 0..<300 {
            let text = (0..<Int.random(in: 0..<80, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let d = JWSDocument.decode(text: text)
            for entry in d.diagnostics where entry.layer == .token {
                #expect(entry.diagnostic.range.upperBound <= text.count)
            }
        }
    }
}

@Suite("ECDSA signature encodings")
struct ECDSASignatureTests {
    @Test func rawToDERDropsZerosAndAddsSignOctets() {
        let r = [UInt8](repeating: 0, count: 31) + [0x05]
        let s = [UInt8](repeating: 0xFF, count: 32)
        let signature = ECDSASignature(raw: r + s)!
        #expect(signature.der == [0x30, 0x26, 0x02, 0x01, 0x05, 0x02, 0x21, 0x00] + s)
        #expect(ECDSASignature(der: signature.der)?.raw == r + s)
    }

    @Test func zeroComponentAndRejects() {
        let zero = ECDSASignature(raw: [UInt8](repeating: 0, count: 64))!
        #expect(zero.der == [0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])
        #expect(ECDSASignature(raw: [1, 2, 3]) == nil)
        #expect(ECDSASignature(der: [0x30, 0x03, 0x02, 0x01, 0x01]) == nil)
        #expect(ECDSASignature(der: [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00]) == nil)
    }
}

@Suite("ISO dates from milliseconds")
struct ISODateTests {
    @Test func knownInstants() {
        #expect(ISODate.string(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(ISODate.string(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(ISODate.string(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(ISODate.string(milliseconds: 1_759_302_518_835) == "2025-10-01T07:08:38.835Z")
    }
}
